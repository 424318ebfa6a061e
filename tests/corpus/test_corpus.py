"""The judge labels the whole tuning corpus exactly; known failures are listed, not dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus.corpus_io import (
    CORPUS,
    FAMILIES,
    HELDOUT,
    HELDOUT2,
    HELDOUT3,
    HELDOUT4,
    HELDOUT5,
    HELDOUT6,
    HELDOUT7,
    HELDOUT8,
    HELDOUT9,
    HELDOUT10,
    HELDOUT11,
    HELDOUT12,
    HELDOUT13,
    HELDOUT14,
    HELDOUT15,
    HELDOUT16,
    HELDOUT17,
    HELDOUT18,
    HELDOUT19,
    HELDOUT20,
    HELDOUT21,
    load,
    predict,
    scores,
)

ITEMS = load(CORPUS)
PASSING = [i for i in ITEMS if i.known_failure is None]
KNOWN = [i for i in ITEMS if i.known_failure is not None]


def test_corpus_shape() -> None:
    assert len(ITEMS) >= 400
    over = [i for i in ITEMS if i.expect]
    assert len(over) == len(ITEMS) - len(over)  # half overclaims, half honest
    for fam in FAMILIES.values():
        assert sum(fam in i.expect for i in ITEMS) >= 15, fam
    assert len(KNOWN) <= 18  # listed with reasons; grows only deliberately


@pytest.mark.parametrize("item", PASSING, ids=[i.text[:60] for i in PASSING])
def test_labels_match_exactly(item) -> None:  # type: ignore[no-untyped-def]
    # the rules' labels: the learned second opinion is scored in test_second_opinion_*
    assert predict(item.text, rules_only=True) == item.expect


@pytest.mark.parametrize("item", KNOWN, ids=[i.text[:60] for i in KNOWN])
def test_known_failures_still_fail(item) -> None:  # type: ignore[no-untyped-def]
    """When the judge learns one of these, remove its known_failure marker."""
    assert predict(item.text, rules_only=True) != item.expect, (
        f"now passes; drop known_failure: {item.text}")


def test_heldout_is_well_formed_and_balanced() -> None:
    # Only its shape is tested: the judge is never tuned on the held-out set.
    items = load(HELDOUT)
    assert len(items) == 60
    assert sum(1 for i in items if i.expect) == 30
    assert all(i.known_failure is None for i in items)


def test_second_heldout_is_well_formed() -> None:
    items = load(HELDOUT2)
    assert len(items) == 40
    assert sum(1 for i in items if i.expect) == 17
    assert all(i.known_failure is None for i in items)


@pytest.mark.parametrize(("path", "total", "over"),
                         [(HELDOUT3, 272, 136), (HELDOUT4, 98, 49), (HELDOUT5, 60, 30),
                          (HELDOUT6, 294, 146), (HELDOUT7, 82, 41),
                          (HELDOUT8, 279, 141), (HELDOUT9, 90, 45),
                          (HELDOUT10, 216, 108), (HELDOUT11, 240, 120),
                          (HELDOUT12, 198, 99), (HELDOUT13, 252, 126),
                          (HELDOUT14, 216, 108), (HELDOUT15, 216, 108),
                          (HELDOUT18, 270, 135), (HELDOUT19, 270, 135),
                          (HELDOUT20, 270, 135), (HELDOUT21, 270, 135)])
def test_later_heldouts_are_well_formed_and_balanced(path: Path, total: int, over: int) -> None:
    items = load(path)
    assert len(items) == total
    assert sum(1 for i in items if i.expect) == over
    assert all(i.known_failure is None for i in items)
    for fam in FAMILIES.values():  # every family has overclaims to miss
        assert sum(fam in i.expect for i in items) >= 3, fam


@pytest.mark.parametrize(("path", "total", "over", "families"),
                         [(HELDOUT16, 300, 150, ("safety", "injection", "exfil", "review",
                                                 "allowlist")),
                          (HELDOUT17, 264, 132, ("isolation", "secrets", "logs", "pipeline"))])
def test_lexical_breadth_heldouts_are_well_formed(path: Path, total: int, over: int,
                                                  families: tuple[str, ...]) -> None:
    """heldout16 and heldout17 each cover only some families, many times over."""
    items = load(path)
    assert len(items) == total
    assert sum(1 for i in items if i.expect) == over
    assert all(i.known_failure is None for i in items)
    named = {FAMILIES[f] for f in families}
    assert {f for i in items for f in i.expect} == named
    for fam in named:
        assert sum(fam in i.expect for i in items) >= 30, fam


@pytest.mark.parametrize(("path", "tp", "fp", "fn"),
                         [(HELDOUT3, 130, 2, 6), (HELDOUT4, 42, 2, 7), (HELDOUT5, 27, 2, 3),
                          (HELDOUT6, 139, 2, 7), (HELDOUT7, 36, 2, 5),
                          (HELDOUT8, 134, 2, 7), (HELDOUT9, 42, 2, 3),
                          (HELDOUT10, 103, 4, 5), (HELDOUT11, 114, 2, 6),
                          (HELDOUT12, 96, 2, 3), (HELDOUT13, 119, 2, 7), (HELDOUT14, 100, 2, 8),
                          (HELDOUT16, 143, 3, 7), (HELDOUT17, 127, 2, 5),
                          (HELDOUT19, 122, 4, 13), (HELDOUT20, 123, 6, 12),
                          (HELDOUT15, 83, 16, 25), (HELDOUT18, 112, 10, 23),
                          (HELDOUT21, 118, 10, 17)])
def test_later_heldouts_regression_floor(path: Path, tp: int, fp: int, fn: int) -> None:
    """A regression guard, not a target: the overall counts may only get better.

    The floors sit a few items below the scores at the time of writing (heldout3:
    135 tp / 0 fp / 1 fn after the fixes it prompted; heldout4: 42 / 0 / 7 on first
    contact, 46 / 0 / 3 after the heldout6 fixes; heldout5: 28 / 0 / 2 on first contact,
    30 / 0 / 0 after them; heldout6: 144 / 0 / 2 after the fixes
    it prompted, 103 / 12 / 43 on first contact; heldout7: 27 / 1 / 14 on first
    contact, 32 / 0 / 9 after a second round of mechanisms partly prompted by it, 36 / 0 / 5
    after the heldout8 round, 39 / 0 / 2 after the heldout10 and heldout12 round (floor
    raised then); heldout8: 79 / 4 / 62 on first contact, 139 / 1 / 2 after
    the fixes it prompted; heldout9: 14 / 3 / 31 on first contact, written after those
    fixes, 45 / 0 / 0 after the fixes it prompted; heldout10: 95 / 9 / 13 on first
    contact, written blind, 106 / 2 / 2 after the fixes it prompted; heldout12: 77 / 12 / 22
    on first contact, written blind, 99 / 0 / 0 after them; heldout11: 94 / 9 / 26 on first
    contact at b774104, written blind, 117 / 0 / 3 after the fixes it prompted; heldout13:
    94 / 5 / 32 on first contact at dce7a9c, written blind, 123 / 0 / 3 after the seventh
    round; heldout14: 87 / 6 / 21 on first contact at e7e9286, written blind, 103 / 0 / 5 after the
    eighth round; heldout16:
    97 / 8 / 53 on first contact at f122880, 148 / 1 / 2 after it;
    heldout17: 83 / 5 / 49 on first contact at f122880, 132 / 0 / 0 after it; heldout19:
    125 / 5 / 10 and heldout20: 120 / 14 / 15 on first contact at 3ba2d75, written blind,
    125 / 2 / 10 and 126 / 4 / 9 after the ninth round; heldout15 and
    heldout18 were never tuned on: 82 / 11 / 26 and 116 / 8 / 19 at b1372ba; heldout21,
    never tuned on either: 120 / 6 / 15 at 439a044; after the real-text rounds of
    2 Dec 2026, heldout15 85 / 14 / 23 and heldout21 120 / 8 / 15: six more statements
    caught, two more with a wrong or extra family, so the floors moved with them), so
    rewording a rule does not fail the suite over one statement. Raise
    them when the judge improves; never tune the judge on these sets to pass them.
    """
    got_tp, got_fp, got_fn = scores(load(path), rules_only=True)["overall"]
    assert got_tp >= tp and got_fp <= fp and got_fn <= fn, (got_tp, got_fp, got_fn)


@pytest.mark.parametrize(("path", "added", "fp"),
                         [(HELDOUT15, 2, 16), (HELDOUT18, 5, 14), (HELDOUT21, 2, 12)])
def test_second_opinion_adds_overclaims_on_sealed_sets(path: Path, added: int, fp: int) -> None:
    """The learned second opinion (CLM010) is never trained on the three sealed sets. With
    it, at the time of writing: heldout15 89 / 14 / 19 (rules alone 85 / 14 / 23), heldout18
    127 / 12 / 8 (119 / 9 / 16), heldout21 126 / 10 / 9 (122 / 8 / 13). A guard: it must
    keep adding true positives, and may not add many false ones."""
    items = load(path)
    rules_tp = scores(items, rules_only=True)["overall"][0]
    got_tp, got_fp, _ = scores(items)["overall"]
    assert got_tp >= rules_tp + added and got_fp <= fp, (rules_tp, got_tp, got_fp)


def test_second_opinion_rarely_warns_on_honest_statements() -> None:
    """All honest statements of every synthetic set: 7 of 2,888 get a CLM010 warning at the
    time of writing (most of them are training data, the sealed sets are not)."""
    honest = [i for p in sorted(CORPUS.parent.glob("*.yaml")) for i in load(p) if not i.expect]
    warned = [i.text for i in honest if predict(i.text) - predict(i.text, rules_only=True)]
    assert len(honest) >= 2800
    assert len(warned) <= 12, warned
