"""A sheet as a sparse grid of text: the shape detection works on, for XLSX and CSV alike."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Grid:
    """Cell text by (row, column), 1-based. ``formulas`` holds cells whose value is a formula's
    cached result; ``part`` is the sheet's XML part in a workbook package (None for CSV)."""

    name: str
    cells: dict[int, dict[int, str]] = field(default_factory=dict)
    formulas: set[tuple[int, int]] = field(default_factory=set)
    part: str | None = None
    state: str = "visible"

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
