"""Pipe tables: each body cell is read under its column header and row label."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.commands.lint import lint
from compliance.judge.tables import cell_readings, tables
from compliance.rules.claims import judge_text


def test_cells_keep_their_offsets_and_escaped_pipes() -> None:
    text = "Intro.\n\n| Host | Note |\n|:---|---:|\n| a.example | uses \\| pipes |\n"
    [rows] = tables(text)
    assert [[c.text for c in row] for row in rows] == [["Host", "Note"],
                                                       ["a.example", "uses \\| pipes"]]
    for row in rows:
        for c in row:
            assert text[c.start:c.end] == c.text


def test_a_single_row_or_separated_rows_are_not_one_table() -> None:
    assert tables("| Sandbox escape | Impossible |\n") == []
    text = "| A | B |\n| 1 | 2 |\n\n| C | D |\n| 3 | 4 |\n"
    assert [[c.text for c in rows[0]] for rows in tables(text)] == [["A", "B"], ["C", "D"]]


def test_readings_name_the_row_label_and_column_header() -> None:
    text = ("| Layer | Technology | Escape risk? |\n"
            "| Compute | Firecracker | None |\n")
    got = [(r.text, r.question) for r in cell_readings(text)]
    assert got == [("Layer Compute Technology: Firecracker", None),
                   ("None", "Layer Compute Escape risk?")]


CLAIMS = [
    ("| Layer | Technology | Escape risk |\n| Compute | Firecracker | None |\n"
     "| Network | VPC per task | Low |", "CLM006", "None"),
    ("| Risk | Control | Outcome |\n| Data exfiltration | Egress disabled | Not possible |",
     "CLM003", "Not possible"),
    ("| Asset | Agent can modify? |\n| Application source | Via reviewed PR |\n"
     "| CI workflows | Never |", "CLM009", "Never"),
    ("| Control | Coverage |\n|---|---|\n| Egress allowlist | Complete |", "CLM005", "Complete"),
]
HONEST = [
    "| Control | Limit |\n|---|---|\n| Allowlist | Can be bypassed through allowed hosts |",
    "| Threat | Mitigated? |\n| Prompt injection | Partially |\n| Escape | Reduced, not removed |",
    "| Risk | Likelihood | Residual |\n|---|---|---|\n| Sandbox escape | Low | Medium |\n"
    "| Data exfiltration | Medium | Not zero |",
    "| Escape risk | Notes |\n| None known today | We patch within 72 hours |",
    "| Control | Coverage |\n| Egress allowlist | HTTP only; DNS is not covered |",
    # a long cell is prose of its own, not a verdict read under its header
    "| exit | meaning |\n| --- | --- |\n| 0 | answers and review files written (some "
    "questions may be left for a human) |",
    # cells under a header that frames them as conditions or examples state nothing
    "| code | the claim is REFUTED when |\n|---|---|\n| CFG016 | no source requires an "
    "approving review |",
    "| Banned wording | Use instead |\n|---|---|\n| The sandbox is bulletproof | The sandbox "
    "reduces risk |",
]


def test_a_cell_under_a_plain_header_still_says_what_it_says() -> None:
    text = "| Control | Notes |\n|---|---|\n| Sandbox | The sandbox is bulletproof |"
    assert [o.code for o in judge_text(text)] == ["CLM001"]


def test_the_projects_own_docs_pass_lint() -> None:
    root = Path(__file__).resolve().parents[2]
    docs = [str(p) for p in [root / "README.md", *sorted((root / "docs").glob("*.md"))]]
    result = CliRunner().invoke(lint, docs)
    assert result.exit_code == 0
    # No rule (CLM001-CLM009) matches the tool's own words. The learned second opinion
    # warns on 5 of their 1,553 sentences at the time of writing, all of them honest (a
    # list of negators, "can only restrict further, never loosen it"): what it costs on
    # technical prose that makes no claim. A bound, so that cost cannot grow unseen.
    lines = [ln for ln in result.stdout.splitlines() if ": warning " in ln or ": error " in ln]
    assert all(ln.endswith("[CLM010]") and ": warning " in ln for ln in lines), lines
    assert len(lines) <= 5, lines
    assert result.stdout.endswith(f" sentences read; 0 errors, {len(lines)} warnings\n"), (
        result.stdout[-300:])


@pytest.mark.parametrize(("text", "code", "cell"), CLAIMS)
def test_a_cell_that_claims_under_its_header_is_flagged_at_the_cell(
        text: str, code: str, cell: str) -> None:
    found = [(o.code, text[o.start:o.end]) for o in judge_text(text)]
    assert found == [(code, cell)]


@pytest.mark.parametrize("text", HONEST)
def test_honest_tables_are_left_alone(text: str) -> None:
    assert judge_text(text) == []


def test_lint_points_at_the_cell(tmp_path: Path) -> None:
    f = tmp_path / "risks.md"
    f.write_text("# Risks\n\n| Layer | Escape risk |\n|---|---|\n| Compute | None |\n",
                 encoding="utf-8")
    result = CliRunner().invoke(lint, [str(f), "--format", "json"])
    assert result.exit_code == 1
    [d] = json.loads(result.stdout)["findings"]
    assert (d["line"], d["column"], d["end_column"], d["code"]) == (5, 13, 17, "CLM006")
    assert '"Layer Compute Escape risk: None"' in d["message"]
