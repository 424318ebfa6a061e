"""Speed-only rewrites of the judge's word lists change no match."""

from __future__ import annotations

import re

from compliance.judge import lexicon as lx
from compliance.judge.analysis import normalise
from compliance.judge.segment import sentences
from tests.corpus.corpus_io import CORPUS, HELDOUT3, HELDOUT6, load

#: One sentence per kind of NEUTRAL alternative, plus the corpora below.
PROBES = [
    "No exceptions, no matter what, without fail; not only this, if not all, not just that.",
    "Logged without any gaps, full stop, not even once, with no credentials, nothing to chance.",
    "Zero-risk, no risk, without any risk; no internet access, cut off network, blocked egress.",
    "Disabled outbound traffic; internet access is off; connectivity unavailable.",
    "The agent has no access to the internet and without question no doubt.",
]


def _texts() -> list[str]:
    out = [normalise(s.prose) for t in PROBES for s in sentences(t)]
    for path in (CORPUS, HELDOUT3, HELDOUT6):
        out.extend(normalise(s.prose) for i in load(path) for s in sentences(i.text))
    return out


def test_neutral_prefilter_changes_no_match() -> None:
    bare = re.compile(lx._NEUTRAL_BODY)
    texts = _texts()
    got = [[m.span() for m in lx.NEUTRAL.finditer(t)] for t in texts]
    want = [[m.span() for m in bare.finditer(t)] for t in texts]
    assert got == want
    assert sum(map(len, want)) >= 50  # the comparison covers many matches (99 today)


def test_neutral_prefilter_lists_every_first_character() -> None:
    # each probe sentence's matches start with a listed character
    for t in PROBES:
        for m in re.finditer(lx._NEUTRAL_BODY, normalise(t)):
            assert m.group(0)[0] in lx.NEUTRAL_FIRST, m.group(0)
