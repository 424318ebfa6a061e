"""Read an XLSX/XLSM package into grids of cell text, without running or rewriting anything.

We read the parts ourselves with the standard library (after the zip-bomb and
DTD checks in :mod:`safety`) rather than through openpyxl: the writer has to
know the exact part of each sheet, which cells exist and which hold formulas,
and one pass over the XML gives all of that faster than building an openpyxl
workbook. Formula cells contribute their cached value (the text a spreadsheet
program last computed), so a question written as ``=Sheet2!B4`` still reads; a
formula saved with no value is computed when it is a simple reference or lookup
into this workbook, and otherwise listed (:mod:`formulas`).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import IO
from xml.etree import ElementTree as ET

from compliance.bounds import NumberTooLong, bounded_int
from compliance.questionnaire.formulas import compute_uncached
from compliance.questionnaire.grid import Dropdown, Grid
from compliance.questionnaire.safety import WorkbookZip, no_dtd, open_zip, parse_xml
from compliance.questionnaire.types import QuestionnaireError, column_index, column_letter

_OFFICE_DOC = "/officeDocument"
_CELL_REF = re.compile(r"([A-Z]{1,3})(\d{1,7})$")
#: The largest sheet a spreadsheet program makes: rows 1..1048576, columns A..XFD.
MAX_ROW, MAX_COLUMN = 1_048_576, 16_384


class DamagedCell(ValueError):
    """A cell or row the sheet's XML describes impossibly (message says which and why)."""


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _attr(el: ET.Element, name: str) -> str | None:
    for key, value in el.attrib.items():
        if local(key) == name:
            return value
    return None


@dataclass(frozen=True, slots=True)
class SheetInfo:
    name: str
    part: str
    state: str


def _resolve(base_part: str, target: str) -> str:
    if target.startswith("/"):
        return target.lstrip("/")
    return posixpath.normpath(posixpath.join(posixpath.dirname(base_part), target))


def _rels_part(part: str) -> str:
    head, tail = posixpath.split(part)
    return posixpath.join(head, "_rels", tail + ".rels")


def _relationships(path: Path, zf: WorkbookZip, part: str) -> dict[str, tuple[str, str]]:
    rels_part = _rels_part(part)
    if rels_part not in zf.namelist():
        return {}
    data = zf.read(rels_part)
    root = parse_xml(path, rels_part, data)
    out: dict[str, tuple[str, str]] = {}
    for rel in root:
        rid, kind, target = rel.get("Id"), rel.get("Type", ""), rel.get("Target", "")
        if rid and rel.get("TargetMode") != "External":
            out[rid] = (kind, _resolve(part, target))
    return out


def workbook_part(path: Path, zf: WorkbookZip) -> str:
    for kind, target in _relationships(path, zf, "").values():
        if kind.endswith(_OFFICE_DOC):
            return target
    if "xl/workbook.xml" in zf.namelist():
        return "xl/workbook.xml"
    raise QuestionnaireError(f"{path}: no workbook part found; is this an XLSX/XLSM file?")


def sheets(path: Path, zf: WorkbookZip) -> list[SheetInfo]:
    """Worksheets in workbook order, with their part and state (visible/hidden/veryHidden)."""
    wb_part = workbook_part(path, zf)
    rels = _relationships(path, zf, wb_part)
    root = parse_xml(path, wb_part, zf.read(wb_part))
    out = []
    for el in root.iter():
        if local(el.tag) != "sheet":
            continue
        rid = _attr(el, "id")
        kind, target = rels.get(rid or "", ("", ""))
        if not kind.endswith("/worksheet"):
            continue  # chartsheets, dialog sheets: nothing to answer there
        out.append(SheetInfo(el.get("name", ""), target, el.get("state", "visible")))
    return out


def shared_strings(path: Path, zf: WorkbookZip) -> list[str]:
    wb_part = workbook_part(path, zf)
    for kind, target in _relationships(path, zf, wb_part).values():
        if kind.endswith("/sharedStrings"):
            root = parse_xml(path, target, zf.read(target))
            return [_text_of(si) for si in root if local(si.tag) == "si"]
    return []


def _text_of(el: ET.Element) -> str:
    """Text of an <si>/<is>: plain <t> or rich-text runs <r><t>, skipping phonetic <rPh>."""
    parts: list[str] = []
    for child in el:
        name = local(child.tag)
        if name == "t":
            parts.append(child.text or "")
        elif name == "r":
            parts.extend(t.text or "" for t in child if local(t.tag) == "t")
    return "".join(parts)


def split_ref(ref: str) -> tuple[int, int]:
    m = _CELL_REF.match(ref)
    if not m:
        raise DamagedCell(f"cell reference {ref[:40]!r} is not a cell like B7")
    row, column = int(m.group(2)), column_index(m.group(1))
    if not (1 <= row <= MAX_ROW and 1 <= column <= MAX_COLUMN):
        raise DamagedCell(f"cell reference {ref!r} is outside a sheet (A1 to XFD{MAX_ROW})")
    return row, column


def _row_number(text: str) -> int:
    try:
        row = bounded_int(text)
    except (ValueError, NumberTooLong):
        row = 0
    if not 1 <= row <= MAX_ROW:
        raise DamagedCell(f"row number {text[:40]!r} is not a row of a sheet (1 to {MAX_ROW})")
    return row


def read_grid(path: Path, zf: WorkbookZip, info: SheetInfo, strings: list[str]) -> Grid:
    """The sheet's cells as text. A damaged sheet (not XML, an impossible cell reference
    or row number, a shared string that does not exist, a boolean that is not 0 or 1) is
    a :class:`QuestionnaireError` naming the sheet, its part and the cell."""
    data = zf.read(info.part)
    no_dtd(path, info.part, data)
    grid = Grid(info.name, part=info.part, state=info.state)
    row_no = 0
    col = 0
    where = f"{path}: sheet {info.name!r} ({info.part})"
    try:
        for event, el in ET.iterparse(BytesIO(data), events=("start", "end")):
            name = local(el.tag)
            if event == "start":
                if name == "row":
                    row_no = _row_number(el.get("r") or str(row_no + 1))
                    col = 0
                continue
            if name == "dataValidation":
                _read_validation(grid, el)
                el.clear()
            elif name == "c":
                ref = el.get("r")
                if ref:
                    row_no, col = split_ref(ref)
                else:  # position implied by order; rare but legal
                    col += 1
                    if col > MAX_COLUMN or row_no < 1:
                        raise DamagedCell(f"a cell after the last column of row {row_no}")
                try:
                    _read_cell(grid, el, row_no, col, strings)
                except DamagedCell as exc:
                    raise DamagedCell(f"cell {column_letter(col)}{row_no}: {exc}") from None
                el.clear()
            elif name == "row":
                el.clear()
    except ET.ParseError as exc:
        raise QuestionnaireError(f"{where} is not well-formed XML ({exc})") from exc
    except DamagedCell as exc:
        raise QuestionnaireError(f"{where}: {exc}; the workbook is damaged") from exc
    return grid


def _read_cell(grid: Grid, el: ET.Element, row: int, col: int, strings: list[str]) -> None:
    kind = el.get("t", "n")
    value: str | None = None
    formula: str | None = None
    for child in el:
        name = local(child.tag)
        if name == "v":
            value = child.text or ""
        elif name == "is":
            value = _text_of(child)
        elif name == "f":
            formula = child.text or ""
    if formula is not None and (value is None or (value == "" and kind == "n")):
        grid.formulas.add((row, col))  # no saved result (a number is never empty)
        grid.uncached[(row, col)] = formula
        return
    if value is None:
        return
    if kind == "s":
        value = _shared(value, strings)
    elif kind == "b":
        if value.strip() not in ("0", "1"):
            raise DamagedCell(f"a true/false cell holding {value[:40]!r} (it must be 0 or 1)")
        value = "TRUE" if value.strip() == "1" else "FALSE"
    elif kind == "n":
        value = _number(value)
        grid.numbers.add((row, col))
    grid.set(row, col, value)
    if formula is not None:
        grid.formulas.add((row, col))


def _shared(value: str, strings: list[str]) -> str:
    try:
        index = bounded_int(value)
    except (ValueError, NumberTooLong):
        index = -1
    if not 0 <= index < len(strings):
        raise DamagedCell(
            f"refers to shared string {value[:40]!r}, but the workbook's shared-strings "
            f"table has {len(strings)} entries")
    return strings[index]


def _read_validation(grid: Grid, el: ET.Element) -> None:
    """A classic ``<dataValidation sqref=..><formula1>`` or an x14 one (``<x14:formula1><xm:f>``
    and ``<xm:sqref>``); only list validations (drop-downs) are kept."""
    if el.get("type") != "list":
        return
    sqref = el.get("sqref") or ""
    formula = ""
    for child in el:
        name = local(child.tag)
        if name == "sqref":
            sqref = child.text or ""
        elif name == "formula1":
            formula = child.text or "".join(f.text or "" for f in child if local(f.tag) == "f")
    ranges = tuple(r for part in sqref.split() if (r := _range(part)) is not None)
    if ranges:
        grid.dropdowns.append(Dropdown(ranges, formula.strip()))


def _range(ref: str) -> tuple[int, int, int, int] | None:
    first, _, last = ref.replace("$", "").partition(":")
    try:
        r1, c1 = split_ref(first)
        r2, c2 = split_ref(last or first)
    except ValueError:
        return None
    return (min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))


def resolve_choices(grids: list[Grid]) -> None:
    """Fill each drop-down's choices: an inline list (``"Yes,No,NA"``) or a range on a sheet
    of this workbook (``Lists!$A$1:$A$3``, or the drop-down's own sheet)."""
    by_name = {g.name: g for g in grids}
    for grid in grids:
        resolved = []
        for d in grid.dropdowns:
            resolved.append(
                Dropdown(d.ranges, d.source, _choices(d.source, grid, by_name) or d.choices)
            )
        grid.dropdowns = resolved


def _choices(source: str, grid: Grid, by_name: dict[str, Grid]) -> tuple[str, ...]:
    if source.startswith('"') and source.endswith('"') and len(source) >= 2:
        return tuple(c.strip() for c in source[1:-1].split(",") if c.strip())
    sheet_name, bang, ref = source.rpartition("!")
    target = by_name.get(sheet_name.strip("'").replace("''", "'")) if bang else grid
    rng = _range(ref.lstrip("="))
    if target is None or rng is None:
        return ()
    r1, c1, r2, c2 = rng
    if (r2 - r1 + 1) * (c2 - c1 + 1) > 200:
        return ()
    return tuple(
        v for r in range(r1, r2 + 1) for c in range(c1, c2 + 1) if (v := target.get(r, c).strip())
    )


def _number(text: str) -> str:
    """A number as a person typed it: "1.1000000000000001" -> "1.1", "3.0" -> "3"."""
    try:
        number = float(text)
    except ValueError:
        return text
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return repr(float(f"{number:.15g}"))


def read_workbook(path: Path, display: str | None = None,
                  handle: IO[bytes] | None = None) -> list[Grid]:
    """All worksheets of the workbook at ``path`` (hidden ones too, flagged by ``state``).

    The one reader of workbooks, shared by ``answer`` and ``lint``: every refusal is a
    :class:`QuestionnaireError` naming ``display`` (default: the path). ``handle``: the
    file already opened, read instead of ``path`` (see :func:`safety.open_zip`)."""
    where = Path(display) if display else path  # what messages name
    with open_zip(path, display, handle) as zf:
        strings = shared_strings(where, zf)
        grids = [read_grid(where, zf, info, strings) for info in sheets(where, zf)]
    compute_uncached(grids)
    resolve_choices(grids)
    return grids
