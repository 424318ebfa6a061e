"""Write answer cells straight into a workbook's sheet XML, leaving every other byte alone.

openpyxl drops what it does not model (x14 data validations, some extension
lists, VBA signatures) when it saves, so we do not save through it. Instead:

- every zip part is copied in its original order with its original bytes,
  name, date, permissions and compression method; only the sheet parts that
  receive answers are rewritten;
- inside those parts only the answered ``<c>`` elements change: a cell that
  exists is replaced (keeping its ``s=`` style), a missing cell or row is
  inserted in order, with the row's or column's default style;
- cells are written as inline strings (``t="inlineStr"``), so sharedStrings
  stays untouched and nothing is ever a formula;
- a cell that already holds a value or a formula is never overwritten, and a
  cell hidden inside a merged range is never written; both are reported.
"""

from __future__ import annotations

import bisect
import re
import zipfile
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape

from compliance.questionnaire.safety import (
    MAX_CELL_CHARS,
    WorkbookZip,
    atomic_output,
    neutralise,
    open_zip,
    refuse_overwrite,
    xml_clean,
)
from compliance.questionnaire.types import CellRef, QuestionnaireError, column_letter
from compliance.questionnaire.xlsx_read import sheets, split_ref

_ATTR = r'\s{name}\s*=\s*(["\'])(.*?)\1'


_HAS_VALUE = re.compile(r">\s*[^<\s][^<]*<")


@cache
def _attr_re(name: str) -> re.Pattern[str]:
    return re.compile(_ATTR.format(name=name))


def _attr(tag: str, name: str) -> str | None:
    m = _attr_re(name).search(tag)
    return m.group(2) if m else None


class SheetPatcher:
    """Edits the cells of one sheet part's XML text."""

    def __init__(self, text: str) -> None:
        m = re.search(r"<(\w+:)?worksheet[\s>]", text)
        if not m:
            raise QuestionnaireError("not a worksheet part")
        self.p = p = m.group(1) or ""
        self.text = text
        self.row_re = re.compile(rf"<{p}row\b[^>]*?(/?)>")
        self.cell_re = re.compile(rf"<{p}c\b[^>]*?(/?)>")
        self.formula_re = re.compile(rf"<{p}f\b")
        merge_re = rf'<{self.p}mergeCell\s[^>]*ref=["\']([A-Z]+\d+):([A-Z]+\d+)'
        self.merged = [(*split_ref(a), *split_ref(b)) for a, b in re.findall(merge_re, text)]
        self.col_styles: list[tuple[int, int, str]] = []
        for tag in re.findall(rf"<{self.p}col\s[^>]*>", text):
            style, lo, hi = _attr(tag, "style"), _attr(tag, "min"), _attr(tag, "max")
            if style and lo and hi:
                self.col_styles.append((int(lo), int(hi), style))

    def hidden_by_merge(self, row: int, col: int) -> bool:
        for r1, c1, r2, c2 in self.merged:
            if r1 <= row <= r2 and c1 <= col <= c2 and (row, col) != (r1, c1):
                return True
        return False

    def _cell_xml(self, row: int, col: int, text: str, style: str | None) -> str:
        p = self.p
        s = f' s="{style}"' if style else ""
        body = escape(xml_clean(neutralise(text).replace("\r\n", "\n").replace("\r", "\n")))
        return (
            f'<{p}c r="{column_letter(col)}{row}"{s} t="inlineStr"><{p}is>'
            f'<{p}t xml:space="preserve">{body}</{p}t></{p}is></{p}c>'
        )

    def _col_style(self, col: int) -> str | None:
        for lo, hi, style in self.col_styles:
            if lo <= col <= hi:
                return style
        return None

    def patch(self, edits: dict[tuple[int, int], str]) -> tuple[str, dict[tuple[int, int], str]]:
        """Apply ``edits[(row, col)] = text``; returns the new XML and the refused cells."""
        p = self.p
        refused: dict[tuple[int, int], str] = {}
        text = self.text
        m = re.search(rf"<{p}sheetData(\s[^>]*)?/>", text)
        if m:
            text = text[: m.start()] + f"<{p}sheetData></{p}sheetData>" + text[m.end() :]
        open_m = re.search(rf"<{p}sheetData(\s[^>]*)?>", text)
        close_at = text.find(f"</{p}sheetData>")
        if not open_m or close_at < 0:
            raise QuestionnaireError("worksheet has no sheetData")
        body_start = open_m.end()
        rows = self._rows(text, body_start, close_at)
        row_at = {r[0]: r for r in rows}
        numbers = [r[0] for r in rows]
        by_row: dict[int, dict[int, str]] = {}
        for (row, col), value in edits.items():
            if self.hidden_by_merge(row, col):
                refused[(row, col)] = "cell lies inside a merged range; not visible"
            elif len(value) > MAX_CELL_CHARS:
                refused[(row, col)] = f"answer longer than {MAX_CELL_CHARS} characters"
            else:
                by_row.setdefault(row, {})[col] = value
        pieces: list[tuple[int, int, str]] = []  # (start, end, replacement)
        for row, cells in sorted(by_row.items()):
            found = row_at.get(row)
            if found is None:
                idx = bisect.bisect_right(numbers, row)  # rows are in ascending order (OOXML)
                at = rows[idx][1] if idx < len(rows) else close_at
                new_cells = "".join(
                    self._cell_xml(row, c, v, self._col_style(c)) for c, v in sorted(cells.items())
                )
                pieces.append((at, at, f'<{p}row r="{row}">{new_cells}</{p}row>'))
                continue
            _, start, end, tag_end, self_closing = found
            row_tag = text[start:tag_end]
            custom = _attr(row_tag, "customFormat") in ("1", "true")
            row_style = _attr(row_tag, "s") if custom else None
            if self_closing:
                new_cells = "".join(
                    self._cell_xml(row, c, v, row_style or self._col_style(c))
                    for c, v in sorted(cells.items())
                )
                pieces.append((start, end, row_tag[:-2].rstrip() + f">{new_cells}</{p}row>"))
                continue
            pieces.extend(self._patch_row(text, row, tag_end, end, cells, row_style, refused))
        out: list[str] = []
        pos = 0
        for start, end, new in sorted(pieces, key=lambda x: (x[0], x[1])):
            out.append(text[pos:start])
            out.append(new)
            pos = end
        out.append(text[pos:])
        return "".join(out), refused

    def _rows(self, text: str, start: int, stop: int) -> list[tuple[int, int, int, int, bool]]:
        """(row number, start, end, end of open tag, self-closing) for each <row> in sheetData."""
        p = self.p
        out = []
        implied = 0
        pos = start
        while True:
            m = self.row_re.search(text, pos, stop)
            if not m:
                break
            r = _attr(m.group(0), "r")
            number = int(r) if r else implied + 1
            implied = number
            if m.group(1):
                out.append((number, m.start(), m.end(), m.end(), True))
                pos = m.end()
            else:
                end = text.find(f"</{p}row>", m.end(), stop)
                if end < 0:
                    raise QuestionnaireError("unterminated <row>")
                end += len(f"</{p}row>")
                out.append((number, m.start(), end, m.end(), False))
                pos = end
        return out

    def _patch_row(
        self,
        text: str,
        row: int,
        start: int,
        end: int,
        cells: dict[int, str],
        row_style: str | None,
        refused: dict[tuple[int, int], str],
    ) -> list[tuple[int, int, str]]:
        p = self.p
        close = end - len(f"</{p}row>")
        existing: list[tuple[int, int, int, str, str]] = []  # col, start, end, tag, content
        pos, implied = start, 0
        while True:
            m = self.cell_re.search(text, pos, close)
            if not m:
                break
            ref = _attr(m.group(0), "r")
            col = split_ref(ref)[1] if ref else implied + 1
            implied = col
            if m.group(1):
                existing.append((col, m.start(), m.end(), m.group(0), ""))
                pos = m.end()
            else:
                c_end = text.find(f"</{p}c>", m.end(), close)
                if c_end < 0:
                    raise QuestionnaireError(f"unterminated cell in row {row}")
                c_end += len(f"</{p}c>")
                existing.append((col, m.start(), c_end, m.group(0), text[m.end() : c_end]))
                pos = c_end
        pieces = []
        for col, value in sorted(cells.items()):
            hit = next((e for e in existing if e[0] == col), None)
            if hit is not None:
                _, c_start, c_end, tag, content = hit
                if self.formula_re.search(content):
                    refused[(row, col)] = "cell holds a formula; not overwritten"
                elif _HAS_VALUE.search(content):
                    refused[(row, col)] = "cell already has a value; not overwritten"
                else:
                    pieces.append(
                        (c_start, c_end, self._cell_xml(row, col, value, _attr(tag, "s")))
                    )
                continue
            after = next((e for e in existing if e[0] > col), None)
            at = after[1] if after else close
            pieces.append(
                (at, at, self._cell_xml(row, col, value, row_style or self._col_style(col)))
            )
        return pieces


def write_xlsx(
    src: Path, cells: dict[CellRef, str], out_path: Path, owner: dict[CellRef, str] | None = None
) -> dict[CellRef, str]:
    """Copy the workbook at ``src`` to ``out_path`` with ``cells`` written; returns refused cells
    with the reason. Parts are copied in order, byte for byte, except the sheets written to.

    ``owner`` groups cells (by question): when one cell of a group is refused, none of the
    group is written, so a question is never half answered."""
    refuse_overwrite(src, out_path)
    with open_zip(src) as zf:
        part_of = {s.name: s.part for s in sheets(src, zf)}
        for ref in cells:
            if ref.sheet not in part_of:
                raise QuestionnaireError(f"{src}: no sheet named {ref.sheet!r}")
        texts = {part: _sheet_text(src, zf, part) for part in {part_of[r.sheet] for r in cells}}
        patched, refused = _patch_all(src, texts, part_of, cells)
        if refused and owner:  # drop the rest of each refused question, then patch again
            blocked = {owner[r] for r in refused}
            kept = {r: v for r, v in cells.items() if owner[r] not in blocked}
            if len(kept) + len(refused) < len(cells):
                patched, late = _patch_all(src, texts, part_of, kept)
                refused.update(late)
        with atomic_output(out_path) as handle, zipfile.ZipFile(handle, "w") as out:
            for info in zf.infolist():
                clone = zipfile.ZipInfo(info.filename, info.date_time)
                clone.compress_type = info.compress_type
                clone.external_attr = info.external_attr
                clone.create_system = info.create_system
                clone.comment = info.comment
                out.writestr(clone, patched.get(info.filename) or zf.read(info))
            out.comment = zf.comment
    return refused


def _sheet_text(src: Path, zf: WorkbookZip, part: str) -> str:
    try:
        return zf.read(part).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise QuestionnaireError(f"{src}: {part} is not UTF-8 XML; cannot write") from exc


def _patch_all(
    src: Path, texts: dict[str, str], part_of: dict[str, str], cells: dict[CellRef, str]
) -> tuple[dict[str, bytes], dict[CellRef, str]]:
    by_part: dict[str, dict[tuple[int, int], str]] = {}
    names: dict[str, str] = {}
    for ref, value in cells.items():
        by_part.setdefault(part_of[ref.sheet], {})[(ref.row, ref.column)] = value
        names[part_of[ref.sheet]] = ref.sheet
    patched: dict[str, bytes] = {}
    refused: dict[CellRef, str] = {}
    for part, edits in by_part.items():
        try:
            new, bad = SheetPatcher(texts[part]).patch(edits)
        except QuestionnaireError as exc:
            raise QuestionnaireError(f"{src}: {part}: {exc}") from exc
        patched[part] = new.encode("utf-8")
        for (row, col), reason in bad.items():
            refused[CellRef(names[part], row, col)] = reason
    return patched, refused
