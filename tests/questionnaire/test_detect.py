"""Question detection in unknown workbooks: headers, ids, sections, hidden sheets, overrides."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from compliance.questionnaire import Overrides, load_questionnaire
from compliance.questionnaire.detect import ID_LIKE, header_role, is_question_text

OVERRIDE = (
    "(override with --sheet, --header-row, --id-col, --question-col, --answer-col, --notes-col)"
)


@pytest.mark.parametrize(
    "text", ["A&A-01.1", "1.2.3", "Q12", "IVS-03.5", "I&S-01.1", "7", "4a", "SEC_2.1", "1."]
)
def test_id_like(text: str) -> None:
    assert ID_LIKE.match(text)


@pytest.mark.parametrize("text", ["Network", "Question", "A", "Q", "1.2.3.4.5.6.7", "", "v4.x"])
def test_not_id_like(text: str) -> None:
    assert not ID_LIKE.match(text)


@pytest.mark.parametrize(
    ("text", "role"),
    [
        ("Question ID", "id"),
        ("#", "id"),
        ("Ref", "id"),
        ("Question", "question"),
        ("Requirement", "question"),
        ("CSP CAIQ Answer", "answer"),
        ("Vendor Response", "answer"),
        ("Yes/No", "answer"),
        ("Additional Information", "notes"),
        ("Response comments", "notes"),
        ("Notes", "notes"),
        ("Control Description", "question"),
        ("Description", "question"),
        ("CSP Implementation Description (Optional/Recommended)", "notes"),
        ("Answer Guidance", None),
        ("Example response", None),
        ("Compliance (Y/N)", "answer"),
        ("Comments / Evidence", "notes"),
        ("Ques Num", "id"),
        ("Question/Request", "question"),
        ("Additional Info", "notes"),
        ("Owner", None),
        ("", None),
        ("Category", "section"),
        ("Control Domain", "section"),
        ("Section", "section"),
        ("domain_title", "section"),
        ("Risk area", "section"),
        ("Questionnaire", "source"),
        ("Source", "source"),
    ],
)
def test_header_role(text: str, role: str | None) -> None:
    assert header_role(text) == role


def test_question_text() -> None:
    assert is_question_text("Do you encrypt data at rest?")
    assert is_question_text("Describe your incident response process")
    assert not is_question_text("Network security")
    assert not is_question_text("Yes")


def two_sheets(path: Path) -> Path:
    wb = openpyxl.Workbook()
    a = wb.active
    a.title = "General"
    a.append(["Ref", "Requirement", "Vendor Response", "Additional Information"])
    a.append(["Access control"])
    a.append(["Q1", "Is access to production restricted to named individuals?"])
    a.append(["Q2", "Describe how service credentials are stored"])
    b = wb.create_sheet("Technical")
    b.append(["Item", "Question", "Response"])
    b.append(["Q1", "Is outbound traffic from build hosts filtered?"])
    b.append([None, "Do you keep audit logs for at least a year?"])
    b.append([None, "Short title"])
    h = wb.create_sheet("Internal")
    h.append(["ID", "Question", "Answer"])
    h.append(["X1", "Is this hidden sheet ever read?"])
    h.sheet_state = "hidden"
    wb.save(path)
    return path


def test_all_visible_sheets_with_keys_unique_across_the_file(tmp_path: Path) -> None:
    q = load_questionnaire(two_sheets(tmp_path / "two.xlsx"))
    assert [(x.key, x.id, x.section, str(x.answer_ref), str(x.notes_ref)) for x in q.questions] == [
        ("General!3", "Q1", "Access control", "General!C3", "General!D3"),
        ("Q2", "Q2", "Access control", "General!C4", "General!D4"),
        ("Technical!2", "Q1", None, "Technical!C2", "None"),
        ("Technical!3", None, None, "Technical!C3", "None"),
    ]
    assert q.notes == [
        "layout: sheet 'General': header row 1, ids A, questions B, answers C, narrative D; "
        f"2 questions in rows 3-4, 1 section {OVERRIDE}",
        "layout: sheet 'Technical': header row 1, ids A, questions B, answers C; 2 questions in "
        f"rows 2-3 {OVERRIDE}",
    ]


def test_hidden_sheet_only_when_named(tmp_path: Path) -> None:
    book = two_sheets(tmp_path / "two.xlsx")
    q = load_questionnaire(book, Overrides(sheet="Internal"))
    assert [(x.key, str(x.answer_ref)) for x in q.questions] == [("X1", "Internal!C2")]


def test_headerless_sheet_lists_questions_but_writes_nowhere(tmp_path: Path) -> None:
    path = tmp_path / "bare.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    for i, text in enumerate(
        [
            "Are agent sandboxes destroyed after each session?",
            "Is egress limited to an allowlist of hosts?",
            "Are tokens scoped to a single repository?",
        ],
        start=1,
    ):
        ws.append([f"{i}.1", text])
    wb.save(path)
    q = load_questionnaire(path)
    assert [(x.key, x.answer_ref) for x in q.questions] == [
        ("1.1", None),
        ("2.1", None),
        ("3.1", None),
    ]
    assert q.notes == [
        "layout: sheet 'Sheet1': no header row, ids A, questions B, no answer column; "
        f"3 questions in rows 1-3 {OVERRIDE}",
        "sheet 'Sheet1': no Answer/Response column found; questions are listed for a human "
        "(pass --answer-col to say where answers go)"
    ]
    q = load_questionnaire(path, Overrides(answer_col="C", notes_col="D"))
    assert [(str(x.answer_ref), str(x.notes_ref)) for x in q.questions][0] == (
        "Sheet1!C1",
        "Sheet1!D1",
    )


def test_header_row_and_column_overrides(tmp_path: Path) -> None:
    path = tmp_path / "odd.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    ws.append(["Number", "Text", "Reply"])  # no header word detection would trust
    ws.append(["1", "Are agent changes reviewed before merge?", None])
    wb.save(path)
    q = load_questionnaire(
        path, Overrides(header_row=1, id_col="A", question_col="B", answer_col="C")
    )
    assert [(x.key, x.text, str(x.answer_ref)) for x in q.questions] == [
        ("1", "Are agent changes reviewed before merge?", "S!C2")
    ]


def test_numeric_ids_read_as_typed(tmp_path: Path) -> None:
    path = tmp_path / "numbers.xlsx"
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "S"
    ws.append(["#", "Question", "Answer"])
    ws.append([1.1000000000000001, "Are agent sessions isolated from each other?"])
    ws.append([2, "Is outbound traffic from agent sessions restricted?"])
    ws.append([2.10, "Are agent tokens scoped to one repository?"])
    wb.save(path)
    q = load_questionnaire(path)
    assert [x.key for x in q.questions] == ["1.1", "2", "2.1"]


def test_a_section_column_names_each_questions_section(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    path.write_text(
        "Category,ID,Question,Answer\n"
        "Coding agents,1,Can it push changes by itself?,\n"
        ",2,Which tokens does it hold?,\n"
        "Human resources,3,Are their credentials revoked on the last day?,\n",
        encoding="utf-8",
    )
    q = load_questionnaire(path)
    assert [x.section for x in q.questions] == ["Coding agents", "Coding agents", "Human resources"]
    assert q.notes[0].startswith(
        "layout: the file: header row 1, ids B, questions C, answers D, sections A; 3 questions"
    )


def test_a_long_row_without_an_id_between_numbered_questions_is_a_heading(tmp_path: Path) -> None:
    """A heading row in the question column of a list whose questions are numbered was read
    as a question once it was 40 characters long, and could get a drafted answer."""
    path = tmp_path / "q.csv"
    path.write_text(
        "Question ID,Question,Answer,Comments\n"
        ",Part A: Organisation and Staffing Arrangements,,\n"
        "A1,Legal name of the supplier,,\n"
        "A2,Number of staff in the security team,,\n"
        ",Part B: Coding Assistants and Their Runtime Environment,,\n"
        "B1,Can the assistant run shell commands on a developer laptop?,,\n"
        ",Describe how assistant sessions are separated from each other,,\n",
        encoding="utf-8",
    )
    q = load_questionnaire(path)
    assert [(x.id, x.section) for x in q.questions] == [
        ("A1", "Part A: Organisation and Staffing Arrangements"),
        ("A2", "Part A: Organisation and Staffing Arrangements"),
        ("B1", "Part B: Coding Assistants and Their Runtime Environment"),
        (None, "Part B: Coding Assistants and Their Runtime Environment"),  # it asks: a question
    ]


def test_title_rows_above_the_header(tmp_path: Path) -> None:
    path = tmp_path / "q.csv"
    path.write_text(
        "Supplier questionnaire: coding agents,,\nVendor Response,,\n"
        "ID,Question,Answer\n1,Can it push changes by itself?,\n",
        encoding="utf-8",
    )
    q = load_questionnaire(path)
    # a title may say "questionnaire"; a banner naming a column ("Vendor Response") is none
    assert q.questions[0].titles == ("Supplier questionnaire: coding agents",)


def test_a_list_compiled_from_several_questionnaires_names_each_rows_source(
    tmp_path: Path,
) -> None:
    path = tmp_path / "q.csv"
    path.write_text(
        "Questionnaire,ID,Question,Answer\n"
        "Coding agent review,1,Can it push changes by itself?,\n"
        ",2,Which tokens does it hold?,\n"
        "Facilities review,3,Are the doors locked at night?,\n",
        encoding="utf-8",
    )
    q = load_questionnaire(path)
    assert [x.text for x in q.questions][0] == "Can it push changes by itself?"
    assert [x.titles for x in q.questions] == [
        ("Coding agent review",),
        ("Coding agent review",),
        ("Facilities review",),
    ]
    assert "questions C, answers D, questionnaire names A;" in q.notes[0]
