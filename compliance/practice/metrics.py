"""Compute the layer metrics from their exports: a value per export, UNMEASURED without data.

Runs in the check stage (compliance.check.practice); the outputs only show
the results. Each export is one point of the metric's trend, dated by its
evidence item's `collected` date; the newest point is compared with the
threshold.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from compliance.adapters.base import EvidenceDoc, EvidenceError, UnrecognisedEvidence
from compliance.model import Evidence
from compliance.model.metrics import DEFAULT_SENSITIVE_PATHS, METRIC_INFO, Metric, MetricKind
from compliance.practice import exports

if TYPE_CHECKING:  # pragma: no cover
    from compliance.check.context import CheckContext

UNMEASURED, WITHIN, CROSSED = "UNMEASURED", "within", "crossed"


@dataclass(frozen=True)
class Point:
    collected: dt.date
    export: str  # evidence/... path
    value: float | None
    note: str  # how the value was counted, or why there is none


@dataclass(frozen=True)
class MetricResult:
    metric: Metric
    points: tuple[Point, ...]  # oldest first
    errors: tuple[EvidenceError, ...]

    @property
    def unit(self) -> str:
        return METRIC_INFO[self.metric.kind][1]

    @property
    def title(self) -> str:
        return self.metric.title or METRIC_INFO[self.metric.kind][2]

    @property
    def value(self) -> float | None:
        return self.points[-1].value if self.points else None

    @property
    def threshold(self) -> str:
        parts = []
        if self.metric.max is not None:
            parts.append(f"at most {with_unit(self.metric.max, self.unit)}")
        if self.metric.min is not None:
            parts.append(f"at least {with_unit(self.metric.min, self.unit)}")
        return " and ".join(parts) or "no threshold"

    @property
    def status(self) -> str:
        value = self.value
        if value is None:
            return UNMEASURED
        m = self.metric
        if (m.max is not None and value > m.max) or (m.min is not None and value < m.min):
            return CROSSED
        return WITHIN

    @property
    def shown(self) -> str:
        return UNMEASURED if self.value is None else with_unit(self.value, self.unit)

    def as_dict(self) -> dict[str, object]:
        """The metric in the JSON output of `check` (keys are stable)."""
        return {"id": self.metric.id, "kind": self.metric.kind.value, "title": self.title,
                "unit": self.unit, "value": self.value, "status": self.status,
                "max": self.metric.max, "min": self.metric.min,
                "points": [{"collected": p.collected.isoformat(), "export": p.export,
                            "value": p.value, "note": p.note} for p in self.points]}

    @property
    def line(self) -> str:
        """One line for the text output of `check`."""
        where = f" in {self.points[-1].export}" if self.points else ""
        return f"metric {self.metric.id}: {self.shown} ({self.threshold}; {self.status}){where}"


def with_unit(x: float, unit: str) -> str:
    return f"{_num(x)}{unit}" if unit == "%" else f"{_num(x)} {unit}"


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.1f}"


def _matches(path: str, patterns: tuple[str, ...] | list[str]) -> bool:
    name = path.rsplit("/", 1)[-1]
    return any(fnmatch.fnmatchcase(path, p) if "/" in p else fnmatch.fnmatchcase(name, p)
               for p in patterns)


def _agent_prs(metric: Metric, prs: list[exports.PullRequest]) -> list[exports.PullRequest]:
    if metric.agents:
        return [p for p in prs if p.author in metric.agents]
    return [p for p in prs if p.is_bot]


def _pr_value(metric: Metric, file: Path, display: str) -> tuple[float | None, str]:
    prs = _agent_prs(metric, exports.read_pull_requests(file, display))
    who = ", ".join(metric.agents) or "accounts GitHub marks as bots"
    if metric.kind is MetricKind.AGENT_PR_SENSITIVE_SHARE:
        if not prs:
            return None, f"no pull request by {who} in the export"
        patterns = metric.sensitive_paths or list(DEFAULT_SENSITIVE_PATHS)
        hits = [p for p in prs if any(_matches(f, patterns) for f in p.files)]
        return 100 * len(hits) / len(prs), f"{len(hits)} of {len(prs)} pull requests by {who}"
    decided = [p for p in prs if p.state != "OPEN" or p.reviews]
    if not decided:
        return None, f"no merged, closed or reviewed pull request by {who} in the export"
    pushed_back = [p for p in decided
                   if p.state == "CLOSED" or "CHANGES_REQUESTED" in p.reviews]
    return (100 * len(pushed_back) / len(decided),
            f"{len(pushed_back)} of {len(decided)} decided pull requests by {who} closed "
            "unmerged or given a change request")


def _value(ctx: CheckContext, metric: Metric, ev: Evidence, file: Path,
           display: str) -> tuple[float | None, str]:
    kind = metric.kind
    if kind in (MetricKind.AGENT_PR_SENSITIVE_SHARE, MetricKind.AGENT_PR_REJECTION_RATE):
        return _pr_value(metric, file, display)
    if kind is MetricKind.BLOCKED_REQUESTS_PER_SESSION:
        log = exports.read_proxy_log(file, display)
        if not log.sessions:
            return None, "no request in the log"
        return (log.blocked / log.sessions,
                f"{log.blocked} blocked of {log.requests} requests in {log.sessions} sessions")
    if kind is MetricKind.REVOCATION_HOURS:
        hours = exports.read_revocation_hours(file, display)
        if not hours:
            return None, "no revocation recorded"
        return max(hours), f"longest of {len(hours)} revocations"
    if kind is MetricKind.OLDEST_ENVIRONMENT_DAYS:
        built = exports.read_environment_built(file, display)
        if not built:
            return None, "no environment in the manifest"
        return ((ev.collected - min(built)).days,
                f"oldest of {len(built)} environments, as of {ev.collected}")
    return _tools(ctx, ev)


def _tools(ctx: CheckContext, ev: Evidence) -> tuple[float | None, str]:
    from compliance.adapters.mcp import tools_per_agent
    from compliance.rules.config.controls import read_evidence

    doc = read_evidence(ctx, ev.id)
    if isinstance(doc, Exception):
        raise doc
    if not isinstance(doc, EvidenceDoc):
        return None, "no adapter reads this file (set its kind: to an MCP or agent config)"
    counts = tools_per_agent([doc])
    if not counts:
        return None, "no MCP server or tool configured for any agent in this file"
    unknown = sorted(a for a, c in counts.items() if c.tools is None)
    if unknown:
        return None, (f"{', '.join(unknown)}: a server exposes every tool it has, so the "
                      "number of tools cannot be read from configuration")
    agent, worst = max(counts.items(), key=lambda kv: (kv[1].tools or 0, kv[0]))
    return worst.tools, f"{agent}: {worst.tools} tools from {worst.servers} MCP servers"


def compute(ctx: CheckContext, metric: Metric) -> MetricResult:
    from compliance.rules.model.evidence_rules import evidence_file

    by_id = {e.id: e for e in ctx.model.evidence}
    points, errors = [], []
    for eid in metric.evidence:
        ev = by_id[eid]
        display = f"evidence/{ev.path}"
        file = evidence_file(ctx, ev)
        if file is None:
            points.append(Point(ev.collected, display, None, "export missing"))
            continue
        try:
            value, note = _value(ctx, metric, ev, file, display)
        except EvidenceError as exc:
            errors.append(exc)
            value, note = None, "export unreadable"
        except UnrecognisedEvidence as exc:
            value, note = None, str(exc)
        points.append(Point(ev.collected, display, value, note))
    points.sort(key=lambda p: (p.collected, p.export))
    return MetricResult(metric, tuple(points), tuple(errors))
