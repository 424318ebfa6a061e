"""What a rule sees: the loaded model, where everything is, today's date, file hashes."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from compliance.diagnostics import Position
from compliance.paths import OutsideFolder

if TYPE_CHECKING:  # rules import this module; listing them must not import the models
    from compliance.load.workspace import Workspace
    from compliance.model import Model

T = TypeVar("T")


@dataclass
class CheckContext:
    """Input to every rule. Built once per run; rules never load or render."""

    workspace: Workspace
    model: Model
    today: dt.date
    rule_names: dict[str, str] = field(default_factory=dict)  # code or name -> code
    #: Per-run memo for work several rules share (parsed evidence, verdicts); see :meth:`memo`.
    cache: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    _hashes: dict[str, str | None] = field(default_factory=dict)

    def memo(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        """``compute()`` once per run for ``key``; rules share results, never recompute."""
        if key not in self.cache:
            self.cache[key] = compute()
        return self.cache[key]  # type: ignore[no-any-return]

    @property
    def root(self) -> Path:
        return self.workspace.root

    def pos(self, section: str, item_id: str, *sub: str | int, key: bool = False) -> Position:
        """Position of an item (or one of its fields) in the YAML model."""
        located = self.workspace.where(section, item_id)
        if located is None:
            return Position("controls", 1, 1)
        return located.pos(*sub, key=key)

    def evidence_sha256(self, relative: str) -> str | None:
        """sha256 of the evidence file at ``evidence/relative``, computed once per run and
        read through ``Workspace.open_evidence`` (re-checked inside the workspace at this
        moment); None when it cannot be read (outside, missing, not a regular file)."""
        if relative not in self._hashes:
            try:
                h = hashlib.sha256()
                with self.workspace.open_evidence(relative) as fh:
                    for chunk in iter(lambda: fh.read(1 << 20), b""):
                        h.update(chunk)
                self._hashes[relative] = h.hexdigest()
            except (OSError, OutsideFolder):
                self._hashes[relative] = None
        return self._hashes[relative]
