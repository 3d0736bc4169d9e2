"""Timing whole processes for the benchmarks that run a command (pyperf time functions)."""

from __future__ import annotations

import os
import subprocess
import time


def child_cpu(loops: int, command: list[str]) -> float:
    """CPU seconds (user + system) of ``loops`` runs of ``command``, each a fresh process."""
    before = os.times()
    for _ in range(loops):
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user
            + after.children_system - before.children_system)


def child_wall(loops: int, command: list[str]) -> float:
    """Elapsed seconds of ``loops`` runs of ``command``, each a fresh process."""
    started = time.perf_counter()
    for _ in range(loops):
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started
