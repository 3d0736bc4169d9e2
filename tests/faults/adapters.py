"""Misbehaving ``--python`` adapters for the fault catalogue.

Each answers ``trick_winner`` (through the reference engine) except where it misbehaves,
on the third call; it supports only that operation so that a run is small.
"""

from __future__ import annotations

import ctypes
import os
import sys
import time

from turub.conformance.adapter import ReferenceImplementation


class _Base(ReferenceImplementation):
    calls = 0

    def supports(self):
        return ["trick_winner"]

    def trick_winner(self, cards, trump):
        type(self).calls += 1
        if type(self).calls == 3:
            return self.misbehave(cards, trump)
        return super().trick_winner(cards, trump)

    def misbehave(self, cards, trump):
        return super().trick_winner(cards, trump)


class Good(_Base):
    name = "good-adapter"


class ReturnsASet(_Base):
    def misbehave(self, cards, trump):
        return {0}


class ReturnsAnObject(_Base):
    def misbehave(self, cards, trump):
        return object()


class CallsExit(_Base):
    def misbehave(self, cards, trump):
        sys.exit(0)


class ExitsTheProcess(_Base):
    """Ends the process it runs in, finally blocks and atexit included."""

    def misbehave(self, cards, trump):
        os._exit(0)


class Aborts(_Base):
    def misbehave(self, cards, trump):
        os.abort()


class ExitsFromC(_Base):
    """A C library that calls exit(): the C runtime's exit, not Python's."""

    def misbehave(self, cards, trump):
        ctypes.CDLL(None).exit(0)


class RaisesKeyboardInterrupt(_Base):
    def misbehave(self, cards, trump):
        raise KeyboardInterrupt


class Hangs(_Base):
    def misbehave(self, cards, trump):
        time.sleep(60)


class Prints(_Base):
    def misbehave(self, cards, trump):
        print('{"id": 1, "result": "not from the protocol"}')
        return super().misbehave(cards, trump)


class Slow(_Base):
    """Correct, and a quarter of a second on each answer: a kit stopped at any moment is
    almost surely waiting for one (tests/test_program_time.py)."""
    name = "slow-adapter"

    def trick_winner(self, cards, trump):
        time.sleep(0.25)
        return super().trick_winner(cards, trump)
