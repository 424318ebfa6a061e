"""The judge on real public text (../shared/data/claims-real-dev), skipped visibly when absent.

Regression floors, not targets: the figures at the time of writing sit a little above
them (see benchmarks/judge_accuracy.py for the full table and the first-contact figures).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus.real_text import PART1, PART2, flag_rates, load_real


def _items(path: Path):  # type: ignore[no-untyped-def]
    if not path.is_file():
        pytest.skip(f"real-text set not present at {path} (needs ../shared/data)")
    return load_real(path)


@pytest.mark.parametrize("path", [PART1, PART2], ids=["part1", "part2"])
def test_real_text_is_well_formed(path: Path) -> None:
    items = _items(path)
    assert len(items) >= 300
    assert 0.3 < sum(1 for i in items if i.expect) / len(items) < 0.7


@pytest.mark.parametrize(("path", "recall", "fpr"),
                         [(PART1, 0.85, 0.04), (PART2, 0.74, 0.045)], ids=["part1", "part2"])
def test_real_text_regression_floor(path: Path, recall: float, fpr: float) -> None:
    """part1: 0.254 recall / 0.059 FPR at 725ddff (first contact), 0.821 / 0.032 with the
    shared absolute predicates; part2: 0.365 / 0.058 at 725ddff (first contact), 0.614 /
    0.048 with them (developed on half of it); after the rounds of 2 Dec 2026 (all of part2
    read, then the dev half of a fresh set kept outside the repository): part1 0.873 /
    0.032, part2 0.762 / 0.034. A regression guard: these parts are tuned on."""
    got_recall, _, got_fpr = flag_rates(_items(path))
    assert got_recall >= recall and got_fpr <= fpr, (got_recall, got_fpr)
