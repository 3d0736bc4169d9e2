"""Files a user names, as an adversary could give them: one read as input, one written to.

Reading: a regular file of bounded size, or one clear line.

Every file a command reads because a user named it (a house rule's ``.toml``, ``.json`` or
``.py``, an expected-failures file, a report given to ``turub report`` or ``--diff``) is read by
:func:`read_input`: opened without blocking (a FIFO with no writer does not hang the reader),
refused unless it is a regular file (``/dev/zero``, a FIFO, a folder, a socket), and read with a
limit (a 50 MB file is refused, never loaded whole). What is wrong is an :class:`InputFileError`
whose message is one line naming the file.

>>> read_input("/dev/zero")
Traceback (most recent call last):
...
turub.user_files.InputFileError: /dev/zero: a character device, not a regular file

Writing: every file the kit or the ``turub`` command writes (a report, a page, a badge, the
vectors, a release's cases and their digests) goes through :func:`write_atomically`, the one
writer: a temporary file beside the final name, then renamed over it, so that a failed write
(a full disk) keeps the old file whole.  :func:`planted_link` says why a path may not be
written when it is a symbolic link in a sticky world-writable folder (``/tmp``), which another
user could have planted (the kernel's ``protected_symlinks`` guard does not cover a rename onto
it); :func:`no_follow_flag` gives ``O_NOFOLLOW`` for an ``os.open`` in such a folder.  The
writer and the kit's checks of output paths use both.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from typing import IO, Any, Final

__all__ = ["InputFileError", "MAX_INPUT_BYTES", "read_input", "read_input_text", "is_open_to_others",
           "no_follow_flag", "planted_link", "ReportWriteError", "write_atomically", "one_line", "described"]

#: The largest input file read (a report of the deepest run is a few MB).
MAX_INPUT_BYTES: Final = 16 * 2**20

_KINDS: Final = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                 (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                 (stat.S_ISSOCK, "a socket"))


class InputFileError(ValueError):
    """An input file that cannot be read as given; the message is one line naming it."""


def one_line(text: str) -> str:
    """``text`` as one line of a command's error: each character that is not printable (a
    line break, an escape code, a bidi override) written as its escape (``\\n``, ``\\x1b``),
    so that words a user's file chose cannot end the line or drive the terminal; the rest,
    the suits' symbols included, as it is.

    >>> one_line("variant rs\\x1b[31m 1\\n2: 7♠")
    'variant rs\\\\x1b[31m 1\\\\n2: 7♠'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
                   for c in text)


def described(error: BaseException, limit: int = 200) -> str:
    """What user code raised, in a few words: its type and the first line of its text
    (``ValueError: no``), never failing: an exception whose text cannot be had (its
    ``__str__`` raises) is named by its type alone."""
    try:
        text = str(error)
    except Exception:  # noqa: BLE001 - the user's exception: describing it must never fail
        text = ""
    first = (text.strip().splitlines() or [""])[0][:limit]
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def _shown(path: str) -> str:
    """A path as an error names it: cut at 200 characters, on one line (:func:`one_line`)."""
    return one_line(path if len(path) <= 200 else path[:200] + "…")


def read_input(path: str | os.PathLike[str], limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them, or :class:`InputFileError`."""
    name = _shown(os.fsdecode(path))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:  # missing, not allowed, a loop of links, a name too long
        raise InputFileError(f"{name}: cannot read it ({e.strerror or e})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = next((what for test, what in _KINDS if test(mode)), "not a file")
            raise InputFileError(f"{name}: {kind}, not a regular file")
        if os.fstat(fd).st_size > limit:
            raise InputFileError(f"{name}: larger than {limit // 2**20} MiB, the most an input file may hold")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while it was read
            raise InputFileError(f"{name}: larger than {limit // 2**20} MiB, the most an input file may hold")
        return b"".join(chunks)
    except OSError as e:
        raise InputFileError(f"{name}: cannot read it ({e.strerror or e})") from None
    finally:
        os.close(fd)


def read_input_text(path: str | os.PathLike[str], limit: int = MAX_INPUT_BYTES) -> str:
    """:func:`read_input` decoded as UTF-8 (anything else is an :class:`InputFileError`)."""
    data = read_input(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputFileError(f"{_shown(os.fsdecode(path))}: not UTF-8 text (byte {e.start})") from None


def is_open_to_others(folder: str) -> bool:
    """A folder anyone may write, with the sticky bit (``/tmp``): a name in it may be another
    user's symbolic link."""
    try:
        mode = os.stat(folder).st_mode
    except OSError:
        return False
    return bool(mode & stat.S_ISVTX and mode & stat.S_IWOTH)


def no_follow_flag(path: str) -> int:
    """``os.O_NOFOLLOW`` where ``path``'s folder is open to others (see :func:`is_open_to_others`),
    else 0: an ``os.open`` there never goes through a link planted after the checks."""
    return os.O_NOFOLLOW if is_open_to_others(os.path.dirname(os.path.abspath(path)) or ".") else 0


def planted_link(path: str) -> str | None:
    """Why ``path`` (a file, or a folder to write into) may not be written, if it is a symbolic
    link another user could have planted (a link in a sticky world-writable folder), else None."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return None
    except OSError:
        return None
    folder = os.path.dirname(os.path.abspath(path)) or "."
    if not is_open_to_others(folder):
        return None
    return (f"a symbolic link in {folder}, a folder anyone may write: another user could have "
            "planted it, so it is never followed (remove it, or write elsewhere)")


class ReportWriteError(OSError):
    """A report (or any output) could not be written; the message is one line naming the file."""


def write_atomically(path: str | os.PathLike[str], write: Callable[[IO[Any]], object], what: str = "report",
                     *, binary: bool = False) -> None:
    """Write ``path`` with ``write(stream)`` (a text stream in UTF-8, or a binary one if
    ``binary``): into a temporary file beside it, then renamed over it, so a failed write
    keeps the old file.  :class:`ReportWriteError` says why.

    A name in a sticky world-writable folder is never followed: a symbolic link there is
    refused, and the file is renamed onto the name itself (a link planted after the check is
    replaced, not followed); a device there is opened with ``O_NOFOLLOW``."""
    path = os.fspath(path)
    mode, encoding = ("wb", None) if binary else ("w", "utf-8")
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
            with open(fd, mode, encoding=encoding) as f:
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
        with os.fdopen(fd, mode, encoding=encoding) as f:
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
