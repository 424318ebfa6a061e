"""Turn a checked workspace into the Report every output format prints."""

from __future__ import annotations

from typing import Any

from compliance.diagnostics import Level
from compliance.formats import Report, RuleInfo
from compliance.pipeline import Checked
from compliance.rules.registry import ALL_RULES, LOADER_CODES


def rule_infos() -> dict[str, RuleInfo]:
    infos = {code: RuleInfo(code, name, Level.ERROR, summary)
             for code, (name, summary) in LOADER_CODES.items()}
    for code, rule in ALL_RULES.items():
        infos[code] = RuleInfo(code, rule.name, rule.level, rule.summary(), rule.page())
    return infos


def make_report(checked: Checked) -> Report:
    """Findings, plus waivers in force and per-control verdicts for the JSON output."""
    extra: dict[str, Any] = {
        "waivers": [w.model_dump(mode="json") for w in checked.result.waivers_in_force],
        "verdicts": checked.result.verdicts,
        "ok": checked.ok,
    }
    practice = checked.result.practice
    if practice is not None and practice.metrics:
        extra["metrics"] = [m.as_dict() for m in practice.metrics]
        extra["_metric_lines"] = [m.line for m in practice.metrics]
    infos = rule_infos()
    used = {d.code for d in checked.result.findings}
    return Report(checked.result.findings, {c: i for c, i in infos.items() if c in used}, extra,
                  always_summary=True, base=str(checked.workspace.root))
