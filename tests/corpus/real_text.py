"""Real public sentences about agent sandboxes (../shared/data/claims-real-dev/), read from
there and never copied into this repository.

Each line: label (O overclaim, H honest), family, sentence, source, reason. The labels
name one family per overclaim; the judge's family names map onto theirs below.
"""

from __future__ import annotations

from pathlib import Path

from tests.corpus.corpus_io import FAMILIES, Item

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "claims-real-dev"
PART1 = REAL / "part1.tsv"
PART2 = REAL / "part2.tsv"

#: The data set's family names -> the short keys of :data:`FAMILIES`.
REAL_FAMILY = {"general": "safety", "egress": "exfil", **{k: k for k in FAMILIES}}


def load_real(path: Path) -> list[Item]:
    """The labelled sentences of one part, as corpus items (expect: the one family, or none)."""
    items = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < 3:
            raise ValueError(f"{path.name}:{n}: {len(fields)} tab-separated fields, not "
                             "label, family, sentence, ...")
        label, family, sentence = fields[:3]
        if label not in ("O", "H") or family not in REAL_FAMILY:
            raise ValueError(f"{path.name}:{n}: label {label!r} / family {family!r} unknown")
        expect = frozenset({FAMILIES[REAL_FAMILY[family]]}) if label == "O" else frozenset()
        items.append(Item(sentence, expect))
    return items


def sha_half(sentence: str) -> str:
    """Which half of a set a sentence falls in: "dev" when the first byte of its sha256 is
    even, else "held" (a split that needs no state and never changes)."""
    import hashlib

    return "dev" if hashlib.sha256(sentence.encode("utf-8")).digest()[0] % 2 == 0 else "held"


def flag_rates(items: list[Item], rules_only: bool = False) -> tuple[float, float, float]:
    """(recall: overclaims flagged at all, recall with the labelled family among the
    findings, false-positive rate: honest sentences flagged) -- the figures issue 10 asks for.
    ``rules_only``: the claim rules' errors alone, without the CLM010 warnings."""
    from tests.corpus.corpus_io import predict

    over = [i for i in items if i.expect]
    honest = [i for i in items if not i.expect]
    got = {i.text: predict(i.text, rules_only) for i in items}
    flagged = sum(1 for i in over if got[i.text])
    named = sum(1 for i in over if i.expect <= got[i.text])
    false = sum(1 for i in honest if got[i.text])
    return flagged / len(over), named / len(over), false / len(honest)
