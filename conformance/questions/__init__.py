"""What the kit asks: the generated cases (cases), the committed vectors (vectors), choosing
checks (select), differential play (differential) and the property suites (properties).

Imports: judging, programs and the shared modules.
"""
