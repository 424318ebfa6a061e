"""A sheet as a sparse grid of text: the shape detection works on, for XLSX and CSV alike."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Dropdown:
    """A list data validation (classic or x14): the cells it covers and its choices.

    ``ranges`` are (first row, first column, last row, last column), 1-based;
    ``choices`` is empty when the list comes from somewhere we do not resolve
    (a defined name, another workbook)."""

    ranges: tuple[tuple[int, int, int, int], ...]
    source: str
    choices: tuple[str, ...] = ()

    def covers(self, row: int, column: int) -> bool:
        return any(r1 <= row <= r2 and c1 <= column <= c2 for r1, c1, r2, c2 in self.ranges)


@dataclass(slots=True)
class Grid:
    """Cell text by (row, column), 1-based. ``formulas`` holds every formula cell (its text is
    the formula's saved result); ``uncached`` the formula cells the workbook saved no result
    for and the tool did not compute (cell -> formula), ``computed`` those it computed
    (:mod:`formulas`); ``numbers`` the cells holding a number; ``part`` is the sheet's XML
    part in a workbook package (None for CSV)."""

    name: str
    cells: dict[int, dict[int, str]] = field(default_factory=dict)
    formulas: set[tuple[int, int]] = field(default_factory=set)
    uncached: dict[tuple[int, int], str] = field(default_factory=dict)
    computed: dict[tuple[int, int], str] = field(default_factory=dict)
    numbers: set[tuple[int, int]] = field(default_factory=set)
    part: str | None = None
    state: str = "visible"
    dropdowns: list[Dropdown] = field(default_factory=list)

    def get(self, row: int, column: int) -> str:
        return self.cells.get(row, {}).get(column, "")

    def set(self, row: int, column: int, text: str) -> None:
        if text != "":
            self.cells.setdefault(row, {})[column] = text

    @property
    def max_row(self) -> int:
        return max(self.cells, default=0)

    @property
    def max_column(self) -> int:
        return max((max(r) for r in self.cells.values() if r), default=0)

    def rows(self) -> list[int]:
        return sorted(self.cells)

    def dropdown_at(self, row: int, column: int) -> Dropdown | None:
        return next((d for d in self.dropdowns if d.covers(row, column)), None)
