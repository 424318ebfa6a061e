"""Question text written as a formula the workbook saved no value for (openpyxl and some
exporters compute nothing): simple references are computed, the rest listed for a human."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from compliance.questionnaire import load_questionnaire
from compliance.questionnaire.formulas import MAX_DEPTH

BANK = {
    "AG-1": "Do coding agents run in a disposable sandbox?",
    "AG-2": "Can an agent session reach arbitrary hosts?",
    "ag-3": "Are agent tokens scoped to one repository?",
}


def book(
    path: Path, formulas: list[tuple[str, str]], answers: dict[int, str] | None = None
) -> Path:
    """A sheet of (id, question formula) rows under a header, with a hidden question bank
    (ids in A, text in B, a number in C); saved by openpyxl, so no formula has a value."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Vendor"
    ws.append(["ID", "Question", "Answer", "Comments"])
    bank = wb.create_sheet("Question bank")
    bank.sheet_state = "hidden"
    for i, (qid, text) in enumerate(BANK.items(), start=1):
        bank.append([qid, text, i * 1.5])
    for qid, formula in formulas:
        ws.append([qid, formula])
    for row, value in (answers or {}).items():
        ws.cell(row, 3, value)
    ws.append(["Z-9", "Is every agent command recorded in the session log?"])
    wb.save(path)
    return path


def test_references_and_exact_lookups_into_the_workbook_are_computed(tmp_path: Path) -> None:
    path = book(
        tmp_path / "refs.xlsx",
        [
            ("AG-1", "='Question bank'!$B$1"),
            ("AG-2", "=VLOOKUP(A3,'Question bank'!A:B,2,FALSE)"),
            ("AG-3", "=VLOOKUP(\"AG-3\",'Question bank'!$A$1:$C$3,2,0)"),  # case is ignored
            ("AG-4", "=B2"),  # a formula pointing at a formula
        ],
    )
    q = load_questionnaire(path)
    assert [(x.id, x.text, x.unreadable) for x in q.questions] == [
        ("AG-1", BANK["AG-1"], None),
        ("AG-2", BANK["AG-2"], None),
        ("AG-3", BANK["ag-3"], None),
        ("AG-4", BANK["AG-1"], None),
        ("Z-9", "Is every agent command recorded in the session log?", None),
    ]
    assert q.notes[-1] == (
        f"{path}: sheet 'Vendor': the workbook saved no value for the question text in "
        "cells B2, B3, B4, B5; the tool computed them from references into this workbook "
        "(check them against the workbook, or open and save it in a spreadsheet application)"
    )


@pytest.mark.parametrize(
    "formula",
    [
        "=UPPER('Question bank'!B1)",  # a function the tool does not compute
        "=VLOOKUP(A2,'Question bank'!A:B,2,TRUE)",  # approximate match
        "=VLOOKUP(\"AG-*\",'Question bank'!A:B,2,FALSE)",  # Excel reads * as a wildcard
        "=VLOOKUP(\"AG-7\",'Question bank'!A:B,2,FALSE)",  # not found: #N/A
        "=VLOOKUP(\"AG-1\",'Question bank'!A:B,3,FALSE)",  # column 3 of two: #REF!
        "='Question bank'!B9",  # an empty cell
        "=Elsewhere!B1",  # no such sheet
        "=[1]Bank!B1",  # another workbook
        "=B2",  # itself
    ],
)
def test_a_formula_not_computed_is_a_question_left_for_a_human_not_a_heading(
    tmp_path: Path, formula: str
) -> None:
    path = book(tmp_path / "other.xlsx", [("AG-1", formula)])
    q = load_questionnaire(path)
    assert [(x.id, x.row, x.text, x.section) for x in q.questions] == [
        ("AG-1", 2, "", None),
        ("Z-9", 3, "Is every agent command recorded in the session log?", None),
    ]
    shown = formula.removeprefix("=")
    assert q.questions[0].unreadable == (
        f"sheet 'Vendor' cell B2: question text is a formula with no saved value (={shown}); "
        "open and save the workbook in a spreadsheet application to compute it"
    )
    assert q.notes[-1] == (
        f"{path}: sheet 'Vendor': question text is a formula with no saved value in cell B2; "
        "open and save the workbook in a spreadsheet application to compute it (left for a "
        "human)"
    )


def test_a_chain_of_references_longer_than_the_bound_is_not_followed(tmp_path: Path) -> None:
    rows = [(f"C-{i}", f"=B{i + 3}") for i in range(MAX_DEPTH + 1)]
    rows.append(("C-END", "='Question bank'!B1"))
    q = load_questionnaire(book(tmp_path / "chain.xlsx", rows))
    # C-0 leads to the bank through MAX_DEPTH + 2 formulas, C-1 through MAX_DEPTH + 1
    assert [x.id for x in q.questions if x.unreadable] == ["C-0", "C-1"]
    assert {x.text for x in q.questions[2:-1]} == {BANK["AG-1"]}


def test_an_answer_cell_holding_an_uncomputed_formula_is_not_overwritten(tmp_path: Path) -> None:
    path = book(tmp_path / "ans.xlsx", [("AG-1", "='Question bank'!B1")], {2: "=D2"})
    [first, _] = load_questionnaire(path).questions
    assert (first.text, first.existing) == (BANK["AG-1"], "(formula)")
