"""Evidence past its max_age_days makes no claim VERIFIED, in every output alike.

The check stage decides it once (the verdict becomes UNVERIFIED, naming the file and by how
many days it is too old); the report, the stance and the questionnaire drafter read that
verdict and never re-validate."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from compliance.pipeline import Checked, load_and_check
from compliance.questionnaire.controls import verified_and_deployed
from compliance.render.build_context import build_context
from compliance.render.documents import render_report_html, render_stance_md
from compliance.render.env import make_env
from tests.workspaces import copy_example

REPO = Path(__file__).resolve().parents[2]
TODAY = dt.date(2026, 11, 30)  # three days after the example's evidence was collected
#: The controls citing the Claude Code managed settings, which only part of them verifies.
ON_SETTINGS = {"CRED-01", "CRED-02", "ISO-02", "LOG-01", "NET-02"}


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    ws = copy_example(REPO, tmp_path_factory.mktemp("aged") / "ws")
    evidence = ws / "controls" / "evidence.yaml"
    text = evidence.read_text(encoding="utf-8")
    old = "    collected: 2026-11-27\n    max_age_days: 90\n\n  - id: devcontainer-json"
    assert old in text  # the claude-managed-settings item
    evidence.write_text(text.replace(old, old.replace("max_age_days: 90", "max_age_days: 1")),
                        encoding="utf-8")
    return load_and_check(ws, TODAY)


def test_a_claim_on_evidence_past_its_max_age_is_unverified_and_says_why(
        checked: Checked) -> None:
    verdicts = checked.result.verdicts
    aged = {cid for cid, v in verdicts.items() if v.get("too_old")}
    assert aged == ON_SETTINGS  # CRED-01 was PARTLY VERIFIED: unverified too
    for cid in ON_SETTINGS:
        assert verdicts[cid]["status"] == "unverified", cid
    assert verdicts["CRED-02"]["message"].startswith(
        "evidence claude-managed-settings is 2 days older than its max_age_days (1) allows "
        "(collected 2026-11-27): what the checks read may no longer be the configuration; "
        "re-export and re-pin it (verified as one assertion")
    assert verdicts["NET-01"]["status"] == "verified"  # its files are within their age


def test_the_report_stance_and_drafter_read_the_same_verdict(checked: Checked) -> None:
    ctx = build_context(checked)
    assert ctx.summary.too_old == len(ON_SETTINGS)
    stance = render_stance_md(make_env(checked.workspace.root), ctx)
    sentence = stance.split("## Stance\n\n", 1)[1].split("\n", 1)[0]
    assert "run shell commands in an enforced OS sandbox" not in sentence
    assert "are denied read access to credential files" not in sentence
    assert "have default-deny network access" in sentence  # NET-01's files are current
    html = render_report_html(make_env(checked.workspace.root), ctx)
    assert ("5 on evidence older than its max_age_days") in " ".join(html.split())
    model = checked.workspace.model
    assert model is not None
    drafted = {c.id for c in model.controls
               if verified_and_deployed(c, checked.result.verdicts.get(c.id))}
    assert not drafted & ON_SETTINGS
    assert "NET-01" in drafted
