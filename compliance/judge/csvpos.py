"""A CSV reader that remembers where every character of every cell came from.

Python's csv module gives values, not offsets; a finding inside an answer
cell must point at its line and column in the file, including cells quoted
over several lines and doubled quotes (RFC 4180).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Cell:
    """A cell's value and, for each of its characters, the offset in the source text."""

    value: str = ""
    offsets: list[int] = field(default_factory=list)
    start: int = 0


def csv_cells(text: str, delimiter: str | None = None) -> list[list[Cell]]:
    """Parse ``text`` as CSV (comma, or tab when the first line has tabs and no commas)."""
    if delimiter is None:
        first = text.split("\n", 1)[0]
        delimiter = "\t" if "\t" in first and "," not in first else ","
    rows: list[list[Cell]] = []
    row: list[Cell] = []
    cell = Cell(start=0)
    i, n, quoted = 0, len(text), False
    chars: list[str] = []
    while i < n:
        ch = text[i]
        if quoted:
            if ch == '"':
                if i + 1 < n and text[i + 1] == '"':
                    chars.append('"')
                    cell.offsets.append(i)
                    i += 2
                    continue
                quoted = False
            else:
                chars.append(ch)
                cell.offsets.append(i)
            i += 1
            continue
        if ch == '"' and not chars:
            quoted = True
        elif ch == delimiter:
            cell.value = "".join(chars)
            row.append(cell)
            cell, chars = Cell(start=i + 1), []
        elif ch in "\r\n":
            if ch == "\r" and i + 1 < n and text[i + 1] == "\n":
                i += 1
            cell.value = "".join(chars)
            row.append(cell)
            rows.append(row)
            row, cell, chars = [], Cell(start=i + 1), []
        else:
            chars.append(ch)
            cell.offsets.append(i)
        i += 1
    if chars or row:
        cell.value = "".join(chars)
        row.append(cell)
        rows.append(row)
    for r in rows:
        for c in r:
            c.offsets.append(c.offsets[-1] + 1 if c.offsets else c.start)
    return rows
