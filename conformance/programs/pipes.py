"""One running program under test and its three pipes, read and written without blocking.

:class:`Pipes` starts the program (:func:`~turub.conformance.programs.process.spawn`: its own
process group), writes what the kit sends as the pipe takes it, reads whole lines from its
stdout (a line longer than ``line_limit`` bytes sets :attr:`Pipes.overflow` and is never
kept whole), keeps the last part of its stderr, and stops the whole group.  Nothing here
reads what a line means (:mod:`~turub.conformance.programs.messages`) or judges it.
"""

from __future__ import annotations

import os
import select
import signal
from collections.abc import Sequence
from typing import Final

from . import process
from ..text import safe_text

__all__ = ["Pipes", "snippet", "stderr_lines", "exit_text", "STDERR_KEEP"]

#: Bytes of a program's stderr kept (the last part).
STDERR_KEEP: Final = 16_384
#: The most read from a pipe at once.
CHUNK: Final = 1 << 16


def snippet(data: bytes | bytearray | str, limit: int = 80) -> str:
    """The start of a line, quoted and made safe."""
    head = data[:4 * limit + 8]
    text = bytes(head).decode("utf-8", "replace") if not isinstance(head, str) else head
    return safe_text(repr(text.rstrip("\r\n")), limit)


def stderr_lines(data: bytes, n: int = 5) -> list[str]:
    """The last ``n`` non-blank lines of a program's stderr, made safe."""
    lines = [x for x in data.decode("utf-8", "replace").splitlines() if x.strip()]
    return [safe_text(x, 300) for x in lines[-n:]]


class Pipes:
    """One running program, with non-blocking pipes."""

    def __init__(self, argv: Sequence[str], cwd: str | None, env: dict | None, line_limit: int) -> None:
        self.popen = process.spawn(argv, cwd, env)
        self.line_limit = line_limit
        self.stdin, self.stdout, self.stderr = self.popen.stdin, self.popen.stdout, self.popen.stderr
        self.fd_in, self.fd_out = self.stdin.fileno(), self.stdout.fileno()
        self.fd_err = self.stderr.fileno()
        for f in (self.stdin, self.stdout, self.stderr):
            os.set_blocking(f.fileno(), False)
        # one poll object for the program's life (a selector's bookkeeping costs more than
        # the system call on the protocol's hot path): stdout and stderr, stdin while writing
        self.poller = select.poll()
        self.poller.register(self.fd_out, select.POLLIN | select.POLLPRI)
        self.poller.register(self.fd_err, select.POLLIN | select.POLLPRI)
        self.reading_err = True
        self.writing = False
        self.out = bytearray()  # to write
        self.buf = bytearray()  # read, not yet a whole line
        self.err = bytearray()
        self.err_total = 0
        self.eof = False
        self.overflow = False
        self.stdin_closed = False
        self.status: int | None = None
        self.held: list[bytes] = []  # whole lines read and not yet taken (see :meth:`hold`)

    def send(self, data: bytes) -> None:
        if self.stdin_closed:
            return
        if not self.out:  # the usual case: the pipe takes it all at once
            try:
                n = os.write(self.fd_in, data)
            except BlockingIOError:
                n = 0
            except OSError:
                self.stdin_closed = True
                return
            if n == len(data):
                return
            data = data[n:]
        self.out += data
        self._write()

    def _write(self) -> None:
        while self.out and not self.stdin_closed:
            try:
                n = os.write(self.fd_in, self.out[:CHUNK])
            except BlockingIOError:
                break
            except OSError:
                self.stdin_closed = True
                self.out.clear()
                break
            del self.out[:n]
        want = bool(self.out) and not self.stdin_closed
        if want != self.writing:
            if want:
                self.poller.register(self.fd_in, select.POLLOUT)
            else:
                self.poller.unregister(self.fd_in)
            self.writing = want

    def close_stdin(self) -> None:
        if self.writing:
            self.poller.unregister(self.fd_in)
            self.writing = False
        self.stdin_closed = True
        try:
            self.stdin.close()
        except OSError:
            pass

    def hold(self, lines: list[bytes]) -> None:
        """Lines read but not taken (those that came in one read with the handshake): the next
        :meth:`pump` returns them first, so that every line the program wrote is judged."""
        self.held.extend(lines)

    def pump(self, timeout: float) -> list[bytes]:
        """Whole lines read within ``timeout`` seconds (returns as soon as there is any)."""
        if self.held:
            lines, self.held = self.held, []
            return lines
        lines = []
        if self.eof or self.overflow:
            return lines
        if not self.writing:  # answers already waiting: no need to wait
            try:
                chunk = os.read(self.fd_out, CHUNK)
            except BlockingIOError:
                chunk = None
            except OSError:
                chunk = b""
            if chunk is not None:
                self._take(chunk, lines)
                return lines
        return self.wait(timeout)

    def wait(self, timeout: float) -> list[bytes]:
        """Whole lines read within ``timeout`` seconds, waiting for the pipes to be ready (what
        :meth:`pump` does when nothing is waiting; a caller that knows nothing can be waiting yet,
        having just asked, may call it first).  It returns when any pipe is ready: what was
        written to stdin, what came on stderr, and the lines that came on stdout, if any."""
        if self.held:
            lines, self.held = self.held, []
            return lines
        lines = []
        if self.eof or self.overflow:
            return lines
        # poll counts milliseconds, rounding up (a negative time would be forever)
        for fd, _ in self.poller.poll(timeout * 1000.0 if timeout > 0.0 else 0.0):
            if fd == self.fd_out:
                try:
                    chunk = os.read(fd, CHUNK)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                self._take(chunk, lines)
            elif fd == self.fd_err:
                self._read_err()
            else:
                self._write()
        return lines

    def _take(self, chunk: bytes, lines: list) -> None:
        """Add what was read to the partial line; whole lines go to ``lines``."""
        if not chunk:
            self.eof = True
            self._read_err()
            return
        if b"\n" in chunk:
            if self.buf:
                self.buf += chunk
                *whole, rest = self.buf.split(b"\n")
                self.buf = bytearray(rest)
            else:
                *whole, rest = chunk.split(b"\n")  # type: ignore[assignment]  # bytes lines, as above
                self.buf += rest
            for line in whole:
                if len(line) > self.line_limit:
                    self.overflow = True
                    break
                lines.append(line)
        else:
            self.buf += chunk
        if len(self.buf) > self.line_limit:
            self.overflow = True
            self.buf.clear()

    def _read_err(self) -> None:
        while True:
            try:
                chunk = os.read(self.fd_err, CHUNK)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                if self.reading_err:
                    self.poller.unregister(self.fd_err)
                    self.reading_err = False
                return
            self.err_total += len(chunk)
            self.err += chunk
            if len(self.err) > 2 * STDERR_KEEP:
                del self.err[:-STDERR_KEEP]

    def stop(self, gentle: bool = True) -> int | None:
        """Stop the program's whole process group; its exit status."""
        self.status = process.stop(self.popen, gentle=gentle)
        self._read_err()
        for f in (self.stdin, self.stdout, self.stderr):
            try:
                f.close()
            except OSError:
                pass
        return self.status

    def exit_status(self, wait: float) -> int | None:
        try:
            return self.popen.wait(wait)
        except Exception:  # noqa: BLE001 - TimeoutExpired: still running
            return None


def exit_text(status: int | None) -> str:
    """How a program ended, in words."""
    if status is None:
        return "still running"
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exit status {status}"
