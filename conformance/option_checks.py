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
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

from .text import safe_text

#: The exit status of a usage error: a bad option, file or argument (``turub.conformance.reports.report.EXIT_STATUSES``).
EXIT_USAGE: Final = 2
#: The longest answer line accepted, in bytes (``turub check --max-line``; the protocol client's default).
DEFAULT_LINE_LIMIT: Final = 1 << 20
#: Where the README's build command writes the specification site (from the project's root):
#: ``--spec-url``'s default, where the HTML reports link each clause.
DEFAULT_SPEC_URL: Final = "docs/_build/html"
#: Deals played under each variant and refereed by both, besides the vectors (``turub variants diff --deals``).
PLAYED_DEALS: Final = 12

__all__ = ["OptionError", "number", "integer", "input_text", "output_path", "output_paths", "program_command",
           "EXIT_USAGE", "DEFAULT_LINE_LIMIT", "DEFAULT_SPEC_URL", "PLAYED_DEALS"]


class OptionError(ValueError):
    """A bad option or file: the message names it."""


def _short(path: str, limit: int = 120) -> str:
    """A path as a message shows it: at most ``limit`` characters, control characters escaped."""
    return safe_text(path if len(path) <= limit else path[:limit] + "…")


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
    """The whole text of a UTF-8 input file (:func:`turub.user_files.read_input_text`)."""
    from ..user_files import InputFileError, read_input_text
    try:
        return read_input_text(path)
    except InputFileError as e:
        raise OptionError(f"{option} {e}") from None


def _name_too_long(path: str) -> bool:
    folder = os.path.dirname(path) or "."
    try:
        name_max = os.pathconf(folder if os.path.isdir(folder) else ".", "PC_NAME_MAX")
        path_max = os.pathconf(folder if os.path.isdir(folder) else ".", "PC_PATH_MAX")
    except (OSError, ValueError):
        name_max, path_max = 255, 4096
    name = os.path.basename(path)
    return len(os.fsencode(name)) > name_max or len(os.fsencode(os.path.abspath(path))) >= path_max


def _device_full(folder: str) -> bool:
    try:
        s = os.statvfs(folder)
    except OSError:
        return False
    return s.f_bavail == 0 and s.f_blocks > 0


def _check_path(option: str, path: str) -> None:
    """One output file path, checked without writing it (:class:`OptionError` if not)."""
    if not path.strip():
        raise OptionError(f"{option}: an empty file name")
    try:
        if _name_too_long(path):
            raise OptionError(f"{option} {_short(path, 60)}: the name is too long for the file system")
        if os.path.islink(path) and not os.path.exists(path):
            raise OptionError(f"{option} {_short(path)}: a symbolic link to {os.readlink(path)}, which does not exist")
        from ..user_files import planted_link
        if (why := planted_link(path)) is not None:
            raise OptionError(f"{option} {_short(path)}: {why}")
        if os.path.isdir(path):
            raise OptionError(f"{option} {_short(path)}: is a directory")
        folder = os.path.dirname(os.path.realpath(path)) or "."
        if not os.path.isdir(folder):
            raise OptionError(f"{option} {_short(path)}: the folder {os.path.dirname(path) or '.'} does not exist")
        if os.path.exists(path):
            if not os.access(path, os.W_OK):
                raise OptionError(f"{option} {_short(path)}: not writable")
            regular = stat.S_ISREG(os.stat(path).st_mode)
            if regular and not os.access(folder, os.W_OK | os.X_OK):
                raise OptionError(f"{option} {_short(path)}: its folder is not writable (the report is "
                                      "written beside it, then renamed)")
        elif not os.access(folder, os.W_OK | os.X_OK):
            raise OptionError(f"{option} {_short(path)}: cannot create a file in {folder}")
        if (not os.path.exists(path) or stat.S_ISREG(os.stat(path).st_mode)) and _device_full(folder):
            raise OptionError(f"{option} {_short(path)}: the device is full")
    except OSError as e:  # ENAMETOOLONG, ELOOP, EACCES... from a check itself
        raise OptionError(f"{option} {_short(path)}: {e.strerror or e}") from None


def _identity(path: str) -> tuple:
    """What names one file, however it is spelt: its device and inode, or its real path."""
    try:
        s = os.stat(path)
        return ("inode", s.st_dev, s.st_ino)
    except OSError:
        return ("path", os.path.realpath(path))


def output_paths(paths: Iterable[tuple[str, str | None]]) -> None:
    """Every ``(option, path)`` of one run checked (``None``: not asked; ``-``: stdout); two
    options naming one file (or stdout twice) is an :class:`OptionError`."""
    seen: dict[tuple, str] = {}
    for option, path in paths:
        if path is None:
            continue
        if path == "-":
            key: tuple = ("stdout",)
        else:
            _check_path(option, path)
            key = _identity(path)
            if path in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"):
                key = ("stdout",)
        if key in seen:
            what = "standard output" if key == ("stdout",) else "the same file"
            raise OptionError(f"{seen[key]} and {option} both name {what} ({_short(path)}): one report per file")
        seen[key] = option


def output_path(option: str, path: str | None) -> str | None:
    """An output path that can be written (``-`` is stdout), checked without writing it."""
    if path is not None and path != "-":
        _check_path(option, path)
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
    try:
        return _check_dir(option, path)
    except OSError as e:  # a name too long, a loop of links
        raise OptionError(f"{option} {_short(path)}: {e.strerror or e}") from None


def _check_dir(option: str, path: str) -> str:
    p = Path(path)
    if not path.strip():
        raise OptionError(f"{option}: an empty folder name")
    from ..user_files import planted_link
    if (why := planted_link(path)) is not None:
        raise OptionError(f"{option} {_short(path)}: {why}")
    if p.exists() and not p.is_dir():
        raise OptionError(f"{option} {_short(path)}: not a folder")
    if p.is_dir():
        if not os.access(p, os.W_OK | os.X_OK):
            raise OptionError(f"{option} {_short(path)}: not writable")
        return path
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise OptionError(f"{option} {_short(path)}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OptionError(f"{option} {_short(path)}: cannot create a folder in {parent}")
    return path
