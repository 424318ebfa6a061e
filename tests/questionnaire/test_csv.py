"""CSV questionnaires: dialect, BOM and line endings survive; only answer fields change."""

from __future__ import annotations

from pathlib import Path

import pytest

from compliance.questionnaire import (
    Answer,
    Choice,
    QuestionnaireError,
    load_questionnaire,
    write_answers,
)

SEMICOLON = (
    "\ufeffID;Question;Answer;Comments\r\n"
    'Q1;"Is outbound network access restricted;\r\nand logged?";;\r\n'
    "Network;;;\r\n"
    'Q2;Are agent credentials short-lived?;"";"prefilled"\r\n'
    "Q3;Do you review every agent change?\r\n"
)


def write(tmp_path: Path, text: str, name: str = "q.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def test_reads_semicolon_bom_crlf_and_multiline_fields(tmp_path: Path) -> None:
    q = load_questionnaire(write(tmp_path, SEMICOLON))
    assert [(x.key, x.row, x.section, x.text) for x in q.questions] == [
        ("Q1", 2, None, "Is outbound network access restricted; and logged?"),
        ("Q2", 4, "Network", "Are agent credentials short-lived?"),
        ("Q3", 5, "Network", "Do you review every agent change?"),
    ]
    assert [(x.answer_ref.a1, x.notes_ref.a1) for x in q.questions] == [
        ("C2", "D2"),
        ("C4", "D4"),
        ("C5", "D5"),
    ]


def test_only_answer_fields_change(tmp_path: Path) -> None:
    src = write(tmp_path, SEMICOLON)
    out = tmp_path / "out.csv"
    result = write_answers(
        load_questionnaire(src),
        {
            "Q1": Answer(choice=Choice.YES, narrative="Default deny; see NET-01"),
            "Q2": Answer(choice=Choice.NO, narrative="refused: D4 is prefilled"),
            "Q3": Answer(choice=Choice.NO, narrative='-1 reviewers, "quoted"'),
        },
        out,
    )
    assert result.written == ["Q1", "Q3"]
    assert result.answers["Q2"].unanswered_reason == (
        "D4: cell already has a value; not overwritten"
    )
    assert out.read_bytes().decode("utf-8") == (
        "\ufeffID;Question;Answer;Comments\r\n"
        'Q1;"Is outbound network access restricted;\r\nand logged?";'
        'Yes;"Default deny; see NET-01"\r\n'
        "Network;;;\r\n"
        'Q2;Are agent credentials short-lived?;"";"prefilled"\r\n'
        'Q3;Do you review every agent change?;No;"\'-1 reviewers, ""quoted"""\r\n'
    )


def test_comma_lf_without_bom(tmp_path: Path) -> None:
    src = write(tmp_path, "id,question,response\n1.1,Do agents run in a sandbox?,\n")
    out = tmp_path / "out.csv"
    write_answers(load_questionnaire(src), {"1.1": Answer(narrative="=cmd|x")}, out)
    assert out.read_text(encoding="utf-8") == (
        "id,question,response\n1.1,Do agents run in a sandbox?,'=cmd|x\n"
    )


def test_not_utf8_is_refused_with_the_file_named(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes("ID,Question\nQ1,Caf\xe9 security?\n".encode("latin-1"))
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(path)
    assert str(err.value) == (
        f"{path}:2:7: not valid UTF-8 (byte 0xe9); save it as 'CSV UTF-8' and retry"
    )


def test_quote_all_files_get_quoted_answers_and_tabs_work(tmp_path: Path) -> None:
    src = write(tmp_path, '"ID","Question","Answer"\n"Q1","Are agent sessions logged?",""\n')
    out = tmp_path / "out.csv"
    write_answers(load_questionnaire(src), {"Q1": Answer(choice=Choice.YES)}, out)
    assert out.read_text(encoding="utf-8") == (
        '"ID","Question","Answer"\n"Q1","Are agent sessions logged?","Yes"\n'
    )
    tsv = write(tmp_path, "ID\tQuestion\tResponse\nQ1\tAre agent sessions logged?\t\n", "q.tsv")
    out = tmp_path / "out.tsv"
    write_answers(load_questionnaire(tsv), {"Q1": Answer(choice=Choice.NO)}, out)
    assert out.read_text(encoding="utf-8") == (
        "ID\tQuestion\tResponse\nQ1\tAre agent sessions logged?\tNo\n"
    )


def test_whitespace_only_answer_and_comments_fields_are_unanswered(tmp_path: Path) -> None:
    path = write(tmp_path, 'ID,Question,Answer,Comments\nW1,Are agents sandboxed?,"  ",\t\n')
    q = load_questionnaire(path)
    assert (q.questions[0].existing, q.questions[0].existing_notes) == (None, None)
    out = tmp_path / "out.csv"
    result = write_answers(q, {"W1": Answer(choice=Choice.YES, narrative="Drafted.")}, out)
    assert result.written == ["W1"]
    row = out.read_text(encoding="utf-8").splitlines()[1]
    assert row == "W1,Are agents sandboxed?,Yes,Drafted."
