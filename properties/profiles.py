"""The project's Hypothesis profiles, chosen with ``HYPOTHESIS_PROFILE`` (no code edited).

* ``dev``: the default on a workstation, a quick run while working;
* ``ci``: the default when the ``CI`` variable is set: Hypothesis's own ``ci`` profile
  (derandomized, no deadline, no example database, failures print a reproduce blob);
* ``deep``: tens of thousands of examples per property, for a long run.  It keeps the
  example database, so a failure it finds is replayed first by the next plain run that
  shares the database (see ``docs/guides/deep-campaign.md``).

Properties built by :mod:`turub.properties.factory` take the profile loaded when they are
built; the conformance kit builds its own with explicit settings.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hypothesis import HealthCheck, settings

__all__ = ["PROFILES", "load"]

#: The profiles this module registers.
PROFILES = ("dev", "ci", "deep")

settings.register_profile(
    "dev", max_examples=50, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", settings.get_profile("ci"))
settings.register_profile(
    "deep", max_examples=20_000, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def load(environ: Mapping[str, str] = os.environ) -> str:
    """Load the profile ``HYPOTHESIS_PROFILE`` names, else ``ci`` under CI, else ``dev``;
    its name."""
    name = environ.get("HYPOTHESIS_PROFILE") or ("ci" if environ.get("CI") else "dev")
    settings.load_profile(name)
    return name
