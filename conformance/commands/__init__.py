"""The entry points: one check run as a pipeline (check: start, ask, differential, properties,
close, assemble; case_stage: each case asked and judged as its answer comes), the planned checks
(listing), the command line (cli: ``turub check``; tools: ``turub vectors``, ``turub variants``,
``turub schema``, ``turub report``), the boundary around user code run in this process
(usercode: variant files, what they print, the time limit) and the pytest plugin (plugin).

Imports: every other room; nothing imports this one.
"""
