"""The entry points: one check run (check), the planned checks (listing), the command line
(cli: ``turub check``, ``turub vectors``, ``turub variants``) and the pytest plugin (plugin).

Imports: every other room; nothing imports this one.
"""
