"""Layout detection finds what a person finds, and answering keeps everything else intact."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.questionnaire import load_questionnaire
from tests.conftest import REPO
from tests.questionnaire.layouts import (
    AGENT_QUESTIONS,
    UNRELATED_QUESTIONS,
    assert_fidelity,
    banner_two_rows_above,
    formula_questions,
    sections_and_columns,
    x14_dropdowns,
)

# openpyxl warns it would drop the x14 drop-downs: it does so only in its own reading of our
# output here; assert_fidelity checks the file itself keeps them.
pytestmark = pytest.mark.filterwarnings("ignore:Data Validation extension is not supported")

OVERRIDE = (
    "(override with --sheet, --header-row, --id-col, --question-col, --answer-col, --notes-col)"
)


def cells(q: object) -> list[tuple[str, str, str]]:
    return [(x.text, str(x.answer_ref), str(x.notes_ref)) for x in q.questions]  # type: ignore[attr-defined]


def test_answer_column_named_two_rows_above(tmp_path: Path) -> None:
    q = load_questionnaire(banner_two_rows_above(tmp_path / "b.xlsx"))
    assert q.questions[0].titles == ()  # the "Vendor Response" banner is no title
    assert cells(q)[0] == (AGENT_QUESTIONS[0], "Security!C4", "Security!D4")
    assert len(q.questions) == 7
    assert q.notes == [
        "layout: sheet 'Security': header row 3, ids A, questions B, answers C, narrative D; "
        f"7 questions in rows 4-10 {OVERRIDE}"
    ]


def test_x14_dropdown_identifies_the_answer_column(tmp_path: Path) -> None:
    q = load_questionnaire(x14_dropdowns(tmp_path / "x.xlsx"))
    first = q.questions[0]
    assert (str(first.answer_ref), str(first.notes_ref)) == ("Controls!C2", "Controls!D2")
    assert first.answer_dropdown and first.choices == ("Yes", "No", "N/A")
    assert q.notes == [
        "layout: sheet 'Controls': header row 1, ids A, questions B, answers C (drop-down: Yes, "
        f"No, N/A), narrative D; 7 questions in rows 2-8 {OVERRIDE}"
    ]


def test_question_text_from_formulas_into_a_hidden_sheet(tmp_path: Path) -> None:
    q = load_questionnaire(formula_questions(tmp_path / "f.xlsx"))
    assert [x.text for x in q.questions] == AGENT_QUESTIONS + UNRELATED_QUESTIONS
    assert {x.sheet for x in q.questions} == {"Questions"}  # the hidden Data sheet is not read
    assert (str(q.questions[0].answer_ref), str(q.questions[0].notes_ref)) == (
        "Questions!C2",
        "Questions!D2",
    )


def test_section_rows_and_several_answer_columns(tmp_path: Path) -> None:
    q = load_questionnaire(sections_and_columns(tmp_path / "s.xlsx"))
    assert [(x.id, x.section, str(x.answer_ref), str(x.notes_ref)) for x in q.questions][:1] == [
        ("1.1", "AI systems", "Assessment!C5", "Assessment!D5")
    ]
    assert [x.section for x in q.questions] == ["AI systems"] * 4 + ["Company"] * 3
    assert q.questions[0].choices == ("Yes", "No")
    # what a question stands under, nearest first: section, sheet; then the title row
    assert q.questions[0].headings == ("AI systems", "Assessment")
    assert q.questions[-1].headings == ("Company", "Assessment")
    assert q.questions[0].titles == ("Vendor security assessment",)
    assert q.notes == [
        "layout: sheet 'Assessment': header row 3, ids A, questions B, answers C (drop-down: "
        "Yes, No), narrative D, title 'Vendor security assessment'; 7 questions in rows 5-12, "
        f"2 sections {OVERRIDE}"
    ]


def test_a_dropdown_without_a_comments_column_takes_no_narrative(tmp_path: Path) -> None:
    path = tmp_path / "only.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["ID", "Question", "Answer"])
    for i, text in enumerate(AGENT_QUESTIONS, start=1):
        ws.append([f"Q{i}", text])
    from openpyxl.worksheet.datavalidation import DataValidation

    dv = DataValidation(type="list", formula1='"Yes,No"')
    dv.add("C2:C5")
    ws.add_data_validation(dv)
    wb.save(path)
    out = tmp_path / "out.xlsx"
    code, _stdout, _stderr = answer(path, out)
    assert code == 0
    review = json.loads(Path(f"{out}.review.json").read_text(encoding="utf-8"))
    assert {i["status"] for i in review["items"]} == {"left for a human"}
    assert review["items"][0]["reason"] == (
        "column C is a drop-down (Yes, No) and no comments column was found for the narrative "
        "(pass --notes-col to say where it goes)"
    )
    assert_fidelity(path, out, set())


def answer(path: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        cli, ["answer", str(path), "-w", str(REPO), "--out", str(out), "--today", "2026-11-30",
              *extra]
    )
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "build", [banner_two_rows_above, x14_dropdowns, formula_questions, sections_and_columns]
)
def test_unmapped_workbooks_answered_in_place(
    tmp_path: Path, build: Callable[[Path], Path]
) -> None:
    src = build(tmp_path / "in.xlsx")
    out = tmp_path / "out.xlsx"
    code, stdout, stderr = answer(src, out)
    assert code == 0, stderr
    assert stdout.startswith(f"{out}: drafted 4 of 7 answers (0 with a Yes/No/NA choice, 4 ")
    assert stderr.startswith("note: layout: sheet ")
    q = load_questionnaire(src)
    review = json.loads(Path(f"{out}.review.json").read_text(encoding="utf-8"))
    items = {i["question"]: i for i in review["items"]}
    for text in AGENT_QUESTIONS:
        assert items[text]["status"] in ("answered", "narrative only"), items[text]["reason"]
        assert items[text]["choice"] is None
        assert items[text]["narrative"].startswith("Scope: this answer covers only ")
        assert items[text]["match_score"] >= 0.55 and items[text]["matched_words"]
    for text in UNRELATED_QUESTIONS:
        assert items[text]["status"] == "left for a human"
        assert "does not describe" in items[text]["reason"]
    answered = {str(x.notes_ref) for x in q.questions if x.text in AGENT_QUESTIONS}
    assert_fidelity(src, out, answered)
    wb = openpyxl.load_workbook(out)
    for x in q.questions:
        ws = wb[x.sheet]
        assert ws[x.answer_ref.a1].value is None  # the choice stays a human's
        notes = ws[x.notes_ref.a1].value
        assert (notes is not None) == (x.text in AGENT_QUESTIONS)
