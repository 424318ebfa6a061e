"""The one finding type every stage produces and every output format prints.

A :class:`Diagnostic` is a positioned message: file, 1-based line and column,
optional end, a stable rule code and name, a level and a message. Loaders,
rules, adapters and waivers all speak it, so output formats stay small
functions over a list of diagnostics.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace


class Level(enum.StrEnum):
    """How serious a finding is. Errors fail `check`; warnings fail it with --strict."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True, slots=True)
class Position:
    """A place in a file: 1-based line and column, optional 1-based end."""

    path: str
    line: int = 1
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding at one position.

    ``code`` is stable forever (e.g. ``CLM001``); ``name`` names the flagged
    pattern (e.g. ``absolute-safety-claim``) so that waiving it reads right.
    ``related`` holds other positions worth showing (e.g. the evidence line
    that refutes a claim).
    """

    path: str
    line: int
    column: int
    code: str
    name: str
    level: Level
    message: str
    end_line: int | None = None
    end_column: int | None = None
    related: tuple[Position, ...] = field(default=())
    waived_by: str | None = None

    @classmethod
    def at(
        cls,
        pos: Position,
        code: str,
        name: str,
        level: Level,
        message: str,
        related: tuple[Position, ...] = (),
    ) -> Diagnostic:
        return cls(
            path=pos.path,
            line=pos.line,
            column=pos.column,
            end_line=pos.end_line,
            end_column=pos.end_column,
            code=code,
            name=name,
            level=level,
            message=message,
            related=related,
        )

    @property
    def position(self) -> Position:
        return Position(self.path, self.line, self.column, self.end_line, self.end_column)

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.line, self.column, self.code, self.message)

    def waived(self, by: str) -> Diagnostic:
        return replace(self, waived_by=by)


def sort_unique(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> list[Diagnostic]:
    """Sort by position and drop exact duplicates (the same finding reached twice)."""
    seen: set[tuple[object, ...]] = set()
    out: list[Diagnostic] = []
    for d in sorted(diagnostics, key=Diagnostic.sort_key):
        key = (d.path, d.line, d.column, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def has_failures(diagnostics: list[Diagnostic], strict: bool = False) -> bool:
    """True when the findings should fail the run (errors; warnings too when strict)."""
    active = [d for d in diagnostics if d.waived_by is None]
    if any(d.level is Level.ERROR for d in active):
        return True
    return strict and any(d.level is Level.WARNING for d in active)


class UserError(Exception):
    """Input that cannot be read at all (exit 2). Carries diagnostics when positioned."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.diagnostics = diagnostics or []
