"""A waived overclaim is marked wherever an output shows it: stance.md, report.html.

A waiver accepts a claims-judge finding for now; it does not make the sentence true. The
reader of the stance must see that a sentence was flagged and waived, by whom, until when
and why (an inline suppression records only a reason)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from compliance.pipeline import Checked, load_and_check
from compliance.render.build_context import build_context
from compliance.render.documents import render_report_html, render_stance_md
from compliance.render.env import make_env
from tests.workspaces import copy_example

REPO = Path(__file__).resolve().parents[2]
TODAY = dt.date(2026, 12, 3)
CLAUSE = ("have default-deny network access through a comprehensive allowlist that cannot "
          "be bypassed")
WAIVERS = """\
waivers:
  - rule: CLM005
    target: NET-02
    reason: Sales insists on this wording for the Q1 renewal.
    owner: ciso@acme.example
    expires: 2027-02-28
"""


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    ws = copy_example(REPO, tmp_path_factory.mktemp("waived") / "ws")
    network = ws / "controls" / "network.yaml"
    text = network.read_text(encoding="utf-8")
    text = text.replace(
        "    stance_clause: have default-deny network access\n",
        "    # compliance: allow CLM005 -- marketing approved the wording for Q4\n"
        f"    stance_clause: {CLAUSE}\n", 1)
    text = text.replace("    claim: >\n      The hosts an agent session reaches directly",
                        "    claim: >\n      The allowlist is comprehensive. The hosts an agent "
                        "session reaches directly", 1)
    network.write_text(text, encoding="utf-8")
    (ws / "waivers.yaml").write_text(WAIVERS, encoding="utf-8")
    result = load_and_check(ws, TODAY)
    assert result.ok, [str(d) for d in result.result.findings if d.waived_by is None][:3]
    return result


def test_the_check_stage_records_each_waived_overclaim_and_its_field(checked: Checked) -> None:
    got = [(w.item_id, w.field, w.code, w.waived_by) for w in checked.result.waived_claims]
    assert got == [
        ("NET-01", "stance_clause", "CLM005",
         "inline at controls/network.yaml:14: marketing approved the wording for Q4"),
        ("NET-02", "claim", "CLM005",
         "waiver CLM005 on NET-02 by ciso@acme.example until 2027-02-28: Sales insists on "
         "this wording for the Q1 renewal.")]


def test_stance_md_marks_the_clause_and_says_who_waived_it_and_why(checked: Checked) -> None:
    stance = render_stance_md(make_env(None), build_context(checked))
    assert f"{CLAUSE} \\[waived overclaim 1\\]," in stance
    section = stance.split("## Waived overclaims\n", 1)[1].split("\n## ", 1)[0]
    first, second = [line for line in section.splitlines() if line[:2] in ("1.", "2.")]
    assert first.startswith(
        "1. In NET-01, its stance clause: The claims judge flagged this as an overclaim "
        "(CLM005 complete-allowlist-claim, at controls/network.yaml:15:63) and it was waived: "
        "by an inline suppression (inline at controls/network.yaml:14: marketing approved the "
        "wording for Q4), which records no owner and no expiry. The finding: ")
    assert second.startswith(
        "2. In NET-02, its claim: The claims judge flagged this as an overclaim (CLM005 "
        "complete-allowlist-claim, at controls/network.yaml:50:24) and it was waived: waiver "
        "CLM005 on NET-02 by ciso@acme.example until 2027-02-28: Sales insists on this wording "
        "for the Q1 renewal. The finding: ")


def test_the_report_marks_the_stance_and_the_claim(checked: Checked) -> None:
    html = render_report_html(make_env(None), build_context(checked))
    assert f"{CLAUSE} [waived overclaim 1]," in html
    assert "<h3>Waived overclaims</h3>" in html
    net02 = html.split('id="control-net-02"', 1)[1].split("</article>", 1)[0]
    assert ("The allowlist is comprehensive. The hosts an agent session reaches directly" in net02)
    assert '<span class="waived-mark">[waived overclaim: see below]</span>' in net02
    assert ("<li>In its claim: The claims judge flagged this as an overclaim (CLM005 "
            "complete-allowlist-claim, at controls/network.yaml:50:24) and it was waived: "
            "waiver CLM005 on NET-02 by ciso@acme.example until 2027-02-28") in net02


def test_without_a_waived_overclaim_nothing_is_added(tmp_path: Path) -> None:
    clean = load_and_check(copy_example(REPO, tmp_path / "ws"), TODAY)
    assert clean.result.waived_claims == []
    ctx = build_context(clean)
    assert "waived overclaim" not in render_stance_md(make_env(None), ctx).casefold()
