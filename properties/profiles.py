"""The project's Hypothesis profiles, chosen with ``HYPOTHESIS_PROFILE`` (no code edited).

* ``dev``: the default on a workstation, a quick run while working;
* ``ci``: the default when the ``CI`` variable is set: Hypothesis's own ``ci`` profile
  (derandomized, no deadline, no example database, failures print a reproduce blob);
* ``deep``: tens of thousands of examples per property, for a long run.  It keeps the
  example database, so a failure it finds is replayed first by the next plain run that
  shares the database (see ``docs/guides/deep-campaign.md``);
* ``replay``: only what the example database holds, nothing generated, no worked example: a
  property fails if a failure of it was saved, and is skipped ("told to run no test cases")
  if nothing was.

``TURUB_DATABASE=DIR`` gives the profile loaded the example database in the folder ``DIR``
(the deep campaign's shared folder; the pytest plugin's ``--turub-database`` reads the same
variable), whatever the profile: set it, and even a ``ci`` run keeps and replays failures.
Without it, ``dev`` and ``deep`` keep Hypothesis's default database (under
``HYPOTHESIS_STORAGE_DIRECTORY``).

Properties built by :mod:`turub.properties.factory` take the profile loaded when they are
built; the conformance kit builds its own with explicit settings.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hypothesis import HealthCheck, Phase, settings

from .databases import example_database

__all__ = ["DATABASE_VARIABLE", "PROFILES", "load"]

#: The profiles this module registers.
PROFILES = ("dev", "ci", "deep", "replay")
#: The environment variable naming the shared example database's folder.
DATABASE_VARIABLE = "TURUB_DATABASE"

settings.register_profile(
    "dev", max_examples=50, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", settings.get_profile("ci"))
settings.register_profile(
    "deep", max_examples=20_000, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile(
    "replay", settings.get_profile("deep"), phases=(Phase.reuse, Phase.shrink))


def load(environ: Mapping[str, str] = os.environ) -> str:
    """Load the profile ``HYPOTHESIS_PROFILE`` names, else ``ci`` under CI, else ``dev``
    (with the example database in ``TURUB_DATABASE``'s folder if it is set); its name."""
    name = environ.get("HYPOTHESIS_PROFILE") or ("ci" if environ.get("CI") else "dev")
    folder = environ.get(DATABASE_VARIABLE)
    if folder:
        # (a derandomized profile, ci, keeps no database: named one, it draws at random)
        settings.register_profile(f"{name}+database", settings.get_profile(name),
                                  database=example_database(folder), derandomize=False)
        settings.load_profile(f"{name}+database")
    else:
        settings.load_profile(name)
    return name
