"""What a workbook carries besides its cells, counted before and after answering.

The writer copies every package part it does not answer into and edits only
answered ``<c>`` elements, so the answered copy keeps the drop-downs (classic
and x14), formulas, sheet protection, hidden sheets and styles. This module
does not trust that: :func:`kept` counts them in the source and in the
answered copy, and a difference refuses the copy (it is still staged, so
nothing is written). The one line ``compliance answer`` prints says what was
kept, in those counts.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from xml.etree import ElementTree as ET

from compliance.questionnaire.safety import WorkbookZip, no_dtd, open_zip
from compliance.questionnaire.types import QuestionnaireError
from compliance.questionnaire.xlsx_read import local, sheets

_X14_MAIN = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"


@dataclass(frozen=True, slots=True)
class Carried:
    """Counts of what a workbook carries outside its cell values."""

    dropdowns: int = 0  # list data validations
    x14_dropdowns: int = 0  # of which in x14 extension lists
    validations: int = 0  # every data validation, lists included
    formulas: int = 0
    protected_sheets: int = 0
    hidden_sheets: int = 0
    styles_sha256: str = ""

    def line(self) -> str:
        """``kept: ...``, the counts a user can check against the source."""
        drops = _n(self.dropdowns, "drop-down")
        if self.x14_dropdowns:
            drops += f" ({self.x14_dropdowns} x14)"
        parts = [
            (self.dropdowns, drops),
            (
                self.validations - self.dropdowns,
                _n(self.validations - self.dropdowns, "other data validation"),
            ),
            (self.formulas, _n(self.formulas, "formula")),
            (self.protected_sheets, f"protection on {_n(self.protected_sheets, 'sheet')}"),
            (self.hidden_sheets, _n(self.hidden_sheets, "hidden sheet")),
        ]
        said = ", ".join(text for count, text in parts if count)
        return f"kept: {said + ' and ' if said else ''}every style; only answered cells changed"


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def carried(path: Path) -> Carried:
    """Count what the workbook at ``path`` carries (after the package safety checks)."""
    with open_zip(path) as zf:
        infos = sheets(path, zf)
        counts = dict.fromkeys(
            ("dropdowns", "x14_dropdowns", "validations", "formulas", "protected_sheets"), 0
        )
        for info in infos:
            _count_sheet(path, zf, info.part, counts)
        styles = _styles(zf)
    hidden = sum(1 for info in infos if info.state != "visible")
    return Carried(**counts, hidden_sheets=hidden, styles_sha256=styles)


def _count_sheet(path: Path, zf: WorkbookZip, part: str, counts: dict[str, int]) -> None:
    data = zf.read(part)
    no_dtd(path, part, data)
    try:
        for _event, el in ET.iterparse(BytesIO(data), events=("end",)):
            name = local(el.tag)
            if name == "dataValidation":
                counts["validations"] += 1
                if el.get("type") == "list":
                    counts["dropdowns"] += 1
                    counts["x14_dropdowns"] += el.tag.startswith("{" + _X14_MAIN)
                el.clear()
            elif name == "f" and el.tag.startswith("{http://schemas.openxmlformats.org"):
                counts["formulas"] += 1
            elif name == "sheetProtection" and el.get("sheet") in ("1", "true"):
                counts["protected_sheets"] += 1
            elif name == "row":
                el.clear()
    except ET.ParseError as exc:
        raise QuestionnaireError(f"{path}: part {part} is not well-formed XML ({exc})") from exc


def _styles(zf: WorkbookZip) -> str:
    digest = hashlib.sha256()
    for name in sorted(n for n in zf.namelist() if n.endswith("styles.xml")):
        digest.update(name.encode() + b"\0" + zf.read(name))
    return digest.hexdigest()


def kept(source: Path, answered: Path, display: Path) -> Carried:
    """Count in both; refuse (``QuestionnaireError`` naming ``display``) when they differ."""
    before, after = carried(source), carried(answered)
    if before != after:
        lost = [
            f"{field}: {getattr(before, field)} -> {getattr(after, field)}"
            for field in before.__dataclass_fields__
            if getattr(before, field) != getattr(after, field)
        ]
        raise QuestionnaireError(
            f"{display}: the answered copy would not keep what the questionnaire carries "
            f"({'; '.join(lost)}); nothing was written (this is a bug, please report it)"
        )
    return after
