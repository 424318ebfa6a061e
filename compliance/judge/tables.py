"""Pipe tables read the way a person reads them: each cell under its column header.

"| Layer | Technology | Escape risk |" over "| Compute | Firecracker | None |"
says "escape risk: none" about the compute layer, although no sentence of the
text says so. :func:`cell_readings` turns every cell of a table body (past the
row's label cell) into a short text that reads the cell with its row label and
column header (short cells only: a verdict of up to :data:`MAX_VERDICT_WORDS`
words): "Layer Compute Escape risk: None", or, under a header that asks
("Bypassable?"), a question and the cell as its answer. The judge reads those
texts too and reports what they claim at the cell itself.

A cell under a header that frames its column as conditions or examples ("the
claim is REFUTED when", "Banned wording", "Example") states nothing, and
:func:`framed_cells` names those cells so the judge leaves them alone.

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
#: Only a short cell is a verdict that needs its header to mean anything ("None",
#: "Not possible", "Cannot be altered"); a longer one is prose and says what it says.
MAX_VERDICT_WORDS = 5


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
                if not column or not cell.text or len(cell.text.split()) > MAX_VERDICT_WORDS:
                    continue  # a longer cell is prose of its own, judged as it stands
                if column.endswith("?"):
                    out.append(Reading(cell.text, f"{label} {column}", 0, cell, span))
                else:
                    lead = f"{label} {column}: "
                    out.append(Reading(lead + cell.text, None, len(lead), cell, span))
    return out


#: A column header that makes its cells conditions or examples, not statements:
#: "the claim is REFUTED when", "flagged if", "for example".
_FRAMING_HEADER = re.compile(
    r"\b(?:when|whenever|if|unless|e\.g\.?|for example|such as|examples?|wording|"
    r"phrasing|overclaims?)\W*$",
    re.IGNORECASE)


def framed_cells(text: str) -> list[tuple[Cell, str]]:
    """Body cells under a header that frames them as conditions or examples, each with
    that header: "| the claim is REFUTED when |" over "| no source requires review |"
    states no fact, nor does a cell under "| Banned wording |"."""
    if "|" not in text:
        return []
    out: list[tuple[Cell, str]] = []
    for rows in tables(text):
        header = rows[0]
        for row in rows[1:]:
            for j, cell in enumerate(row):
                if j < len(header) and cell.text and _FRAMING_HEADER.search(header[j].text):
                    out.append((cell, header[j].text))
    return out
