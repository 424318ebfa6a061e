"""The pipeline, top to bottom: load -> check -> (render, in the build and answer commands).

Commands call :func:`load_and_check`; renderers receive its result and never
re-validate.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from compliance.check.engine import CheckResult, run_checks
from compliance.diagnostics import has_failures
from compliance.load import Workspace, load_workspace


@dataclass
class Checked:
    """A loaded workspace and what the checks found. ``ok`` means nothing fails."""

    workspace: Workspace
    result: CheckResult
    strict: bool = False

    @property
    def ok(self) -> bool:
        return self.workspace.model is not None and not has_failures(
            self.result.findings, self.strict)


def load_and_check(root: Path, today: dt.date | None = None, strict: bool = False) -> Checked:
    """Load the workspace at ``root`` and run every check. Raises UserError when unreadable."""
    ws = load_workspace(root)  # stage 1: load (positions kept)
    if ws.model is None:
        return Checked(ws, CheckResult(list(ws.findings)), strict)
    result = run_checks(ws, today or dt.date.today())  # stage 2: check
    return Checked(ws, result, strict)
