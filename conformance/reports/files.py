"""Writing reports so that they are never lost and never corrupt.

* :func:`turub.conformance.option_checks.output_paths` checks every output path of a run *before* it
  starts (a folder, a dangling symlink, a name too long, a full or read-only device, one
  file named for two reports).
* :func:`write_atomically` (the one writer of the kit and of ``turub``,
  :func:`turub.user_files.write_atomically`, named here for the reports) writes a report to a
  temporary file in the same folder and renames it over the old one (``os.replace``): a write
  that fails (a full disk, the folder gone) leaves the old file as it was and raises
  :class:`ReportWriteError` with one line.  A path that is not a regular file
  (``/dev/stdout``, a pipe, ``/dev/full``) is written in place.  Every output goes through
  it: the JSON, JUnit and expected-failures reports, ``--html``'s page and badge,
  ``turub report``'s page and badges, the exported and the regenerated vectors, a release's
  frozen cases and their digests.
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
from typing import IO, Any

from turub.user_files import ReportWriteError, write_atomically

from ..option_checks import OptionError

__all__ = ["ReportWriteError", "write_atomically", "strict_json", "finite", "lock_exclusively"]


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
