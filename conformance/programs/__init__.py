"""Talking to the program under test: starting and stopping it (process), the JSON-lines
protocol client (protocol: the target's life cycle; pipes: the process and its pipes;
messages: reading and writing lines, and the published schema that decides their shape;
handshake: ``hello``; exchange: one run of requests), the Python adapter behind a worker process
(shim, loader), a forked second process for the property suites (lane), several instances at
once (parallel), and the targets' common answer types (targets).

Imports: the kit's shared modules only (adapter, args, text, resources).
"""
