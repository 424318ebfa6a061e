"""`compliance diff` output: text for a terminal, Markdown for a pull request comment, JSON.

Small functions over :class:`~compliance.disclose.diff.DiffReport`; nothing
here compares or decides.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from compliance.disclose.compare import Change
from compliance.disclose.diff import DiffReport
from compliance.disclose.drift import RecordDrift
from compliance.render.env import md_text


def _header(drift: RecordDrift) -> str:
    r = drift.record
    return f"{r.name} ({r.kind.value}, sent {r.sent}, recorded {r.date.isoformat()})"


def _verdict(report: DiffReport, drift: RecordDrift) -> str:
    if not drift.owed_update:
        return "up to date"
    hit = report.weakened_by_change.get(drift.record.name)
    because = f"; this change weakens {', '.join(hit)}" if hit else ""
    return f"OWED AN UPDATE{because}"


def summary_line(report: DiffReport) -> str:
    counts = report.counts()
    owed = report.owed_update
    total = len(report.disclosures)
    who = f": {', '.join(owed)}" if owed else ""
    return (f"{counts['weaker']} weaker, {counts['stronger']} stronger, {counts['changed']} "
            f"changed; {len(owed)} of {total} recorded disclosure(s) owed an update{who}")


def _text_changes(changes: Iterable[Change], pad: str) -> list[str]:
    return [f"{pad}{c.direction.value:<9} {c.message}" for c in changes]


def format_text(report: DiffReport) -> str:
    lines = [f"since {report.since.describe()}:"]
    if report.since.kind == "git":
        lines += _text_changes(report.changes, "  ") or ["  no claim changed"]
        if report.new_limits:
            lines.append("new limits:")
            lines += [f"  {lim.id}: {lim.text}" for lim in report.new_limits]
    if not report.disclosures:
        lines.append("no recorded disclosures (record one with --record NAME)")
    for drift in report.disclosures:
        lines.append(f"disclosure {_header(drift)}: {_verdict(report, drift)}")
        lines += _text_changes((*drift.changes, *drift.answers), "  ")
        lines += [f"  new limit {lim.id}: {lim.text}" for lim in drift.new_limits]
    lines.append(summary_line(report))
    return "\n".join(lines) + "\n"


def _md_table(changes: Iterable[Change]) -> list[str]:
    rows = [f"| {c.direction.value} | {md_text(c.subject)} | {md_text(c.what)} | "
            f"{md_text(c.message)} |" for c in changes]
    if not rows:
        return ["No claim changed."]
    return ["| | subject | what | change |", "| --- | --- | --- | --- |", *rows]


def format_markdown(report: DiffReport) -> str:
    lines = [f"## Changes since {md_text(report.since.describe())}", ""]
    if report.since.kind == "git":
        lines += [*_md_table(report.changes), ""]
        if report.new_limits:
            lines += ["### New limits", ""]
            lines += [f"- **{md_text(lim.id)}**: {md_text(lim.text)}" for lim in report.new_limits]
            lines.append("")
    lines += ["### Recorded disclosures", ""]
    if not report.disclosures:
        lines += ["No recorded disclosures.", ""]
    for drift in report.disclosures:
        lines += [f"#### {md_text(_header(drift))}: {md_text(_verdict(report, drift))}", ""]
        changes = (*drift.changes, *drift.answers)
        if changes:
            lines += [*_md_table(changes), ""]
        if drift.new_limits:
            lines += [f"- new limit **{md_text(lim.id)}**: {md_text(lim.text)}"
                      for lim in drift.new_limits]
            lines.append("")
    lines.append(md_text(summary_line(report)))
    return "\n".join(lines) + "\n"


def format_json(report: DiffReport) -> str:
    return json.dumps(report.as_dict(), indent=2, ensure_ascii=False) + "\n"


FORMATS = {"text": format_text, "markdown": format_markdown, "json": format_json}
