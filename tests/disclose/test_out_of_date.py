"""DSC001 disclosure-out-of-date: `check` says when a recorded disclosure is no longer true."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from compliance.disclose.make import build_record
from compliance.disclose.records import write_record
from compliance.pipeline import load_and_check
from tests.disclose.example import (
    AS_OF,
    answer,
    copy_example,
    invoke,
    set_status,
    turn_off_workflow_approval,
)

TODAY = dt.date.fromisoformat(AS_OF)


def dsc(root: Path, *extra: str) -> tuple[int, list[dict]]:
    code, stdout, _ = invoke("check", str(root), "--today", AS_OF, "--format", "json", *extra)
    return code, [f for f in json.loads(stdout)["findings"] if f["code"] == "DSC001"]


def test_an_unchanged_model_owes_nobody_an_update(ws: Path) -> None:
    assert dsc(ws) == (0, [])


def errors_besides_dsc(root: Path) -> list[str]:
    _code, stdout, _ = invoke("check", str(root), "--today", AS_OF, "--format", "json")
    return [f"{f['code']} {f['message'].split(':')[0]}" for f in json.loads(stdout)["findings"]
            if f["level"] == "error" and f["code"] != "DSC001"]


#: PIPE-01 is the only stop of the tabletop path readme-injection-pr-run: partial, it
#: stops nothing, and check fails on that path (TTX001) whatever DSC001's level is.
PR_RUN_OPEN = ["TTX001 tabletop scenario 'readme-injection-pr-run' (The same injected "
               "workflow change runs on the pull request itself) passes"]


def test_a_weaker_status_is_a_warning_naming_the_record_and_the_claim(ws: Path) -> None:
    set_status(ws, "PIPE-01", "partial")
    code, found = dsc(ws)
    assert (code, errors_besides_dsc(ws)) == (1, PR_RUN_OPEN)
    [finding] = found
    assert (finding["path"], finding["level"], finding["name"]) == (
        "disclosures/acme-bank.yaml", "warning", "disclosure-out-of-date")
    lines = (ws / "disclosures/acme-bank.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[finding["line"] - 1] == '  - control: "PIPE-01"'
    assert finding["message"].startswith(
        "disclosure 'acme-bank' (build, evidence-pack.zip, recorded 2026-11-27) is out of "
        "date: PIPE-01 status deployed -> partial; the stance summary now reads differently. "
        "Whoever received it is owed an update; see `compliance diff --since acme-bank`")
    assert dsc(ws, "--strict")[0] == 1


def test_turning_off_the_workflow_gate_names_the_verdict_and_the_evidence(ws: Path) -> None:
    turn_off_workflow_approval(ws)
    code, [finding] = dsc(ws)
    assert code == 1  # CFG019 refutes the claim; DSC001 says who was told otherwise
    assert "PIPE-01 verdict VERIFIED -> REFUTED" in finding["message"]
    assert ("PIPE-01 evidence fork-pr-approval (evidence/github/fork-pr-contributor-"
            "approval.json) now has different content") in finding["message"]


@pytest.mark.parametrize(("setting", "level"), [("error", "error"), ("off", None)])
def test_the_level_is_set_in_compliance_yaml(ws: Path, setting: str, level: str | None) -> None:
    with (ws / "compliance.yaml").open("a", encoding="utf-8") as handle:
        handle.write(f"disclosure_out_of_date: {setting}\n")
    set_status(ws, "PIPE-01", "partial")
    code, found = dsc(ws)
    assert [f["level"] for f in found] == ([level] if level else [])
    assert (code, errors_besides_dsc(ws)) == (1, PR_RUN_OPEN)


def test_a_change_that_only_strengthens_owes_no_update(tmp_path: Path) -> None:
    root = copy_example(tmp_path / "ws")
    set_status(root, "PIPE-01", "partial")
    write_record(root, build_record(load_and_check(root, TODAY), "before"), replace=False)
    shutil.rmtree(root / "controls")
    shutil.copytree(Path(__file__).resolve().parents[2] / "controls", root / "controls")
    assert dsc(root) == (0, [])


def test_an_answered_customer_is_owed_an_update_when_their_answer_would_change(
        ws: Path, tmp_path: Path) -> None:
    (ws / "disclosures/acme-bank.yaml").unlink()
    code, _, _ = answer(ws, tmp_path, "--record", "cust-a")
    assert code == 0
    assert dsc(ws) == (0, [])
    set_status(ws, "NET-01", "partial")
    code, [finding] = dsc(ws)
    assert finding["message"].startswith(
        "disclosure 'cust-a' (answer, answered.csv, recorded 2026-11-27) is out of date: "
        "NET-01 status deployed -> partial; answer Q1 would now be worded differently or rest "
        "on other evidence. Whoever received it is owed an update")


def test_a_choice_left_by_yes_needs_is_redrafted_the_same(ws: Path, tmp_path: Path) -> None:
    """The record keeps the parts a Yes needs (the mapping's yes_needs), so re-drafting from
    the record leaves the choice as it was sent, and nobody is owed a spurious update."""
    import tests.disclose.example as example

    (ws / "disclosures/acme-bank.yaml").unlink()
    mapping = example.MAPPING.replace(
        '  - {id: "Q1", layers: [network], topics: [egress, outbound]}',
        '  - {id: "Q1", layers: [network], topics: [egress, outbound],\n'
        '     yes_needs: [{part: "only authenticated traffic", topics: [authenticat]}]}')
    original = example.MAPPING
    example.MAPPING = mapping
    try:
        code, _, _ = answer(ws, tmp_path, "--record", "cust-a")
    finally:
        example.MAPPING = original
    assert code == 0
    review = json.loads((tmp_path / "answered.csv.review.json").read_text(encoding="utf-8"))
    assert review["items"][0]["status"] == "narrative only"
    record = (ws / "disclosures/cust-a.yaml").read_text(encoding="utf-8")
    assert "only authenticated traffic" in record
    assert dsc(ws) == (0, [])
    code, stdout, _ = invoke("diff", str(ws), "--since", "cust-a", "--today", AS_OF)
    assert "Q1" not in stdout  # not "answer Q1 would now be Yes (was narrative only)"
