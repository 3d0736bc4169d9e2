"""Talking to the program under test: starting and stopping it (process), the JSON-lines
protocol client (protocol), the Python adapter behind a worker process (shim, loader), a forked
second process for the property suites (lane), several instances at once (parallel), and the
targets' common answer types (targets).

Imports: the kit's shared modules only (adapter, args, text, resources).
"""
