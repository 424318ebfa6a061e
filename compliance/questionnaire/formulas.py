"""Formula cells a workbook saved no value for: compute the simple ones, name the rest.

A spreadsheet program saves each formula's result next to it; a workbook written by a
library that computes nothing (openpyxl, some exporters) holds the formula alone. The
reader takes a formula's saved value as the cell's text, so such a cell would read as
empty and a question written as ``=Data!B5`` would vanish. Two shapes that questionnaire
templates use to pull question text from a (hidden) sheet are computed here, exactly as a
spreadsheet program would and only within this workbook:

- a reference to one cell: ``=Data!B5``, ``='Question bank'!$B$5``, ``=B5``;
- an exact-match lookup: ``=VLOOKUP(A5,Data!A:B,2,FALSE)`` (or ``0``), whose key is a
  cell reference or a quoted text without wildcards (``*``, ``?``, ``~``).

A referenced cell that is itself such a formula is computed the same way, through at
most :data:`MAX_DEPTH` formulas; at most :data:`MAX_TABLES` lookup ranges are read.
Anything else (another function, a defined name, another workbook, an approximate
lookup, a key that is not found, a result that is empty) stays uncomputed: the cell is
listed in ``Grid.uncached`` and the question on its row is left for a human with
:func:`no_value_reason`, never read as a section heading.
"""

from __future__ import annotations

import re
from pathlib import Path

from compliance.questionnaire.grid import Grid
from compliance.questionnaire.types import Question, column_index, column_letter

#: How many formulas deep a reference may lead (=A1 -> =Data!B1 -> ...) before it is left.
MAX_DEPTH = 8
#: How many distinct lookup ranges are indexed (each is read once, row by row).
MAX_TABLES = 64
_SHEET = r"(?:(?P<{n}sheet>'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?"
_CELL = r"\$?(?P<{n}col>[A-Za-z]{{1,3}})\$?(?P<{n}row>\d{{1,7}})"
_REF = _SHEET + _CELL
_RANGE = (
    _SHEET + r"\$?(?P<{n}c1>[A-Za-z]{{1,3}})(?:\$?(?P<{n}r1>\d{{1,7}}))?"
    r":\$?(?P<{n}c2>[A-Za-z]{{1,3}})(?:\$?(?P<{n}r2>\d{{1,7}}))?"
)
_DIRECT = re.compile(_REF.format(n=""))
_VLOOKUP = re.compile(
    r"VLOOKUP\(\s*(?:"
    + _REF.format(n="k")
    + r'|"(?P<text>(?:[^"]|"")*)")\s*,\s*'
    + _RANGE.format(n="t")
    + r"\s*,\s*(?P<index>\d{1,5})\s*,\s*(?:FALSE|0)\s*\)",
    re.IGNORECASE,
)
_WILDCARDS = frozenset("*?~")
_MAX_ROW = 1_048_576

Cell = tuple[str, int, int]  # sheet name, row, column


def no_value_reason(sheet: str, row: int, column: int, formula: str) -> str:
    """Why a question whose text is an uncomputed formula is left for a human."""
    shown = formula if len(formula) <= 80 else formula[:77] + "..."
    what = f"={shown}" if shown else "a formula shared with a cell above it"
    return (
        f"sheet {sheet!r} cell {column_letter(column)}{row}: question text is a formula with "
        f"no saved value ({what}); open and save the workbook in a spreadsheet application "
        "to compute it"
    )


def compute_uncached(grids: list[Grid]) -> None:
    """Give each formula cell with no saved value the value of a simple reference or
    exact-match VLOOKUP into this workbook (recorded in ``Grid.computed``); the rest stay
    in ``Grid.uncached``."""
    by_name = {g.name: g for g in grids}
    resolver = _Resolver(by_name)
    for grid in grids:
        for (row, col), formula in sorted(grid.uncached.items()):
            value = resolver.value(grid, row, col, 0)
            if value:
                grid.set(row, col, value)
                grid.computed[(row, col)] = formula
    for grid in grids:
        for cell in grid.computed:
            grid.uncached.pop(cell, None)


class _Resolver:
    def __init__(self, by_name: dict[str, Grid]) -> None:
        self.by_name = by_name
        self.done: dict[Cell, str | None] = {}
        self.busy: set[Cell] = set()
        self.cut = 0  # how often MAX_DEPTH stopped a chain
        # (sheet, key column, first row, last row) -> first row holding each key
        self.indexes: dict[tuple[str, int, int, int], dict[tuple[bool, str], int]] = {}

    def value(self, grid: Grid, row: int, col: int, depth: int) -> str | None:
        """The cell's text; for an uncached formula, its computed value or None."""
        formula = grid.uncached.get((row, col))
        if formula is None:
            return grid.get(row, col)
        cell = (grid.name, row, col)
        if cell in self.done:
            return self.done[cell]
        if depth >= MAX_DEPTH:
            self.cut += 1
            return None
        if cell in self.busy:  # a cycle never computes
            return None
        self.busy.add(cell)
        cut = self.cut
        try:
            found = self._evaluate(grid, formula.strip().removeprefix("="), depth + 1) or None
        finally:
            self.busy.discard(cell)
        if found is not None or cut == self.cut:  # cut short: it may compute from nearer
            self.done[cell] = found
        return found

    def _sheet(self, grid: Grid, quoted: str | None) -> Grid | None:
        if quoted is None:
            return grid
        name = quoted[1:-1].replace("''", "'") if quoted.startswith("'") else quoted
        return self.by_name.get(name)

    def _evaluate(self, grid: Grid, formula: str, depth: int) -> str | None:
        m = _DIRECT.fullmatch(formula)
        if m:
            target = self._sheet(grid, m["sheet"])
            row, col = int(m["row"]), column_index(m["col"])
            return self.value(target, row, col, depth) if target else None
        m = _VLOOKUP.fullmatch(formula)
        if m:
            return self._vlookup(grid, m, depth)
        return None

    def _vlookup(self, grid: Grid, m: re.Match[str], depth: int) -> str | None:
        if m["text"] is not None:
            key: tuple[bool, str] | None = (False, m["text"].replace('""', '"'))
        else:
            source = self._sheet(grid, m["ksheet"])
            key = None
            if source is not None:
                row, col = int(m["krow"]), column_index(m["kcol"])
                text = self.value(source, row, col, depth)
                key = (self._number(source, row, col), text) if text else None
        table = self._sheet(grid, m["tsheet"])
        if key is None or table is None or _WILDCARDS & set(key[1]):
            return None  # Excel reads * ? ~ in an exact-match key as wildcards
        c1, c2 = sorted((column_index(m["tc1"]), column_index(m["tc2"])))
        r1 = int(m["tr1"] or 1)
        r2 = int(m["tr2"] or _MAX_ROW)
        index = int(m["index"])
        if not 1 <= index <= c2 - c1 + 1:
            return None
        hit = self._index(table, c1, min(r1, r2), max(r1, r2), depth).get(_fold(key))
        return None if hit is None else self.value(table, hit, c1 + index - 1, depth)

    def _index(
        self, table: Grid, col: int, r1: int, r2: int, depth: int
    ) -> dict[tuple[bool, str], int]:
        """First row of each key in one column of a lookup range (built once per range)."""
        ident = (table.name, col, r1, r2)
        if ident not in self.indexes and len(self.indexes) >= MAX_TABLES:
            return {}  # a workbook of thousands of lookup ranges: left uncomputed
        if ident not in self.indexes:
            keys: dict[tuple[bool, str], int] = {}
            for row in table.rows():
                if r1 <= row <= r2:
                    text = self.value(table, row, col, depth)
                    if text:
                        keys.setdefault(_fold((self._number(table, row, col), text)), row)
            self.indexes[ident] = keys
        return self.indexes[ident]

    @staticmethod
    def _number(grid: Grid, row: int, col: int) -> bool:
        return (row, col) in grid.numbers


def _fold(key: tuple[bool, str]) -> tuple[bool, str]:
    """Exact-match lookups ignore case and tell a number from text that looks like one."""
    return key[0], key[1].casefold()


def formula_notes(path: Path, grid: Grid, column: int | None, found: list[Question]) -> list[str]:
    """What a reader of the review must know about the question cells of one sheet that
    hold formulas with no saved value: those computed here, and those left for a human."""
    if column is None:
        return []
    rows = {q.row for q in found}
    computed = [
        f"{column_letter(column)}{r}" for r, c in sorted(grid.computed) if c == column and r in rows
    ]
    unread = [f"{column_letter(column)}{q.row}" for q in found if q.unreadable]
    out = []
    if computed:
        out.append(
            f"{path}: sheet {grid.name!r}: the workbook saved no value for the question text "
            f"in {_cells(computed)}; the tool computed {'it' if len(computed) == 1 else 'them'} "
            "from references into this workbook (check them against the workbook, or open and "
            "save it in a spreadsheet application)"
        )
    if unread:
        out.append(
            f"{path}: sheet {grid.name!r}: question text is a formula with no saved value in "
            f"{_cells(unread)}; open and save the workbook in a spreadsheet application to "
            f"compute {'it' if len(unread) == 1 else 'them'} (left for a human)"
        )
    return out


def _cells(cells: list[str]) -> str:
    shown = ", ".join(cells[:10])
    more = f" and {len(cells) - 10} more" if len(cells) > 10 else ""
    return f"{'cell' if len(cells) == 1 else 'cells'} {shown}{more}"
