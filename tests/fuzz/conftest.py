"""Hypothesis profiles for the fuzz targets: ``quick`` (default, CI) and ``long``.

``quick`` runs inside ``pytest -q``: six examples per target (two for the targets that
start an interpreter or render a PDF), derandomized (the same examples on every run, so
CI cannot go red by chance) and no example database. Its budget is 60 s of the suite;
most of what it costs is the one PDF the build target renders (about 9 s of CPU), so
six examples, not more: a quick run is a regression guard, the long run hunts.
``long`` is for a person hunting bugs: ``HYPOTHESIS_PROFILE=long python -m pytest
tests/fuzz`` runs 200 random examples per target (33 for the subprocess and build
targets) and keeps failing ones in ``.hypothesis/`` (ignored by git) so the next run
tries them first.

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
    max_examples=6,
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
