"""Case results kept out of memory: written as they come, read back in order.

A run may have hundreds of thousands of cases.  :class:`CaseLog` holds the first few
thousand in memory (a default run never touches the disk) and spills to an anonymous
temporary file beyond that, so the kit's memory stays flat in the number of cases.  It is
iterated as often as needed (the clause table, the summary, each report format) and each
pass reads it again; the results are plain JSON data (already made safe and bounded).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any

__all__ = ["CaseLog"]


class CaseLog:
    """An append-only sequence of case results (dicts)."""

    def __init__(self, cases: Iterable[dict] = (), *, in_memory: int = 5000) -> None:
        self._memory: list[dict] = []
        self._file: IO[bytes] | None = None
        self._count = 0
        self._limit = in_memory
        self.extend(cases)

    def append(self, case: dict) -> None:
        self._count += 1
        if self._file is None:
            self._memory.append(case)
            if len(self._memory) > self._limit:
                self._spill()
            return
        self._file.write(json.dumps(case, ensure_ascii=False).encode("utf-8", "backslashreplace") + b"\n")

    def extend(self, cases: Iterable[dict]) -> None:
        for c in cases:
            self.append(c)

    def _spill(self) -> None:
        self._file = tempfile.TemporaryFile("w+b")
        for c in self._memory:
            self._file.write(json.dumps(c, ensure_ascii=False).encode("utf-8", "backslashreplace") + b"\n")
        self._memory = []

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[dict]:
        if self._file is None:
            yield from list(self._memory)
            return
        f = self._file
        f.flush()
        end = f.tell()
        f.seek(0)
        try:
            while f.tell() < end:
                line = f.readline()
                if not line:
                    break
                yield json.loads(line)
        finally:
            f.seek(0, 2)

    def __getitem__(self, index: int) -> dict:
        if self._file is None:
            return self._memory[index]
        if index < 0:
            index += self._count
        for i, c in enumerate(self):
            if i == index:
                return c
        raise IndexError(index)

    def __bool__(self) -> bool:
        return self._count > 0

    def __repr__(self) -> str:
        return f"CaseLog({self._count} cases{', on disk' if self._file else ''})"

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


def as_list(value: Any) -> Any:
    """``json.dumps(..., default=as_list)``: a CaseLog as a list."""
    if isinstance(value, CaseLog):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON data")
