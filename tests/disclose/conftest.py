"""Fixtures: the example workspace with one build record (acme-bank), copied per test."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from compliance.disclose.make import build_record
from compliance.disclose.records import write_record
from compliance.pipeline import load_and_check
from tests.disclose.example import AS_OF, copy_example


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example with disclosures/acme-bank.yaml: what a build sent, untouched since."""
    root = copy_example(tmp_path_factory.mktemp("pristine"))
    record = build_record(load_and_check(root, dt.date.fromisoformat(AS_OF)), "acme-bank")
    write_record(root, record, replace=False)
    return root


@pytest.fixture
def ws(pristine: Path, tmp_path: Path) -> Path:
    """A copy of ``pristine`` this test may change."""
    shutil.copytree(pristine, tmp_path / "ws")
    return tmp_path / "ws"
