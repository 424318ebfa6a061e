"""CFG012: Copilot's egress is firewalled."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc, Fact, as_list
from compliance.adapters.mcp import describe, servers_in
from compliance.rules.config._secrets import EPHEMERAL, NETWORK_COMMAND
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings


class CopilotEgressUnfirewalled(ConfigRule):
    """Flags a "Copilot's egress is firewalled" claim; the firewall itself has no export.

    ## What it does
    Reads `copilot-setup-steps.yml`: any `run` step using the network
    (curl, wget, apt-get, pip, npm, git clone, ...) or any secret refutes the
    claim, because the firewall does not apply to setup steps. Every MCP server
    Copilot reads (the repository's MCP JSON exported to a file, or the
    portable `.mcp.json`) refutes it too: the firewall does not apply to MCP
    servers, and the GitHub and Playwright servers are on by default. The firewall's
    on/off switch, recommended list and custom list live in the repository's
    settings UI with no file export, so the best verdict is UNVERIFIED.

    ## Why is this bad?
    Setup steps run before the firewall, with the `copilot` environment's
    secrets; MCP servers are outside it too.

    ## Example
    `run: wget -O /tmp/tool https://…` in the `copilot-setup-steps` job.

    ## Use instead
    Claim "the agent phase is firewalled; setup steps and MCP servers are not",
    and keep secrets out of setup steps.

    ## Sources
    GitHub, "Customizing or disabling the firewall for GitHub Copilot coding agent":
    the firewall "does not apply to Model Context Protocol (MCP) servers or processes
    started in configured Copilot setup steps"; "should not be considered a
    comprehensive security solution".
    """

    code = "CFG012"
    name = "copilot-egress-unfirewalled"
    reads: ClassVar[tuple[str, ...]] = ("copilot-setup-steps", "mcp-config")
    export_hint = ("the Copilot firewall is configured in repository settings and has no "
                   "export; give copilot-setup-steps.yml to check what runs outside it")

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        for doc, server in servers_in(docs):
            if "copilot" in server.agents:
                findings.refute(doc, server.keys, f"MCP server {server.name} "
                                                  f"({describe(server)}) runs outside the "
                                                  "Copilot firewall")
        for doc in of_kind(docs, "copilot-setup-steps"):
            steps = as_list(doc.get("jobs", "copilot-setup-steps", "steps"))
            for i, step in enumerate(steps):
                run = str(step.get("run") or "") if isinstance(step, dict) else ""
                if not run:
                    continue
                for offset, line in enumerate(run.splitlines()):
                    m = NETWORK_COMMAND.search(line.split("#")[0])
                    if m:
                        at = doc.at("jobs", "copilot-setup-steps", "steps", i, "run")
                        findings.refute(doc, self._line(doc, at, line, offset),
                                        f"setup step uses the network ({m.group(0)}) outside "
                                        "the firewall")
            for fact in doc.fact_list("secret"):
                if fact.value[1] not in EPHEMERAL:
                    findings.refute(doc, fact, f"secret {fact.value[1]} is used in setup steps, "
                                               "which run outside the firewall")
        findings.gap("the Copilot firewall setting lives in the repository settings UI with no "
                     "export")

    @staticmethod
    def _line(doc: EvidenceDoc, at: Fact | None, text: str, offset: int) -> Fact | None:
        """The physical line of ``text`` inside a ``run: |`` block."""
        if at is None:
            return None
        lines = doc.text.splitlines()
        for n in range(at.line, min(len(lines), at.line + 1 + offset + 50)):
            if lines[n].strip() == text.strip() and text.strip():
                return Fact(at.key, text.strip(), n + 1, lines[n].index(text.strip()) + 1)
        return at
