"""The claims judge runs over the model's prose inside `compliance check`, positioned in YAML."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from compliance.pipeline import load_and_check
from tests.workspaces import CONTROL, minimal

TODAY = dt.date(2026, 11, 30)


def claim_findings(root: Path) -> list[tuple[str, int, int, str]]:
    result = load_and_check(root, TODAY).result
    return [(d.path, d.line, d.column, d.code) for d in result.findings
            if d.code.startswith("CLM")]


def test_overclaim_in_block_scalar_is_positioned(tmp_path: Path) -> None:
    text = CONTROL.replace(
        "    claim: Agent sessions run in single-use virtual machines.\n",
        "    claim: |\n      Agent sessions run in single-use virtual machines.\n"
        "      The agent is fully secure.\n")
    ws = minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert claim_findings(ws) == [("controls/isolation.yaml", 8, 20, "CLM001")]
    line = (ws / "controls/isolation.yaml").read_text().splitlines()[7]
    assert line[19:].startswith("fully secure")
    assert not load_and_check(ws, TODAY).ok


def test_honest_sentence_with_same_words_passes(tmp_path: Path) -> None:
    text = CONTROL.replace(
        "residual_risk: A hypervisor escape would reach the host.",
        "residual_risk: The VM is not a comprehensive security solution and does not "
        "stop prompt injection.")
    ws = minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert claim_findings(ws) == []


def test_disabled_claim_rule_is_not_run(tmp_path: Path) -> None:
    text = CONTROL.replace("single-use virtual machines.", "single-use VMs with zero risk.")
    ws = minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert [c for *_, c in claim_findings(ws)] == ["CLM001"]
    (ws / "compliance.yaml").write_text("disabled_rules: [absolute-safety-claim]\n")
    assert claim_findings(ws) == []


def test_stance_clause_is_judged_as_the_stance_says_it(tmp_path: Path) -> None:
    text = CONTROL.replace("    implementation:",
                           "    stance_clause: are fully secure in their VMs\n    implementation:")
    ws = minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert claim_findings(ws) == [("controls/isolation.yaml", 7, 24, "CLM001")]
    line = (ws / "controls/isolation.yaml").read_text().splitlines()[6]
    assert line[23:].startswith("fully secure")
