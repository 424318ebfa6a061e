"""Shared test fixtures: paths to the repository, the example workspace and ../shared/data."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite golden files from the current output instead of comparing.",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture
def shared_data() -> Path:
    """../shared/data, or a visible skip when this checkout has no shared folder beside it."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"third-party data not present at {SHARED_DATA} (needs ../shared/data)")
    return SHARED_DATA
