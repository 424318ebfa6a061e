"""The six layer metrics, declared in the model with a threshold and the exports they read.

Each metric names evidence items (files under evidence/, pinned like any
other); each item is one export, and several exports of one metric form a
trend ordered by their `collected` dates. The newest export is compared
with the threshold. A metric with no export, or whose exports hold no data
for it, is UNMEASURED, never zero.
"""

from __future__ import annotations

import enum

from pydantic import Field

from compliance.model.base import Identifier, Line, Strict, Text
from compliance.model.layers import Layer


class MetricKind(enum.StrEnum):
    """What a metric measures, and so which export format it reads."""

    AGENT_PR_SENSITIVE_SHARE = "agent-pr-sensitive-share"
    AGENT_PR_REJECTION_RATE = "agent-pr-rejection-rate"
    BLOCKED_REQUESTS_PER_SESSION = "blocked-requests-per-session"
    REVOCATION_HOURS = "revocation-hours"
    OLDEST_ENVIRONMENT_DAYS = "oldest-environment-days"
    TOOLS_PER_AGENT = "tools-per-agent"


#: kind -> (layer, unit, what it is, which export it reads)
METRIC_INFO: dict[MetricKind, tuple[Layer, str, str, str]] = {
    MetricKind.AGENT_PR_SENSITIVE_SHARE: (
        Layer.GIT, "%", "share of agent pull requests that changed workflow, build or "
        "dependency files", "`gh pr list --state all --json number,files,reviews,author,state`"),
    MetricKind.AGENT_PR_REJECTION_RATE: (
        Layer.GIT, "%", "share of decided agent pull requests that were closed unmerged or "
        "got a change request (zero over a long period suggests rubber-stamping)",
        "`gh pr list --state all --json number,files,reviews,author,state`"),
    MetricKind.BLOCKED_REQUESTS_PER_SESSION: (
        Layer.NETWORK, "requests", "blocked network requests per session",
        "a squid access log, or the JSON-lines proxy log of docs/metrics.md"),
    MetricKind.REVOCATION_HOURS: (
        Layer.CREDENTIALS, "hours", "longest time from suspicion to revocation of a credential",
        "a revocation record (docs/metrics.md)"),
    MetricKind.OLDEST_ENVIRONMENT_DAYS: (
        Layer.ISOLATION, "days", "age of the oldest cached environment when the export was taken",
        "an image manifest (docs/metrics.md)"),
    MetricKind.TOOLS_PER_AGENT: (
        Layer.NETWORK, "tools", "most tools (MCP servers' tools included) any agent is given",
        "Claude Code, Codex or MCP configuration files"),
}

#: Paths that count as workflow, build or dependency files by default (glob patterns).
DEFAULT_SENSITIVE_PATHS = (
    ".github/workflows/*", ".github/actions/*", ".gitlab-ci.yml", ".circleci/*",
    "Jenkinsfile", "Makefile", "*.mk", "Dockerfile", "*.dockerfile", ".devcontainer/*",
    "package.json", "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "requirements*.txt",
    "pyproject.toml", "setup.py", "setup.cfg", "poetry.lock", "uv.lock", "Pipfile*",
    "go.mod", "go.sum", "Cargo.toml", "Cargo.lock", "pom.xml", "*.gradle", "*.gradle.kts",
    "Gemfile*", "build.*", "CMakeLists.txt", "CODEOWNERS", ".github/CODEOWNERS",
    ".claude/*", ".codex/*", "CLAUDE.md", "AGENTS.md", ".mcp.json",
)


class Metric(Strict):
    """One metric, its threshold and the exports it is computed from."""

    id: Identifier = Field(description="Stable id, unique across the workspace.",
                           examples=["MET-PR-SENSITIVE"])
    kind: MetricKind = Field(description="What is measured; decides the export format read.")
    title: Line | None = Field(default=None, description="Short name; the kind's when omitted.")
    evidence: list[Identifier] = Field(
        default_factory=list,
        description="Evidence ids of the exports, one per export; several form a trend.")
    max: float | None = Field(default=None, ge=0,
                              description="Threshold: a value above it is a finding.")
    min: float | None = Field(default=None, ge=0,
                              description="Threshold: a value below it is a finding.")
    agents: list[Line] = Field(
        default_factory=list,
        description="Pull-request metrics: logins of the agents' accounts. Default: authors "
        "GitHub marks as bots.", examples=[["acme-agent-bot"]])
    sensitive_paths: list[Line] | None = Field(
        default=None,
        description="agent-pr-sensitive-share: glob patterns of workflow, build and dependency "
        "files (a pattern without '/' matches the file name anywhere). Replaces the defaults.")
    rationale: Text | None = Field(default=None, description="Why this threshold.")
    owner: Line | None = Field(default=None, description="Who watches the metric.")
