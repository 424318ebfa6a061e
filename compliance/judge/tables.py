"""Pipe tables read the way a person reads them: each cell under its column header.

"| Layer | Technology | Escape risk |" over "| Compute | Firecracker | None |"
says "escape risk: none" about the compute layer, although no sentence of the
text says so. :func:`cell_readings` turns every cell of a table body (past the
row's label cell) into a short text that reads the cell with its row label and
column header: "Layer Compute Escape risk: None", or, under a header that asks
("Bypassable?"), a question and the cell as its answer. The judge reads those
texts too and reports what they claim at the cell itself.

A table is a run of at least two lines that start with ``|`` (after blanks);
its first line is the header and a delimiter line (``|---|``) is skipped.
Escaped pipes (``\\|``) do not split cells.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ROW = re.compile(r"^[ \t]*\|.*$", re.MULTILINE)
_DELIMITER = re.compile(r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*(?::?-+:?[ \t]*)?")
_CELL = re.compile(r"(?:\\.|[^|\\])+")


@dataclass(frozen=True)
class Cell:
    """A cell's stripped text and its offsets in the original text."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Reading:
    """A body cell read with its row label and column header.

    ``question`` is set when the header asks (the cell answers it); otherwise
    ``text`` is the whole reading and ``value_at`` where the cell's words start in it.
    """

    text: str
    question: str | None
    value_at: int
    cell: Cell
    #: offsets of the row's first cell start and last cell end
    row: tuple[int, int]


def _cells(line: str, base: int) -> list[Cell]:
    body_start = line.index("|") + 1
    body = line[body_start:]
    stop = len(body.rstrip())
    if body[:stop].endswith("|") and not body[:stop].endswith("\\|"):
        stop -= 1
    out = []
    for m in _CELL.finditer(body, 0, stop):
        raw = m.group(0)
        lead = len(raw) - len(raw.lstrip())
        words = raw.strip()
        at = base + body_start + m.start() + lead
        out.append(Cell(words, at, at + len(words)))
    return out


def tables(text: str) -> list[list[list[Cell]]]:
    """Every pipe table in ``text``: rows of cells, header first, delimiter rows left out."""
    found: list[list[list[Cell]]] = []
    current: list[list[Cell]] = []
    last_end = -2
    for m in _ROW.finditer(text):
        if m.start() != last_end + 1:  # not the line right after the previous row
            if len(current) >= 2:
                found.append(current)
            current = []
        last_end = m.end()
        if _DELIMITER.fullmatch(m.group(0)):
            continue
        current.append(_cells(m.group(0), m.start()))
    if len(current) >= 2:
        found.append(current)
    return found


def cell_readings(text: str) -> list[Reading]:
    """Each body cell after the first, read with its row label and column header."""
    if "|" not in text:
        return []
    out: list[Reading] = []
    for rows in tables(text):
        header, body = rows[0], rows[1:]
        corner = header[0].text if header else ""
        for row in body:
            if len(row) < 2 or not row[0].text:
                continue
            label = f"{corner} {row[0].text}".strip()
            span = (row[0].start, row[-1].end)
            for j, cell in enumerate(row[1:], start=1):
                column = header[j].text if j < len(header) else ""
                if not column or not cell.text:
                    continue
                if column.endswith("?"):
                    out.append(Reading(cell.text, f"{label} {column}", 0, cell, span))
                else:
                    lead = f"{label} {column}: "
                    out.append(Reading(lead + cell.text, None, len(lead), cell, span))
    return out
