"""Hypothesis profiles for the fuzz targets: ``quick`` (default, CI) and ``long``.

``quick`` runs inside ``pytest -q``: few examples per target, derandomized (the same
examples on every run, so CI cannot go red by chance) and no example database.
``long`` is for a person hunting bugs: ``HYPOTHESIS_PROFILE=long python -m pytest
tests/fuzz`` runs about sixteen times as many random examples and keeps failing ones in
``.hypothesis/`` (ignored by git) so the next run tries them first.

Time is bounded per example by CPU time, not by hypothesis's wall-clock ``deadline``
(off in both profiles): on a shared machine a build may wait 30 s for a core, which
says nothing about the tool. :data:`tests.fuzz.harness.CPU_SECONDS` is the bound: an
input that makes a command compute that long is a finding (a reader whose time is
not bounded), not a slow test.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

settings.register_profile(
    "quick",
    max_examples=12,
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long",
    max_examples=200,
    derandomize=False,
    database=DirectoryBasedExampleDatabase(".hypothesis/examples"),
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))
