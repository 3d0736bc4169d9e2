"""Any Hypothesis example database, from one value: where the searches keep what they find.

``example_database(value)`` reads:

* a folder: ``DirectoryBasedExampleDatabase`` (shareable through a shared file system);
* ``redis://HOST:PORT/N`` (or ``rediss://``): Hypothesis's own ``RedisExampleDatabase``
  (``pip install 'turub[redis]'``), one store for a campaign across machines;
* ``readonly:X``: ``ReadOnlyDatabase`` over ``X`` (CI reads the team's findings, writes none);
* ``A + B``: ``MultiplexedDatabase`` of both (``readonly:redis://team:6379/0 + .hypothesis/local``:
  read the team's findings, write locally).

A value that looks like a URL of any other scheme is an error, never a folder name.  The
pytest plugin's ``--turub-database`` and ``TURUB_DATABASE`` (:mod:`turub.properties.profiles`)
read their value through it.
"""

from __future__ import annotations

import re
from typing import Final

from hypothesis.database import (DirectoryBasedExampleDatabase, ExampleDatabase, MultiplexedDatabase,
                                 ReadOnlyDatabase)

__all__ = ["DatabaseError", "example_database", "FORMS"]

#: The forms a value may take, as the errors name them.
FORMS: Final = "a folder, redis://HOST:PORT/N, readonly:X or A + B"

_SCHEME: Final = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):/")
_REDIS: Final = ("redis", "rediss")


class DatabaseError(ValueError):
    """A database value that cannot be used; the message names the value and why."""


def example_database(value: str) -> ExampleDatabase:
    """The Hypothesis example database ``value`` names (see the module's forms)."""
    parts = [part.strip() for part in value.split(" + ")]
    if len(parts) > 1:
        return MultiplexedDatabase(*(example_database(part) for part in parts))
    value = value.strip()
    if not value:
        raise DatabaseError(f"an empty example database value ({FORMS})")
    if value.startswith("readonly:"):
        return ReadOnlyDatabase(example_database(value.removeprefix("readonly:")))
    scheme = _SCHEME.match(value)
    if scheme and scheme.group(1).lower() in _REDIS:
        return _redis_database(value)
    if scheme:
        raise DatabaseError(f"{value}: no example database of the scheme {scheme.group(1)}:// ({FORMS})")
    return DirectoryBasedExampleDatabase(value)


def _redis_database(url: str) -> ExampleDatabase:
    try:
        from hypothesis.extra.redis import RedisExampleDatabase
        from redis import Redis
        from redis.exceptions import RedisError
    except ImportError:
        raise DatabaseError(f"{url}: a Redis example database needs the redis package "
                            "(pip install 'turub[redis]')") from None
    try:
        store = Redis.from_url(url)
        store.ping()  # unreachable: said now, not by the first search that saves
    except (RedisError, ValueError) as e:
        raise DatabaseError(f"{url}: the Redis server cannot be used ({e})") from None
    return RedisExampleDatabase(store)
