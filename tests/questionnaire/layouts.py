"""Small workbooks, one per layout feature a person finds at once, and a fidelity check.

Each builder writes a workbook with openpyxl, then edits the XML where openpyxl
cannot (x14 drop-downs, formulas' cached values). ``assert_fidelity`` compares
the package parts of a written copy with its source: only the answered cells
may differ; data validations (x14 included), formulas, protection, hidden
sheets, merged cells and styles must all be as they were.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import openpyxl
from openpyxl.styles import Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

from tests.questionnaire.workbooks import cells_by_ref, parts, sheet_without_cells

AGENT_QUESTIONS = [
    "Are AI agents' actions recorded in audit logs?",
    "Are code changes proposed by AI agents reviewed by a human before merge?",
    "Do LLM integrations use least-privilege credentials?",
    "Do AI coding agents run in a sandbox isolated from production?",
]
UNRELATED_QUESTIONS = [
    "Where is your company headquartered?",
    "Do you perform background checks on all employees?",
    "Do you carry cyber liability insurance?",
]
X14 = (
    '<extLst><ext uri="{{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}}" '
    'xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">'
    '<x14:dataValidations count="1" '
    'xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
    '<x14:dataValidation type="list" allowBlank="1" showErrorMessage="1">'
    "<x14:formula1><xm:f>Lists!$A$1:$A$3</xm:f></x14:formula1>"
    "<xm:sqref>{sqref}</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>"
)


def _lists(wb: openpyxl.Workbook) -> None:
    lists = wb.create_sheet("Lists")
    for i, v in enumerate(("Yes", "No", "N/A"), start=1):
        lists.cell(i, 1, v)
    lists.sheet_state = "hidden"


def banner_two_rows_above(path: Path) -> Path:
    """The answer column is named only by a banner two rows above the question header."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Security"
    ws["C1"] = "Vendor Response"
    ws.merge_cells("C1:D1")
    ws["A3"], ws["B3"], ws["D3"] = "Ref", "Question", "Comments"
    for i, text in enumerate(AGENT_QUESTIONS + UNRELATED_QUESTIONS, start=4):
        ws.cell(i, 1, f"S-{i - 3}")
        ws.cell(i, 2, text)
    wb.save(path)
    return path


def x14_dropdowns(path: Path, rows: int = 7) -> Path:
    """Answer cells are x14 drop-downs from a hidden list sheet; the answer column's header
    names no role ("Vendor"), the comments column says "Explain"; a guidance column after."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Controls"
    ws.append(["ID", "Question", "Vendor", "Explain", "Guidance"])
    for i, text in enumerate(AGENT_QUESTIONS + UNRELATED_QUESTIONS, start=1):
        ws.append([f"C{i}", text, None, None, "Say yes only with evidence."])
    ws.protection.sheet = True
    _lists(wb)
    wb.save(path)
    _edit(path, "xl/worksheets/sheet1.xml", lambda x: _add_x14(x, f"C2:C{rows + 1}"))
    return path


def formula_questions(path: Path) -> Path:
    """Question text is a VLOOKUP into a hidden sheet (cached values stored, as Excel does);
    answers are classic drop-downs with a comments column beside them."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Questions"
    data = wb.create_sheet("Data")
    data.sheet_state = "hidden"
    texts = AGENT_QUESTIONS + UNRELATED_QUESTIONS
    for i, text in enumerate(texts, start=1):
        data.cell(i, 1, f"Q{i}")
        data.cell(i, 2, text)
    ws.append(["Question ID", "Question", "Answer", "Additional Information"])
    for i in range(1, len(texts) + 1):
        ws.append([f"Q{i}", f"=VLOOKUP(A{i + 1},Data!A:B,2,FALSE)"])
    dv = DataValidation(type="list", formula1='"Yes,No,N/A"', allow_blank=True)
    dv.add(f"C2:C{len(texts) + 1}")
    ws.add_data_validation(dv)
    wb.save(path)

    def cache(xml: str) -> str:
        for i, text in enumerate(texts, start=2):
            xml, n = re.subn(
                rf'<c r="B{i}"([^>]*)><f>(VLOOKUP\(A{i},Data!A:B,2,FALSE\))</f><v\s*/?>(</v>)?</c>',
                rf'<c r="B{i}"\1 t="str"><f>\2</f><v>{text}</v></c>',
                xml,
            )
            assert n == 1, f"fixture: formula cell B{i} not found"
        return xml

    _edit(path, "xl/worksheets/sheet1.xml", cache)
    return path


def sections_and_columns(path: Path) -> Path:
    """Section header rows between questions, and several answer columns: a Yes/No drop-down,
    then comments, then a column for the customer's reviewer that must never be written."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Assessment"
    ws.append(["Vendor security assessment"])
    ws["A1"].font = Font(bold=True, size=14)
    ws.append([])
    ws.append(["#", "Requirement", "Compliant (Yes/No)", "Vendor Comments", "Reviewer Score"])
    fill = PatternFill("solid", fgColor="DDEBF7")
    row = 4
    sections = [("AI systems", AGENT_QUESTIONS), ("Company", UNRELATED_QUESTIONS)]
    for number, (title, texts) in enumerate(sections, start=1):
        ws.cell(row, 1, title).fill = fill
        row += 1
        for j, text in enumerate(texts, start=1):
            ws.cell(row, 1, f"{number}.{j}")
            ws.cell(row, 2, text)
            ws.cell(row, 3).fill = fill
            row += 1
    dv = DataValidation(type="list", formula1='"Yes,No"', allow_blank=True)
    dv.add(f"C5:C{row - 1}")
    ws.add_data_validation(dv)
    ws["G1"] = "=COUNTIF(C5:C20,\"Yes\")"
    wb.save(path)
    return path


def _add_x14(xml: str, sqref: str) -> str:
    assert "</worksheet>" in xml
    return xml.replace("</worksheet>", X14.format(sqref=sqref) + "</worksheet>")


def _edit(path: Path, part: str, edit: object) -> None:
    with zipfile.ZipFile(path) as zf:
        items = [(info, zf.read(info)) for info in zf.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for info, data in items:
            if info.filename == part:
                data = edit(data.decode("utf-8")).encode("utf-8")  # type: ignore[operator]
            zf.writestr(info, data)


def _count(xml: bytes, name: str) -> int:
    return sum(1 for el in ET.fromstring(xml).iter() if el.tag.rsplit("}", 1)[-1] == name)


def assert_fidelity(src: Path, out: Path, answered: set[str]) -> None:
    """Only the cells in ``answered`` ("Sheet!C4") changed; everything else is as it was."""
    before, after = parts(src), parts(out)
    assert list(before) == list(after), "package parts differ"
    with zipfile.ZipFile(src) as zf:
        from compliance.questionnaire.xlsx_read import sheets

        part_of = {info.name: info.part for info in sheets(src, zf)}
    by_part: dict[str, set[str]] = {}
    for ref in answered:
        sheet, _, cell = ref.rpartition("!")
        by_part.setdefault(part_of[sheet], set()).add(cell)
    for name in before:
        if name not in by_part:
            assert before[name] == after[name], f"{name} changed"
            continue
        # Data validations (x14 too), protection, merged cells, columns: all outside <c>.
        assert sheet_without_cells(before[name]) == sheet_without_cells(after[name]), name
        for element in ("dataValidation", "sheetProtection", "f", "mergeCell", "ext"):
            assert _count(before[name], element) == _count(after[name], element), element
        old, new = cells_by_ref(before[name]), cells_by_ref(after[name])
        changed = {r for r in set(old) | set(new) if old.get(r) != new.get(r)}
        assert changed == by_part[name], (name, sorted(changed))
