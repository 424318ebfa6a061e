"""Load the labelled claim corpora (tests/corpus/*.yaml) and score the judge on them.

Shared by tests/corpus/test_corpus.py and benchmarks/judge_accuracy.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml import YAML

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "claims.yaml"
HELDOUT = HERE / "heldout.yaml"
HELDOUT2 = HERE / "heldout2.yaml"
HELDOUT3 = HERE / "heldout3.yaml"
HELDOUT4 = HERE / "heldout4.yaml"
HELDOUT5 = HERE / "heldout5.yaml"
HELDOUT6 = HERE / "heldout6.yaml"
HELDOUT7 = HERE / "heldout7.yaml"
HELDOUT8 = HERE / "heldout8.yaml"
HELDOUT9 = HERE / "heldout9.yaml"
HELDOUT10 = HERE / "heldout10.yaml"
HELDOUT11 = HERE / "heldout11.yaml"
HELDOUT12 = HERE / "heldout12.yaml"
HELDOUT13 = HERE / "heldout13.yaml"
HELDOUT14 = HERE / "heldout14.yaml"
HELDOUT15 = HERE / "heldout15.yaml"
HELDOUT16 = HERE / "heldout16.yaml"
HELDOUT17 = HERE / "heldout17.yaml"
HELDOUT18 = HERE / "heldout18.yaml"
HELDOUT19 = HERE / "heldout19.yaml"
HELDOUT20 = HERE / "heldout20.yaml"
HELDOUT21 = HERE / "heldout21.yaml"

#: Short family keys used in claims.yaml -> rule names.
FAMILIES: dict[str, str] = {
    "safety": "absolute-safety-claim",
    "injection": "sandbox-stops-prompt-injection-claim",
    "exfil": "no-internet-no-exfiltration-claim",
    "review": "review-optional-claim",
    "allowlist": "complete-allowlist-claim",
    "isolation": "absolute-isolation-claim",
    "secrets": "hidden-secrets-claim",
    "logs": "complete-logs-claim",
    "pipeline": "pipeline-immune-claim",
}


@dataclass(frozen=True)
class Item:
    text: str
    expect: frozenset[str]
    known_failure: str | None = None


def load(path: Path) -> list[Item]:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    items = []
    for raw in data["items"]:
        names = frozenset(FAMILIES.get(x, x) for x in raw.get("expect") or [])
        unknown = names - set(FAMILIES.values())
        if unknown:
            raise ValueError(f"{path.name}: unknown family {sorted(unknown)} in {raw['text']!r}")
        items.append(Item(raw["text"], names, raw.get("known_failure")))
    return items


def predict(text: str, rules_only: bool = False) -> frozenset[str]:
    """The families the judge finds in ``text``: a CLM010 warning (the learned second
    opinion) counts as the family it reads, unless ``rules_only`` (CLM001-CLM009 alone)."""
    from compliance.rules.claims import CLAIM_RULES, judge_text

    return frozenset(CLAIM_RULES[o.family].name if o.family else o.name
                     for o in judge_text(text) if not (rules_only and o.family))


def scores(items: list[Item], rules_only: bool = False) -> dict[str, tuple[int, int, int]]:
    """family -> (true positives, false positives, false negatives); key "overall" too."""
    out: dict[str, list[int]] = {f: [0, 0, 0] for f in [*FAMILIES.values(), "overall"]}
    for item in items:
        got = predict(item.text, rules_only)
        for fam in FAMILIES.values():
            exp, hit = fam in item.expect, fam in got
            row = out[fam]
            if exp and hit:
                row[0] += 1
            elif hit:
                row[1] += 1
            elif exp:
                row[2] += 1
        # overall: is the text judged an overclaim at all, and with the right family set?
        o = out["overall"]
        if item.expect and got:
            o[0] += 1 if got == item.expect else 0
            o[1] += 0 if got == item.expect else 1
            o[2] += 0 if got == item.expect else 1
        elif got:
            o[1] += 1
        elif item.expect:
            o[2] += 1
    return {k: (v[0], v[1], v[2]) for k, v in out.items()}
