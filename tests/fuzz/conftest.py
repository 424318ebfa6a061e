"""Hypothesis profiles for the fuzz targets: ``quick`` (default, CI) and ``long``.

``quick`` runs inside ``pytest -q``: few examples per target, derandomized (the same
examples on every run, so CI cannot go red by chance) and no example database.
``long`` is for a person hunting bugs: ``HYPOTHESIS_PROFILE=long python -m pytest
tests/fuzz`` runs about sixteen times as many random examples and keeps failing ones in
``.hypothesis/`` (ignored by git) so the next run tries them first.

Both profiles give every example a deadline: an input that makes a command run for
many seconds is a finding (a reader whose time is not bounded), not a slow test.
"""

from __future__ import annotations

import datetime as dt
import os

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

#: Generous: a normal example takes well under a second even on a busy machine,
#: so only an unbounded reader (quadratic, exponential) meets it.
DEADLINE = dt.timedelta(seconds=20)

settings.register_profile(
    "quick",
    max_examples=12,
    derandomize=True,
    database=None,
    deadline=DEADLINE,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long",
    max_examples=200,
    derandomize=False,
    database=DirectoryBasedExampleDatabase(".hypothesis/examples"),
    deadline=DEADLINE,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))
