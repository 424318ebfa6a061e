"""Small workbooks built for the tests, plus the XML edits openpyxl cannot make.

``rich_workbook`` has everything a customer's file may carry: a cover sheet,
a hidden list sheet, section rows, merged cells, a comment, styles, a classic
and an x14 (extension-list) data validation, sheet protection, a defined
name, a formula, and a question whose text is a formula's cached value.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import openpyxl
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.datavalidation import DataValidation

X14_URI = "{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}"
X14_EXT = (
    f'<extLst><ext uri="{X14_URI}" '
    'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
    '<x14:dataValidations count="1" '
    'xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
    '<x14:dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="1">'
    "<x14:formula1><xm:f>Lists!$A$1:$A$3</xm:f></x14:formula1>"
    "<xm:sqref>C5:C12</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>"
)
FORMULA_QUESTION = "Is every agent session recorded with its commands and outputs?"

QUESTIONS = [
    # (row, id, text) on sheet "Security"; rows 4 and 9 are section titles.
    (5, "1.1", "Do agents run in an isolated, disposable environment?"),
    (6, "1.2", "Is outbound network access from the agent environment restricted?"),
    (7, "1.3", "Describe how credentials available to the agent are scoped."),
    (8, "1.4", FORMULA_QUESTION),
    (10, "2.1", "Are changes proposed by agents reviewed by a human before merge?"),
    (11, "2.2", "Do CI workflows triggered by agent changes run with read-only tokens?"),
    (12, "2.3", "Is there an incident response plan for agent misuse?"),
]


def rich_workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    cover = wb.active
    cover.title = "Cover"
    cover["A1"] = "Vendor security questionnaire"
    cover["A2"] = "Please answer every question on the Security sheet."
    ws = wb.create_sheet("Security")
    lists = wb.create_sheet("Lists")
    for i, v in enumerate(("Yes", "No", "NA"), start=1):
        lists.cell(i, 1, v)
    lists["B1"] = "Is every agent session recorded with its commands and outputs?"
    lists.sheet_state = "hidden"
    ws["A1"] = "Security questionnaire v2"
    ws.merge_cells("A1:D1")
    ws["A1"].font = Font(bold=True, size=14)
    ws.append([])
    ws["A3"], ws["B3"], ws["C3"], ws["D3"] = "#", "Question", "Answer", "Comments"
    ws["A4"] = "Runtime and network"
    ws.merge_cells("A4:D4")
    ws["A9"] = "Change control"
    fill = PatternFill("solid", fgColor="FFFF00")
    for row, qid, text in QUESTIONS:
        ws.cell(row, 1, qid)
        ws.cell(row, 2, "=Lists!B1" if text == FORMULA_QUESTION else text)
        ws.cell(row, 3).fill = fill  # styled, empty answer cell: the style must survive
    ws["D12"] = "Existing comment by the customer"
    ws["C12"].comment = Comment("Answer Yes or No", "Customer")
    ws["F1"] = "=COUNTA(C5:C12)"
    dv = DataValidation(type="list", formula1='"Yes,No,NA"', allow_blank=True)
    dv.add("C5:C8")
    ws.add_data_validation(dv)
    ws.protection.sheet = True
    ws.protection.password = "secret"
    ws.freeze_panes = "C5"
    wb.defined_names["AnswerRange"] = DefinedName("AnswerRange", attr_text="Security!$C$5:$C$12")
    wb.save(path)
    _edit_part(path, "xl/worksheets/sheet2.xml", _add_x14_and_cached_value)
    return path


def _add_x14_and_cached_value(xml: str) -> str:
    # The formula question: give it the cached value a spreadsheet program would store.
    xml, n = re.subn(
        r'<c r="B8"([^>]*)><f>Lists!B1</f><v\s*/?>(</v>)?</c>',
        f'<c r="B8"\\1 t="str"><f>Lists!B1</f><v>{FORMULA_QUESTION}</v></c>',
        xml,
    )
    assert n == 1, "fixture: formula cell B8 not found"
    assert "</worksheet>" in xml
    return xml.replace("</worksheet>", X14_EXT + "</worksheet>")


def _edit_part(path: Path, part: str, edit: object) -> None:
    with zipfile.ZipFile(path) as zf:
        items = [(info, zf.read(info)) for info in zf.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, data in items:
            if info.filename == part:
                data = edit(data.decode("utf-8")).encode("utf-8")  # type: ignore[operator]
            zf.writestr(info, data)


def add_vba(path: Path, out: Path) -> Path:
    """Turn an .xlsx into an .xlsm with a (dummy, never run) vbaProject.bin part."""
    vba = b"\xd0\xcf\x11\xe0VBA-PROJECT-BYTES" + bytes(range(256))
    with zipfile.ZipFile(path) as zf:
        items = [(info, zf.read(info)) for info in zf.infolist()]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, data in items:
            if info.filename == "[Content_Types].xml":
                text = data.decode()
                text = text.replace(
                    "spreadsheetml.sheet.main+xml", "ms-excel.sheet.macroEnabled.main+xml"
                ).replace(
                    "</Types>",
                    '<Default Extension="bin" '
                    'ContentType="application/vnd.ms-office.vbaProject"/></Types>',
                )
                data = text.encode()
            elif info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdVba" Target="vbaProject.bin" Type="http://schemas.'
                    b'microsoft.com/office/2006/relationships/vbaProject"/></Relationships>',
                )
            zf.writestr(info, data)
        zf.writestr("xl/vbaProject.bin", vba)
    return out


def parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def part_names(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as zf:
        return zf.namelist()


def cells_by_ref(xml: bytes) -> dict[str, bytes]:
    """Each <c> of a sheet part, canonicalised, keyed by its reference."""
    root = ET.fromstring(xml)
    out = {}
    for el in root.iter():
        if el.tag.rsplit("}", 1)[-1] == "c":
            out[el.get("r", "")] = ET.tostring(el)
    return out


def sheet_without_cells(xml: bytes) -> bytes:
    """The sheet part with sheetData's rows emptied of cells: everything else, canonicalised."""
    root = ET.fromstring(xml)
    for row in root.iter():
        if row.tag.rsplit("}", 1)[-1] == "row":
            for c in list(row):
                row.remove(c)
    return ET.tostring(root)


FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "questionnaire" / "rich-x14.xlsx"

if __name__ == "__main__":  # refresh the committed copy: python -m tests.questionnaire.workbooks
    rich_workbook(FIXTURE)
    print(FIXTURE)
