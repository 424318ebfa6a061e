"""The judge's fast paths decide nothing: they give byte-identical findings to the slow path.

Slow path: every claim pattern and every shared predicate tried on every
sentence (no trigger index), the shared predicates' gate searched as one regex,
and every memo emptied before each text. Fast path, as `check`, `lint` and
`answer` run it: the trigger index from the first sentence, patterns compiled
when first tried, and every memo warm (each text judged twice, the second time
from the whole-text memo). Every synthetic corpus and, when ../shared/data is
present, the real-text sentences are compared.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from compliance.judge import absolutes
from compliance.judge.analysis import normalise
from compliance.judge.overclaim import Overclaim
from compliance.judge.segment import sentences
from compliance.rules.claims import driver
from tests.conftest import SHARED_DATA
from tests.corpus.corpus_io import HERE, load

#: Questionnaire rows: a question before an answer changes what the answer claims.
QUESTIONS = ("Can the agent reach the internet?", "Are secrets visible to the agent?",
             "Is the sandbox escape-proof?")


def _corpus_texts() -> list[str]:
    return [i.text for path in sorted(HERE.glob("*.yaml")) for i in load(path)]


def _real_texts() -> list[str]:
    folder = SHARED_DATA / "claims-real-dev"
    texts: list[str] = []
    for path in sorted(folder.glob("*.tsv")):
        with path.open(encoding="utf-8", newline="") as f:
            rows = csv.reader((line for line in f if not line.startswith("#")), delimiter="\t")
            texts.extend(row[2] for row in rows if len(row) > 2)
    return texts


def _gate_may_apply(low: str) -> bool:
    """The shared predicates' gate without the trigger index: one search of their union."""
    return absolutes.vocabulary().gate.search(low) is not None


def _every_predicate(text: str) -> list[int]:
    """Every predicate is tried on every sentence (no trigger index)."""
    return list(range(len(absolutes.vocabulary().predicates)))


@contextmanager
def _slow_path() -> Iterator[None]:
    gates = driver._gates
    saved = (gates.TRIGGER_AFTER, gates.index, absolutes.may_apply, absolutes.candidates)
    gates.TRIGGER_AFTER, gates.index = 10**12, None
    absolutes.may_apply = _gate_may_apply
    absolutes.candidates = _every_predicate
    try:
        yield
    finally:
        (gates.TRIGGER_AFTER, gates.index, absolutes.may_apply,
         absolutes.candidates) = saved
        driver.forget()


def _slow(cases: list[tuple[str, str | None]]) -> list[list[Overclaim]]:
    out = []
    with _slow_path():
        for text, question in cases:
            driver.forget()
            out.append(driver.judge_text(text, question))
    return out


def _fast(cases: list[tuple[str, str | None]]) -> list[list[Overclaim]]:
    driver.forget()
    first = [driver.judge_text(text, question) for text, question in cases]
    again = [driver.judge_text(text, question) for text, question in cases]
    assert again == first
    return first


def _cases(texts: list[str]) -> list[tuple[str, str | None]]:
    cases: list[tuple[str, str | None]] = [(t, None) for t in texts]
    cases += [(t, QUESTIONS[i % len(QUESTIONS)]) for i, t in enumerate(texts[::7])]
    # one multi-sentence text, as a Markdown document is judged
    cases.append(("\n\n".join(texts[:400]), None))
    return cases


@pytest.mark.slow
def test_fast_path_equals_slow_path_on_every_corpus() -> None:
    cases = _cases(_corpus_texts())
    assert _fast(cases) == _slow(cases)


@pytest.mark.slow
def test_fast_path_equals_slow_path_on_real_text(shared_data: Path) -> None:
    texts = _real_texts()
    assert len(texts) > 500
    cases = _cases(texts)
    assert _fast(cases) == _slow(cases)


def test_the_indexed_gate_of_the_shared_predicates_is_their_union() -> None:
    lows = [normalise(s.prose) for t in _corpus_texts() for s in sentences(t)]
    assert [absolutes.may_apply(low) for low in lows] == [_gate_may_apply(low) for low in lows]
