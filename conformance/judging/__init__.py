"""Judging one answer: the expected answer from the reference or a variant (variant_reference) and the
verdict on an answer against it, with its outcome class (judge).

Imports: programs and the shared modules.
"""
