"""Per-rule cases (cases/CLMxxx.yaml): failing inputs give exactly the listed codes
(and, where given, exactly that span); passing inputs give no finding at all."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from compliance.rules.claims import CLAIM_RULES, judge_text

CASES = Path(__file__).parent / "cases"


def _load() -> list[tuple[str, str, dict]]:
    out = []
    for f in sorted(CASES.glob("*.yaml")):
        data = YAML(typ="safe").load(f.read_text(encoding="utf-8"))
        for case in data["fail"]:
            out.append((data["rule"], "fail", case))
        for text in data["pass"]:
            out.append((data["rule"], "pass", {"text": text, "codes": []}))
    return out


ALL = _load()


def test_every_rule_has_a_case_file_with_both_kinds() -> None:
    files = {f.stem for f in CASES.glob("*.yaml")}
    assert files == set(CLAIM_RULES)
    for code in CLAIM_RULES:
        kinds = {kind for rule, kind, _ in ALL if rule == code}
        assert kinds == {"fail", "pass"}, code


@pytest.mark.parametrize(("rule", "kind", "case"), ALL,
                         ids=[f"{r}-{k}-{c['text'][:40]}" for r, k, c in ALL])
def test_case(rule: str, kind: str, case: dict) -> None:
    # The rules' cases test the rules; the learned second opinion (CLM010), which warns only
    # where they found nothing, is tested by its own cases and by the bound below.
    found = [o for o in judge_text(case["text"]) if rule == "CLM010" or o.code != "CLM010"]
    assert sorted(o.code for o in found) == sorted(case["codes"])
    if kind == "fail":
        assert rule in case["codes"]
    if "span" in case:
        own = [o for o in found if o.code == rule]
        assert [(o.start, o.end) for o in own] == [tuple(case["span"])]


def test_the_second_opinion_warns_on_almost_no_honest_minimal_pair() -> None:
    """A bound, not a target: the rules' honest cases are in the model's training data, and
    at the time of writing 1 of 242 still gets a CLM010 warning ("No pen-tester has
    demonstrated a microVM escape against our platform.": reported knowledge, which the
    rules read and the model cannot)."""
    honest = [c["text"] for rule, kind, c in ALL if kind == "pass" and rule != "CLM010"]
    warned = [t for t in honest if any(o.code == "CLM010" for o in judge_text(t))]
    assert len(honest) >= 230
    assert len(warned) <= 2, warned
