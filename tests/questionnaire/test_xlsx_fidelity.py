"""The answered workbook differs from the input only in the answered cells."""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import openpyxl
import pytest

from compliance.questionnaire import (
    Answer,
    Choice,
    Overrides,
    QuestionnaireError,
    load_questionnaire,
    write_answers,
)
from tests.questionnaire.workbooks import (
    FIXTURE,
    FORMULA_QUESTION,
    X14_EXT,
    add_vba,
    cells_by_ref,
    part_names,
    parts,
    rich_workbook,
    sheet_without_cells,
)

SHEET = "xl/worksheets/sheet2.xml"
NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


@pytest.fixture(params=["generated", "committed"])
def rich(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    if request.param == "committed":
        copy = tmp_path / "in.xlsx"
        copy.write_bytes(FIXTURE.read_bytes())
        return copy
    return rich_workbook(tmp_path / "in.xlsx")


def answers_for_rich() -> dict[str, Answer]:
    return {
        "1.1": Answer(choice=Choice.YES, narrative="Each session runs in a fresh microVM."),
        "1.2": Answer(choice=Choice.NO, narrative='=HYPERLINK("http://x")'),
        "1.4": Answer(narrative="Sessions are logged; logs can be incomplete."),
        "2.3": Answer(choice=Choice.YES, narrative="D12 is taken: this must be refused"),
        "2.2": Answer(unanswered_reason="no control supports it"),
    }


def test_detects_the_rich_workbook(rich: Path) -> None:
    q = load_questionnaire(rich)
    assert [(x.key, x.sheet, x.row, x.section) for x in q.questions] == [
        ("1.1", "Security", 5, "Runtime and network"),
        ("1.2", "Security", 6, "Runtime and network"),
        ("1.3", "Security", 7, "Runtime and network"),
        ("1.4", "Security", 8, "Runtime and network"),
        ("2.1", "Security", 10, "Change control"),
        ("2.2", "Security", 11, "Change control"),
        ("2.3", "Security", 12, "Change control"),
    ]
    assert q.questions[3].text == FORMULA_QUESTION
    assert (str(q.questions[0].answer_ref), str(q.questions[0].notes_ref)) == (
        "Security!C5",
        "Security!D5",
    )
    assert q.kind == "generic"


def test_only_answered_cells_change(rich: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.xlsx"
    q = load_questionnaire(rich)
    result = write_answers(q, answers_for_rich(), out)
    assert result.written == ["1.1", "1.2", "1.4"]
    assert result.answers["2.3"].unanswered_reason == (
        "D12: cell already has a value; not overwritten"
    )
    before, after = parts(rich), parts(out)
    assert part_names(rich) == part_names(out)
    changed = [name for name in before if before[name] != after[name]]
    assert changed == [SHEET]
    assert sheet_without_cells(before[SHEET]) == sheet_without_cells(after[SHEET])
    old, new = cells_by_ref(before[SHEET]), cells_by_ref(after[SHEET])
    differing = sorted(ref for ref in set(old) | set(new) if old.get(ref) != new.get(ref))
    # 2.3's comment cell D12 is taken, so its choice C12 is not written either.
    assert differing == ["C5", "C6", "D5", "D6", "D8"]
    root = ET.fromstring(after[SHEET])
    cells = {c.get("r"): c for c in root.iter(f"{NS}c")}
    assert cells["C5"].get("s") == "2"  # the answer cell keeps its fill
    assert cells["C5"].get("t") == "inlineStr"
    assert cells["C5"].find(f"{NS}is/{NS}t").text == "Yes"
    assert cells["D6"].find(f"{NS}is/{NS}t").text == '\'=HYPERLINK("http://x")'
    assert cells["D6"].find(f"{NS}f") is None
    assert cells["D8"].find(f"{NS}is/{NS}t").text == (
        "Sessions are logged; logs can be incomplete."
    )
    assert cells["C8"].find(f"{NS}is") is None  # narrative only: the choice cell stays blank


def test_every_zip_entry_keeps_its_metadata(rich: Path, tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.xlsx"  # stored and deflated parts, odd dates and permissions
    with zipfile.ZipFile(rich) as src, zipfile.ZipFile(mixed, "w") as dst:
        for n, info in enumerate(src.infolist()):
            clone = zipfile.ZipInfo(info.filename, (2001, 2, 3, 4, 5, 6 + 2 * (n % 20)))
            clone.compress_type = zipfile.ZIP_STORED if n % 2 else zipfile.ZIP_DEFLATED
            clone.external_attr = (0o640 if n % 3 else 0o600) << 16
            dst.writestr(clone, src.read(info))
    rich, out = mixed, tmp_path / "out.xlsx"
    write_answers(load_questionnaire(rich), answers_for_rich(), out)
    with zipfile.ZipFile(rich) as a, zipfile.ZipFile(out) as b:
        meta = [(i.filename, i.date_time, i.compress_type, i.external_attr) for i in a.infolist()]
        assert meta == [
            (i.filename, i.date_time, i.compress_type, i.external_attr) for i in b.infolist()
        ]


@pytest.mark.filterwarnings("ignore:Data Validation extension is not supported")
def test_what_openpyxl_would_drop_survives(rich: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.xlsx"
    write_answers(load_questionnaire(rich), answers_for_rich(), out)
    text = parts(out)[SHEET].decode()
    assert X14_EXT in text
    assert "<f>Lists!B1</f><v>Is every agent session" in text
    # and the control: openpyxl itself drops the x14 validation on a plain load + save.
    resaved = tmp_path / "resaved.xlsx"
    openpyxl.load_workbook(rich).save(resaved)
    assert "x14:dataValidation" not in parts(resaved)[SHEET].decode()


@pytest.mark.filterwarnings("ignore:Data Validation extension is not supported")
def test_output_opens_with_everything_intact(rich: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.xlsx"
    write_answers(load_questionnaire(rich), answers_for_rich(), out)
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames == ["Cover", "Security", "Lists"]
    assert wb["Lists"].sheet_state == "hidden"
    ws = wb["Security"]
    assert ws.protection.sheet is True
    assert ws["F1"].value == "=COUNTA(C5:C12)"
    assert [str(r) for r in ws.merged_cells.ranges] == ["A1:D1", "A4:D4"]
    assert ws["C12"].comment.text == "Answer Yes or No"
    assert ws["C5"].fill.fgColor.rgb == "00FFFF00"
    assert (ws["C5"].value, ws["D5"].value) == ("Yes", "Each session runs in a fresh microVM.")
    assert wb.defined_names["AnswerRange"].attr_text == "Security!$C$5:$C$12"
    assert [str(dv.sqref) for dv in ws.data_validations.dataValidation] == ["C5:C8"]


def test_xlsm_macros_are_copied_untouched(rich: Path, tmp_path: Path) -> None:
    xlsm = add_vba(rich, tmp_path / "in.xlsm")
    out = tmp_path / "out.xlsm"
    write_answers(load_questionnaire(xlsm), {"1.1": Answer(choice=Choice.YES)}, out)
    before, after = parts(xlsm), parts(out)
    assert after["xl/vbaProject.bin"] == before["xl/vbaProject.bin"]
    assert after["[Content_Types].xml"] == before["[Content_Types].xml"]
    assert [n for n in before if before[n] != after[n]] == [SHEET]


def test_refuses_to_overwrite_the_input(rich: Path) -> None:
    q = load_questionnaire(rich)
    with pytest.raises(QuestionnaireError) as err:
        write_answers(q, {"1.1": Answer(choice=Choice.YES)}, rich)
    assert str(err.value) == (
        f"{rich}: refusing to overwrite the input questionnaire; choose another --out"
    )


def test_existing_answer_is_left_for_a_human(rich: Path, tmp_path: Path) -> None:
    first = tmp_path / "first.xlsx"
    write_answers(load_questionnaire(rich), {"1.1": Answer(choice=Choice.YES)}, first)
    q = load_questionnaire(first)
    assert q.by_key()["1.1"].existing == "Yes"
    result = write_answers(q, {"1.1": Answer(choice=Choice.NO)}, tmp_path / "second.xlsx")
    assert result.written == []
    assert result.answers["1.1"].unanswered_reason == (
        "the file already holds an answer ('Yes'); left as it is"
    )


def test_overrides_pick_sheet_and_columns(rich: Path) -> None:
    q = load_questionnaire(rich, Overrides(sheet="Security", answer_col="E", notes_col="F"))
    assert [str(x.answer_ref) for x in q.questions][:2] == ["Security!E5", "Security!E6"]
    assert str(q.questions[0].notes_ref) == "Security!F5"
    with pytest.raises(QuestionnaireError) as err:
        load_questionnaire(rich, Overrides(sheet="Nope"))
    assert str(err.value) == f"{rich}: no sheet 'Nope' (sheets: 'Cover', 'Security', 'Lists')"
