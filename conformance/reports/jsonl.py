"""The report as JSON lines, written while the run goes (``turub check --jsonl FILE``).

One JSON object per line, each written and flushed the moment it is known, so that a run
killed mid-way (even by SIGKILL, which no program can catch) leaves every line it had:

* first ``{"type": "start", "format": "turub-jsonl/1", "kit": ..., "rules": ..., "seed": ...}``;
* then ``{"type": "case", ...}`` for each case as soon as its answer is judged: the same
  fields as a case of the JSON report, with its ``time``, in the order the answers come (a
  program that answers one request twice gets a second line for that case, which
  replaces the first);
* last ``{"type": "summary", ...}``: everything the JSON report holds except its cases (the
  verdict, the exit status, the clause table, the summary, the diagnosis).  The statuses in
  the summary are final (expected failures applied); a case line holds the status as judged.

A file without the summary line is a run that did not finish.  The file is locked while
the run writes it (a second run naming it is a usage error), so two runs never interleave;
every line is strict JSON (:func:`~turub.conformance.reports.files.strict_json`).
"""

from __future__ import annotations

import os
import stat
import sys
from typing import IO, Any

from turub.user_files import no_follow_flag

from ..option_checks import OptionError
from .files import lock_exclusively, strict_json
from .spool import as_list

__all__ = ["JsonlWriter", "JSONL_FORMAT"]

JSONL_FORMAT = "turub-jsonl/1"


class JsonlWriter:
    """Writes the lines to ``path`` (``-``: ``stdout``).  A write that fails (a full disk)
    stops the file with one warning on stderr, never the run; ``lost`` then says why (the
    run's exit status says a report was lost).  Opening a file another run is writing is an
    :class:`~turub.conformance.option_checks.OptionError`."""

    def __init__(self, path: str, stdout: IO[str] | None = None) -> None:
        self.path = path
        self._own = path != "-"
        self.lost: str | None = None
        #: standard output's reader went away (``| head``): no more lines go there, the run and
        #: its other reports go on, and the command ends with SIGPIPE's status
        self.stdout_gone = False
        if self._own:
            try:  # not truncated before the lock is held; never through a planted link
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | no_follow_flag(path), 0o666)
            except OSError as e:
                raise OptionError(f"--jsonl {path}: cannot write ({e.strerror or e})") from None
            f = open(fd, "a", encoding="utf-8")
            try:
                lock_exclusively(f, path)
                if stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # a device or a pipe is written as it is
                    f.seek(0)
                    f.truncate()
            except BaseException:
                f.close()
                raise
            self.file: IO[str] | None = f
        else:
            self.file = stdout or sys.stdout

    def _line(self, data: dict[str, Any]) -> None:
        if self.file is None:
            return
        try:
            self.file.write(strict_json(data, ensure_ascii=False, default=as_list) + "\n")
            self.file.flush()
        except BrokenPipeError:
            if self._own:
                raise
            self.stdout_gone, self.file = True, None  # (said by the exit status, 141)
        except (OSError, ValueError) as e:
            self.lost = f"--jsonl {self.path}: cannot write ({getattr(e, 'strerror', None) or e}); " \
                        "no more lines go to it"
            sys.stderr.write(f"turub check: warning: {self.lost}\n")
            self.file = None

    def start(self, **header: Any) -> None:
        self._line({"type": "start", "format": JSONL_FORMAT, **header})

    def case(self, result: dict) -> None:
        self._line({"type": "case", **result})

    def summary(self, report: dict) -> None:
        self._line({"type": "summary", **{k: v for k, v in report.items() if k != "cases"}})

    def close(self) -> None:
        if self._own and self.file is not None:
            try:
                self.file.close()
            except OSError as e:
                self.lost = f"--jsonl {self.path}: cannot write ({e.strerror or e})"
        self.file = None
