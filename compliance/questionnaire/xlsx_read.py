"""Read an XLSX/XLSM package into grids of cell text, without running or rewriting anything.

We read the parts ourselves with the standard library (after the zip-bomb and
DTD checks in :mod:`safety`) rather than through openpyxl: the writer has to
know the exact part of each sheet, which cells exist and which hold formulas,
and one pass over the XML gives all of that faster than building an openpyxl
workbook. Formula cells contribute their cached value (the text a spreadsheet
program last computed), so a question written as ``=Sheet2!B4`` still reads.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from xml.etree import ElementTree as ET

from compliance.questionnaire.grid import Dropdown, Grid
from compliance.questionnaire.safety import no_dtd, open_zip, parse_xml, read_part
from compliance.questionnaire.types import QuestionnaireError, column_index

_OFFICE_DOC = "/officeDocument"
_CELL_REF = re.compile(r"([A-Z]{1,3})(\d+)$")


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


def _relationships(path: Path, zf: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    rels_part = _rels_part(part)
    if rels_part not in zf.NameToInfo:
        return {}
    root = parse_xml(path, rels_part, read_part(path, zf, rels_part))
    out: dict[str, tuple[str, str]] = {}
    for rel in root:
        rid, kind, target = rel.get("Id"), rel.get("Type", ""), rel.get("Target", "")
        if rid and rel.get("TargetMode") != "External":
            out[rid] = (kind, _resolve(part, target))
    return out


def workbook_part(path: Path, zf: zipfile.ZipFile) -> str:
    for kind, target in _relationships(path, zf, "").values():
        if kind.endswith(_OFFICE_DOC):
            return target
    if "xl/workbook.xml" in zf.namelist():
        return "xl/workbook.xml"
    raise QuestionnaireError(f"{path}: no workbook part found; is this an XLSX/XLSM file?")


def sheets(path: Path, zf: zipfile.ZipFile) -> list[SheetInfo]:
    """Worksheets in workbook order, with their part and state (visible/hidden/veryHidden)."""
    wb_part = workbook_part(path, zf)
    rels = _relationships(path, zf, wb_part)
    root = parse_xml(path, wb_part, read_part(path, zf, wb_part, _rels_part("")))
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


def shared_strings(path: Path, zf: zipfile.ZipFile) -> list[str]:
    wb_part = workbook_part(path, zf)
    for kind, target in _relationships(path, zf, wb_part).values():
        if kind.endswith("/sharedStrings"):
            root = parse_xml(path, target, read_part(path, zf, target, _rels_part(wb_part)))
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
        raise ValueError(ref)
    return int(m.group(2)), column_index(m.group(1))


def read_grid(path: Path, zf: zipfile.ZipFile, info: SheetInfo, strings: list[str]) -> Grid:
    data = read_part(path, zf, info.part, "the workbook's relationships")
    no_dtd(path, info.part, data)
    grid = Grid(info.name, part=info.part, state=info.state)
    row_no = 0
    col = 0
    try:
        for event, el in ET.iterparse(BytesIO(data), events=("start", "end")):
            name = local(el.tag)
            if event == "start":
                if name == "row":
                    row_no = int(el.get("r") or row_no + 1)
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
                _read_cell(grid, el, row_no, col, strings)
                el.clear()
            elif name == "row":
                el.clear()
    except (ET.ParseError, ValueError, IndexError) as exc:
        raise QuestionnaireError(f"{path}: sheet {info.name!r} cannot be read ({exc})") from exc
    return grid


def _read_cell(grid: Grid, el: ET.Element, row: int, col: int, strings: list[str]) -> None:
    kind = el.get("t", "n")
    value: str | None = None
    formula = False
    for child in el:
        name = local(child.tag)
        if name == "v":
            value = child.text or ""
        elif name == "is":
            value = _text_of(child)
        elif name == "f":
            formula = True
    if value is None:
        return
    if kind == "s":
        value = strings[int(value)]
    elif kind == "b":
        value = "TRUE" if value == "1" else "FALSE"
    elif kind == "n":
        value = _number(value)
    grid.set(row, col, value)
    if formula:
        grid.formulas.add((row, col))


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


def read_workbook(path: Path) -> list[Grid]:
    """All worksheets of the workbook at ``path`` (hidden ones too, flagged by ``state``)."""
    with open_zip(path) as zf:
        strings = shared_strings(path, zf)
        grids = [read_grid(path, zf, info, strings) for info in sheets(path, zf)]
    resolve_choices(grids)
    return grids
