"""Apply inline suppressions and waivers to findings. Nothing is hidden: waived
findings stay in every output, marked with the waiver that covers them."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from compliance.diagnostics import Diagnostic, Level
from compliance.load.workspace import Workspace
from compliance.model import Waiver

#: ``# compliance: allow CLM001 -- reason`` (the ``--`` is optional).
SUPPRESSION = re.compile(
    r"#\s*compliance:\s*allow\s+(?P<codes>[A-Za-z0-9_-]+(?:\s*,\s*[A-Za-z0-9_-]+)*)"
    r"(?:\s*(?:--|:)?\s*(?P<reason>\S.*?))?\s*$")
SUP_CODE, SUP_NAME = "SUP001", "suppression-without-reason"


@dataclass(frozen=True)
class Suppression:
    path: str
    line: int  # the comment's line; it covers this line and the next
    codes: tuple[str, ...]
    reason: str | None


def find_suppressions(ws: Workspace) -> list[Suppression]:
    out = []
    for path, doc in ws.docs.items():
        if "compliance:" not in doc.text:
            continue
        for n, line in enumerate(doc.text.splitlines(), start=1):
            m = SUPPRESSION.search(line)
            if m:
                codes = tuple(c.strip() for c in m["codes"].split(","))
                out.append(Suppression(path, n, codes, m["reason"]))
    return out


def _matches(rule: str, d: Diagnostic, names: dict[str, str]) -> bool:
    return names.get(rule, rule) == d.code


def _span(ws: Workspace, target: str) -> tuple[str, int, int] | None:
    """File and line range of the model item with id ``target``."""
    for (section, item_id), located in ws.index.items():
        if item_id == target and section != "waivers":
            np = located.doc.positions.get(located.path)
            if np is not None:
                return (located.doc.path, np.value.line, np.value.end_line or np.value.line)
    return None


def apply(findings: list[Diagnostic], ws: Workspace, waivers: list[Waiver],
          names: dict[str, str], today: dt.date, horizon_days: int) -> list[Diagnostic]:
    """Mark findings covered by a reasoned suppression or a waiver in force."""
    out: list[Diagnostic] = []
    sups = find_suppressions(ws)
    for s in sups:
        if not s.reason:
            out.append(Diagnostic(s.path, s.line, 1, SUP_CODE, SUP_NAME, Level.ERROR,
                                  f"suppression of {', '.join(s.codes)} has no reason; write "
                                  "`# compliance: allow CODE -- why this is acceptable`"))
    limit = today + dt.timedelta(days=horizon_days)
    in_force = [w for w in waivers if today <= w.expires <= limit]
    spans = {w.target: _span(ws, w.target) for w in in_force}
    for d in findings:
        by = None
        for s in sups:
            if s.reason and s.path == d.path and s.line in (d.line, d.line - 1) and any(
                    _matches(c, d, names) for c in s.codes):
                by = f"inline at {s.path}:{s.line}: {s.reason}"
                break
        if by is None and d.code not in ("WVR001", "WVR002", "WVR003"):
            for w in in_force:
                span = spans[w.target]
                hit = (d.path == w.target) or (
                    span is not None and d.path == span[0] and span[1] <= d.line <= span[2])
                if hit and _matches(w.rule, d, names):
                    by = f"waiver {w.rule} on {w.target} by {w.owner} until {w.expires}: " \
                         f"{w.reason.strip()}"
                    break
        out.append(d.waived(by) if by else d)
    return out
