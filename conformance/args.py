"""Checking the kit's options and files before anything runs.

Each check returns the value or raises :class:`OptionError` with one line naming the option
and what is wrong; the command line turns it into exit status 2.  Numbers must be finite
(``float("nan")`` and ``float("inf")`` pass a plain ``type=float``, and a NaN deadline never
comes) and in range; input files readable and well formed; output paths writable, checked
before the run rather than after it.

The defaults the command line shows are here too, beside the checks, so that building the
parser (``turub check --help``) imports nothing else of the kit; the modules that apply
them import them from here.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Final

#: The exit status of a usage error: a bad option, file or argument (``turub.conformance.reports.report.EXIT_STATUSES``).
EXIT_USAGE: Final = 2
#: The longest answer line accepted, in bytes (``turub check --max-line``; the protocol client's default).
DEFAULT_LINE_LIMIT: Final = 1 << 20
#: Where the README's build command writes the specification site (from the project's root):
#: ``--spec-url``'s default, where the HTML reports link each clause.
DEFAULT_SPEC_URL: Final = "docs/_build/html"
#: Deals played under each variant and refereed by both, besides the vectors (``turub variants diff --deals``).
PLAYED_DEALS: Final = 12

__all__ = ["OptionError", "number", "integer", "input_text", "output_path", "program_command",
           "EXIT_USAGE", "DEFAULT_LINE_LIMIT", "DEFAULT_SPEC_URL", "PLAYED_DEALS"]


class OptionError(ValueError):
    """A bad option or file: the message names it."""


def number(option: str, value: float, *, low: float = 0.0, high: float = math.inf,
           low_inclusive: bool = False) -> float:
    """A finite number in (``low``, ``high``] (or [``low``, ``high``])."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise OptionError(f"{option} must be a finite number, not {value!r}")
    if value < low or (value == low and not low_inclusive):
        raise OptionError(f"{option} must be {'at least' if low_inclusive else 'more than'} {low:g}, not {value:g}")
    if value > high:
        raise OptionError(f"{option} must be at most {high:g}, not {value:g}")
    return float(value)


def integer(option: str, value: int, *, low: int = 0, high: int | None = None) -> int:
    """An integer in [``low``, ``high``]."""
    if value < low:
        raise OptionError(f"{option} must be at least {low}, not {value}")
    if high is not None and value > high:
        raise OptionError(f"{option} must be at most {high}, not {value}")
    return value


def input_text(option: str, path: str) -> str:
    """The whole text of a UTF-8 input file."""
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise OptionError(f"{option} {path}: is a directory, not a file") from None
    except OSError as e:
        raise OptionError(f"{option} {path}: cannot read it ({e.strerror or e})") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise OptionError(f"{option} {path}: not UTF-8 text (byte {e.start})") from None


def output_path(option: str, path: str | None) -> str | None:
    """An output path that can be written (``-`` is stdout), checked without writing it."""
    if path is None or path == "-":
        return path
    p = Path(path)
    if not path.strip():
        raise OptionError(f"{option}: an empty file name")
    if p.is_dir():
        raise OptionError(f"{option} {path}: is a directory")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise OptionError(f"{option} {path}: the folder {parent} does not exist")
    if p.exists() and not os.access(p, os.W_OK):
        raise OptionError(f"{option} {path}: not writable")
    if not p.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise OptionError(f"{option} {path}: cannot create a file in {parent}")
    return path


def program_command(argv: Sequence[str]) -> list[str]:
    """The program's command line: everything after the first ``--``, exactly as given
    (a later ``--`` included); without a ``--``, the words given as they are."""
    words = list(argv)
    return words[1:] if words[:1] == ["--"] else words


def output_dir(option: str, path: str | None) -> str | None:
    """A folder to write into (created if missing, its parent must exist), checked without
    writing anything."""
    if path is None:
        return path
    p = Path(path)
    if not path.strip():
        raise OptionError(f"{option}: an empty folder name")
    if p.exists() and not p.is_dir():
        raise OptionError(f"{option} {path}: not a folder")
    if p.is_dir():
        if not os.access(p, os.W_OK | os.X_OK):
            raise OptionError(f"{option} {path}: not writable")
        return path
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise OptionError(f"{option} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OptionError(f"{option} {path}: cannot create a folder in {parent}")
    return path
