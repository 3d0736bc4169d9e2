"""Writing reports so that they are never lost and never corrupt.

* :func:`turub.conformance.option_checks.output_paths` checks every output path of a run *before* it
  starts (a folder, a dangling symlink, a name too long, a full or read-only device, one
  file named for two reports).
* :func:`write_atomically` writes a report to a temporary file in the same folder and renames
  it over the old one (``os.replace``): a write that fails (a full disk, the folder gone)
  leaves the old file as it was and raises :class:`ReportWriteError` with one line.  A path
  that is not a regular file (``/dev/stdout``, a pipe, ``/dev/full``) is written in place.
  Every output goes through it: the JSON, JUnit and expected-failures reports, ``--html``'s
  page and badge, ``turub report``'s page and badges, the exported vectors.
* :func:`turub.user_files.planted_link`: a symbolic link in a sticky world-writable folder (``/tmp``), which
  another user could have planted, is never followed (refused before the run and again at
  the write).
* :func:`strict_json` is JSON as RFC 8259 has it: never ``NaN`` or ``Infinity`` (a value JSON
  cannot hold, such as an answer of ``1e999``, is recorded as its text, ``"inf"``).
* :func:`lock_exclusively` keeps two runs from writing one streamed ``--jsonl`` file at once.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import tempfile
from collections.abc import Callable
from typing import IO, Any

from turub.user_files import no_follow_flag, planted_link

from ..option_checks import OptionError

__all__ = ["ReportWriteError", "write_atomically", "strict_json", "finite", "lock_exclusively"]


class ReportWriteError(OSError):
    """A report could not be written; the message is one line naming the file."""


def finite(value: Any) -> Any:
    """``value`` with every float JSON cannot hold (``nan``, ``inf``) replaced by its text.

    >>> finite({"got": [1.5, float("inf")], "x": float("nan")})
    {'got': [1.5, 'inf'], 'x': 'nan'}
    """
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def strict_json(value: Any, **kwargs: Any) -> str:
    """``json.dumps(value, allow_nan=False, **kwargs)``; non-finite numbers become text."""
    try:
        return json.dumps(value, allow_nan=False, **kwargs)
    except ValueError:  # a NaN or an infinity somewhere: recorded as text
        return json.dumps(finite(value), allow_nan=False, **kwargs)


def write_atomically(path: str, write: Callable[[IO[str]], object], what: str = "report") -> None:
    """Write ``path`` with ``write(stream)``: into a temporary file beside it, then renamed
    over it, so a failed write keeps the old file.  :class:`ReportWriteError` says why.

    A name in a sticky world-writable folder is never followed: a symbolic link there is
    refused, and the file is renamed onto the name itself (a link planted after the check is
    replaced, not followed); a device there is opened with ``O_NOFOLLOW``."""
    if (why := planted_link(path)) is not None:
        raise ReportWriteError(f"cannot write the {what} to {path}: {why}")
    shared = bool(no_follow_flag(path))
    try:
        regular = not os.path.exists(path) or stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        regular = True
    if not regular:  # a device or a pipe: written in place
        try:
            fd = os.open(path, os.O_WRONLY | os.O_TRUNC | no_follow_flag(path))
            with open(fd, "w", encoding="utf-8") as f:
                write(f)
        except OSError as e:
            raise ReportWriteError(f"cannot write the {what} to {path}: {e.strerror or e}") from None
        return
    # a link to a file (in a folder only its owners write): the file it names is replaced
    target = os.path.abspath(path) if shared else os.path.realpath(path)
    folder = os.path.dirname(target) or "."
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)[:40]}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        if os.path.exists(target) and not os.path.islink(target):
            os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
        tmp = None
    except OSError as e:
        kept = "the old file is kept" if os.path.exists(target) else "nothing was written"
        raise ReportWriteError(f"cannot write the {what} to {path}: {e.strerror or e} ({kept})") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def lock_exclusively(f: IO[str], path: str) -> None:
    """Hold an exclusive lock on an open file for as long as it stays open; another run
    writing it already is an :class:`~turub.conformance.option_checks.OptionError`."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        return
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise OptionError(f"--jsonl {path}: another run is writing it") from None
        # a file system without locks: go on unlocked
