"""Same input, same bytes: across renders, wall-clock times, SOURCE_DATE_EPOCH and hash seeds."""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from compliance.render import pdf as pdf_module
from tests.render.conftest import render_sample

REPO = Path(__file__).resolve().parents[2]


def test_two_renders_are_byte_identical(sample_pdf: bytes) -> None:
    assert render_sample() == sample_pdf


def test_clock_and_environment_do_not_leak_in(
    sample_pdf: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 86400 * 400)
    assert render_sample() == sample_pdf
    assert os.environ["SOURCE_DATE_EPOCH"] == "1700000000"  # restored after the render


def test_without_the_override_the_clock_would_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard above is needed: fontTools stamps subset fonts with the clock."""
    from weasyprint.text.ffi import harfbuzz, harfbuzz_subset

    if harfbuzz_subset is not None and harfbuzz.hb_version_atleast(4, 1, 0):
        pytest.skip("WeasyPrint subsets with HarfBuzz here, which stamps no time")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setattr(pdf_module, "source_date_epoch", lambda date: contextlib.nullcontext())
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real())
    first = render_sample()
    monkeypatch.setattr(time, "time", lambda: real() + 86400 * 400)
    assert render_sample() != first


def test_environment_variable_is_removed_again_when_it_was_unset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    render_sample()
    assert "SOURCE_DATE_EPOCH" not in os.environ


SCRIPT = """
import hashlib, sys
from tests.render.conftest import render_sample
sys.stdout.write(hashlib.sha256(render_sample()).hexdigest())
"""


@pytest.mark.slow
def test_identical_across_processes_and_hash_seeds(sample_pdf: bytes) -> None:
    digests = set()
    for seed, epoch in (("1", "0"), ("2", "1900000000")):
        env = {**os.environ, "PYTHONHASHSEED": seed, "SOURCE_DATE_EPOCH": epoch}
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(out.stdout)
    assert digests == {hashlib.sha256(sample_pdf).hexdigest()}
