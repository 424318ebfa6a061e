"""Trigger words may only skip regexes that cannot match: never a claim pattern's match."""

from __future__ import annotations

import re

import pytest

from compliance.judge.analysis import normalise
from compliance.judge.segment import sentences
from compliance.judge.triggers import TriggerIndex, index_key, trigger_routes, trigger_sets
from compliance.rules.claims import CLAIM_RULES
from compliance.rules.claims.driver import _Gates
from tests.corpus.corpus_io import CORPUS, HELDOUT, HELDOUT2, load

PATTERNS = [p.regex for rule in CLAIM_RULES.values() for p in rule.patterns]
#: Words glued to claim words, Unicode letters, underscores and hyphens at token edges.
EDGES = [
    "unsafe by default", "ésafe by default", "safe_by_default", "safe-by-default",
    "_safe by default",
    "zero-risk", "zero_risk", "norisk", "no risks", "no\u00a0risk", "x100% secure", "100 % secure",
    "the allowlist is comprehensive.", "comprehensiveness", "it can't be bypassed", "bypassproof",
    "escape-proof", "escapes", "unescapable", "logs: complete", "tamper‐proof", "tamper_proof",
]


def _lows() -> list[str]:
    texts = [i.text for path in (CORPUS, HELDOUT, HELDOUT2) for i in load(path)] + EDGES
    return [normalise(s.prose) for t in texts for s in sentences(t)] + [normalise(t) for t in EDGES]


def test_a_fused_negation_needs_its_noun() -> None:
    # "no" is too common to filter on, so the noun is the condition
    assert trigger_sets(re.compile(r"\b(?:zero|no)[- ]risks?\b")) == [
        frozenset({("risk", True), ("risks", True)})]


def test_a_word_the_regex_may_extend_is_a_prefix() -> None:
    assert trigger_sets(re.compile(r"\bescap\w*\s+(?:is|are)\b")) == [
        frozenset({("escap", False)})]


@pytest.mark.parametrize("regex", [re.compile("safe", re.IGNORECASE), re.compile(r"\w+ing\b"),
                                   re.compile(r"(?a:\b)safe"), re.compile(r"\bsafe", re.ASCII)])
def test_no_condition_where_words_are_not_certain(regex: re.Pattern[str]) -> None:
    assert trigger_sets(regex) == []


def test_every_match_of_every_claim_pattern_is_a_candidate() -> None:
    lows = _lows()
    candidates = TriggerIndex(PATTERNS, shipped=False).candidates(lows)
    missed = [(low, regex.pattern[:60]) for low, keys in zip(lows, candidates, strict=True)
              for k, regex in enumerate(PATTERNS) if k not in keys and regex.search(low)]
    assert missed == []


def test_the_index_filters() -> None:
    lows = _lows()
    pairs = sum(map(len, TriggerIndex(PATTERNS, shipped=False).candidates(lows)))
    assert pairs < len(lows) * len(PATTERNS) / 4


def test_gates_with_and_without_the_index_agree() -> None:
    lows = _lows()
    plain, indexed = _Gates(), _Gates()
    plain.TRIGGER_AFTER, indexed.TRIGGER_AFTER = 10**9, 0
    assert indexed(lows) == plain(lows)
    assert indexed.index is not None and plain.index is None


def test_committed_trigger_table_is_current() -> None:
    """The shipped table must be what derivation gives today (else the index derives at
    run time, correct but 0.1 s slower). Rewrite it with
    ``python -m compliance.rules.claims.trigger_table``."""
    from compliance.rules.claims import trigger_table

    assert trigger_table.TABLE.read_text(encoding="utf-8") == trigger_table.render(
        trigger_table.table_regexes()), "stale: python -m compliance.rules.claims.trigger_table"


def test_index_from_the_table_selects_the_same_candidates() -> None:
    from compliance.rules.claims.trigger_table import known

    lows = _lows()
    assert TriggerIndex(PATTERNS, known(), shipped=False).candidates(lows) == TriggerIndex(
        PATTERNS, shipped=False).candidates(lows)


def test_the_shipped_index_is_the_one_built_from_the_table() -> None:
    """The judge takes both indexes ready-made from compliance/judge/precompiled.bin (no
    table read, no derivation); they must be exactly what building them gives."""
    from compliance.judge import precompiled
    from compliance.judge.absolutes import vocabulary
    from compliance.rules.claims.trigger_table import known

    if not precompiled._table():
        pytest.skip("the precompiled table was written for another Python")
    lows = _lows()
    for regexes in (PATTERNS, [p.regex for p in vocabulary().predicates]):
        assert precompiled.index_state(index_key(regexes)) is not None, (
            "stale: python -m compliance.rules.claims.trigger_table")
        shipped, built = TriggerIndex(regexes), TriggerIndex(regexes, known(), shipped=False)
        assert shipped.state() == built.state()
        assert shipped.candidates(lows) == built.candidates(lows)


def test_an_index_of_other_regexes_is_built_not_shipped() -> None:
    regexes = [re.compile(r"\bnever shipped (?:anywhere|at all)\b")]
    assert TriggerIndex(regexes).candidates(["it was never shipped at all", "shipped"]) == [
        [0], []]


def test_every_claim_pattern_has_trigger_words() -> None:
    """A pattern without derivable trigger words runs on every sentence of every text
    (one such pattern cost 5% of lint's time); start it from words, not ``[\\w-]*``."""
    index = TriggerIndex(PATTERNS, shipped=False)
    assert [PATTERNS[k].pattern[:80] for k in index.always] == []


def test_an_alternation_of_phrases_gives_one_route_per_phrase() -> None:
    """One set for the whole alternation would be {prompt, agent}: every sentence naming
    the agent would be tried. A route per phrase needs the phrase's own words."""
    regex = re.compile(r"\b(?:prompt injection|agent hijack\w*)\s+(?:is|are)\b")
    assert len(trigger_routes(regex)) == 2
    texts = ["the agent is here", "agent hijacking is blocked", "prompt injection is stopped",
             "prompt hijacking is rare"]
    assert TriggerIndex([regex]).candidates(texts) == [[], [0], [0], []]
    assert [bool(regex.search(t)) for t in texts] == [False, True, True, False]
