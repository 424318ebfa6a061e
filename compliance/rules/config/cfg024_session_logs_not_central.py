"""CFG024: every agent session can be reconstructed centrally."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.claude_merge import merge_claude_settings
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings

REQUIRED_ENV = {
    "CLAUDE_CODE_ENABLE_TELEMETRY": ("1",),
    "OTEL_LOGS_EXPORTER": ("otlp", "otlp,console", "console,otlp"),
    "OTEL_LOG_TOOL_DETAILS": ("1",),
}


class SessionLogsNotCentral(ConfigRule):
    """Flags a central-session-logging claim when telemetry is off, partial or user-overridable.

    ## What it does
    Claude Code: `env` must set `CLAUDE_CODE_ENABLE_TELEMETRY=1`,
    `OTEL_LOGS_EXPORTER` (otlp) and `OTEL_LOG_TOOL_DETAILS=1` in managed
    settings; set at project, local or user scope they can be overridden. Codex:
    `config.toml` must have an `[otel]` exporter.

    ## Why is this bad?
    Metrics alone cannot reconstruct a session; without tool details the
    commands are missing; local transcripts are kept 30 days by default and sit
    on the developer's machine.

    ## Example
    `.claude/settings.json` with `"env": {"OTEL_METRICS_EXPORTER": "otlp"}` only.

    ## Use instead
    Managed settings with all three variables and an OTLP endpoint.

    ## Sources
    Claude Code settings reference: `env` (`CLAUDE_CODE_ENABLE_TELEMETRY`,
    `OTEL_LOGS_EXPORTER`, `OTEL_LOG_TOOL_DETAILS`); `cleanupPeriodDays`
    ("transcripts are kept 30 days by default").
    """

    code = "CFG024"
    name = "session-logs-not-central"
    reads: ClassVar[tuple[str, ...]] = ("claude-settings", "codex-config")
    export_hint = "export the managed Claude Code settings or Codex config.toml"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        claude = of_kind(docs, "claude-settings")
        if claude:
            env = merge_claude_settings(claude).mapping("env")
            for name, allowed in REQUIRED_ENV.items():
                src = env.get(name)
                if src is None:
                    top = merge_claude_settings(claude).top()
                    findings.refute(top, None, f"env {name} is not set in any scope")
                elif str(src.value).lower() not in allowed:
                    findings.refute(src.doc, src.fact, f"env {name}={src.value!r}")
                elif src.scope != "managed":
                    findings.refute(src.doc, src.fact, f"env {name} is set at {src.scope} "
                                                       "scope, which the user can override")
                else:
                    findings.support(src.doc, src.fact, f"managed env {name}={src.value!r}")
        for doc in of_kind(docs, "codex-config"):
            exporter = doc.at("otel", "exporter")
            if exporter is None or exporter.value in ("none", None):
                findings.refute(doc, exporter, "no [otel] exporter: sessions stay in local "
                                               "~/.codex/sessions")
            else:
                findings.support(doc, exporter, "[otel] exporter is set")
