"""Apply inline suppressions and waivers to findings. Nothing is hidden: waived
findings stay in every output, marked with the waiver that covers them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from compliance.diagnostics import Diagnostic, Level, Position
from compliance.load.workspace import Workspace
from compliance.model import Waiver
from compliance.paths import OutsideFolder, resolve_inside
from compliance.suppression import INLINE, SUP_CODE, SUP_NAME, SUPPRESSION, codes_of

TEXT_CODE, TEXT_NAME = "SUP002", "suppression-inside-text"
UNUSED_CODE, UNUSED_NAME = "WVR004", "unused-waiver"
#: Findings about waivers themselves: a waiver cannot waive them.
UNWAIVABLE = ("WVR001", "WVR002", "WVR003", UNUSED_CODE)


@dataclass(frozen=True)
class Suppression:
    path: str
    line: int  # the comment's line; it covers this line and the next
    column: int  # where the ``#`` of the comment is
    codes: tuple[str, ...]
    reason: str | None
    #: written inside a value's text (a block scalar or a quoted string), where YAML
    #: reads ``#`` as content: it suppresses nothing (SUP002)
    in_text: bool = False


def find_suppressions(ws: Workspace) -> list[Suppression]:
    out = []
    for path, doc in ws.docs.items():
        if "compliance:" not in doc.text:
            continue
        offset = 0
        for n, line in enumerate(doc.text.splitlines(keepends=True), start=1):
            m = SUPPRESSION.search(line.rstrip("\r\n"))
            if m:
                codes = codes_of(m)
                out.append(Suppression(path, n, m.start() + 1, codes, m["reason"],
                                       doc.in_string_value(offset + m.start())))
            offset += len(line)
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
    """Mark findings covered by a reasoned suppression or a waiver in force.

    Also reports SUP001 (a suppression with no reason) and WVR004 (a waiver in
    force that waives no finding, or whose target names nothing).
    """
    out: list[Diagnostic] = []
    sups = find_suppressions(ws)
    for s in sups:
        if s.in_text:
            out.append(Diagnostic(s.path, s.line, s.column, TEXT_CODE, TEXT_NAME, Level.ERROR,
                                  f"this suppression of {', '.join(s.codes)} is inside a "
                                  "value's text (a block scalar or a quoted string), where "
                                  "'#' is content: it suppresses nothing and is part of the "
                                  "text; fix the text, or put the comment on its own line "
                                  "above the key"))
        elif not s.reason:
            out.append(Diagnostic(s.path, s.line, s.column, SUP_CODE, SUP_NAME, Level.ERROR,
                                  f"suppression of {', '.join(s.codes)} has no reason; write "
                                  "`# compliance: allow CODE -- why this is acceptable`"))
    limit = today + dt.timedelta(days=horizon_days)
    in_force = [(i, w) for i, w in enumerate(waivers)
                if today <= w.expires <= limit and w.rule in names]
    spans = {w.target: _span(ws, w.target) for _i, w in in_force}
    used: set[int] = set()
    for d in findings:
        by = None
        for s in sups:
            if (s.reason and not s.in_text and s.path == d.path
                    and s.line in (d.line, d.line - 1)
                    and any(_matches(c, d, names) for c in s.codes)):
                by = f"{INLINE}{s.path}:{s.line}: {s.reason}"
                break
        if by is None and d.code not in UNWAIVABLE:
            for i, w in in_force:
                span = spans[w.target]
                hit = (d.path == w.target) or (
                    span is not None and d.path == span[0] and span[1] <= d.line <= span[2])
                if hit and _matches(w.rule, d, names):
                    used.add(i)
                    by = by or f"waiver {w.rule} on {w.target} by {w.owner} until " \
                               f"{w.expires}: {w.reason.strip()}"
        out.append(d.waived(by) if by else d)
    for i, w in in_force:
        if i not in used:
            out.append(_unused(ws, i, w, spans[w.target] is not None))
    return out


def _is_file(ws: Workspace, target: str) -> bool:
    try:
        return resolve_inside(ws.root, target).is_file()
    except OutsideFolder:
        return False


def _unused(ws: Workspace, index: int, w: Waiver, target_known: bool) -> Diagnostic:
    located = ws.where("waivers", str(index))
    pos = located.pos("target") if located else Position("waivers.yaml", 1, 1)
    if target_known or w.target in ws.docs or _is_file(ws, w.target):
        why = (f"waiver for {w.rule} on {w.target} waives nothing: no {w.rule} finding is "
               f"there; delete the waiver (or fix its rule)")
    else:
        why = (f"waiver for {w.rule} names target {w.target!r}, which is no control, limit, "
               "evidence item, source or model file; use an id or a path such as "
               "controls/network.yaml")
    return Diagnostic.at(pos, UNUSED_CODE, UNUSED_NAME, Level.WARNING, why)
