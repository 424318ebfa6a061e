"""CFG011: the agent can only touch the repository."""

from __future__ import annotations

import re
from typing import ClassVar

from compliance.adapters.base import EvidenceDoc, Fact
from compliance.adapters.claude_merge import Effective, merge_claude_settings
from compliance.rules.config.base import (
    ConfigRule,
    bypass_mode,
    of_kind,
    require_containment,
)
from compliance.rules.config.verdict import Findings

_HOME = re.compile(r"^(~/?|\$HOME/?|/home/[^/]+/?|/Users/[^/]+/?|/root/?)$")


def outside_repo(path: str) -> bool:
    p = path.strip()
    return p.startswith(("/", "~", "$HOME", "..", "//")) and not p.startswith("./")


class WritesOutsideRepo(ConfigRule):
    """Flags a repository-only claim when write roots, trust or MCP servers reach further.

    ## What it does
    Claude Code: the sandbox switched off (`sandbox.enabled` not true: Bash then
    writes wherever the user can), `sandbox.filesystem.allowWrite` and
    `permissions.additionalDirectories` entries outside the repository (sandbox
    paths: `//` is absolute, `~/` is home, `/` is relative to the settings
    file's folder, so ambiguous in a project file). A command that can run
    outside the sandbox (`sandbox.allowUnsandboxedCommands` true or unset, an
    `excludedCommands` entry) keeps the claim UNVERIFIED, and refutes it with
    `defaultMode: bypassPermissions` in effect: then nobody approves it, and
    the Write and Edit tools write outside the working directories unasked
    (unless `permissions.blockWritesOutsideWorkingDirectories` is true). Codex:
    `writable_roots`, a `[projects."<home>"]` with `trust_level = "trusted"`,
    `danger-full-access`, and filesystem MCP servers given a home path.

    ## Why is this bad?
    A session started in a trusted home directory makes all of home the
    writable workspace; MCP servers run outside the shell sandbox with the
    user's rights.

    ## Example
    `[projects."/home/dev"] trust_level = "trusted"`.

    ## Use instead
    Trust only repository paths; keep write roots inside the repository.

    ## Sources
    Codex "Configuration Reference": `writable_roots` adds write paths;
    `.codex/config.toml` loads "only when you trust the project". Claude Code
    settings reference: `allowUnsandboxedCommands` "Allow commands to run
    outside the sandbox via the dangerouslyDisableSandbox parameter ...
    Default: true"; permission modes: bypassPermissions skips every prompt.
    """

    code = "CFG011"
    name = "writes-outside-repo"
    reads: ClassVar[tuple[str, ...]] = ("claude-settings", "codex-config")
    export_hint = "export the Claude Code settings or Codex config.toml"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        claude = of_kind(docs, "claude-settings")
        if claude:
            eff = merge_claude_settings(claude)
            # the write roots bind Bash only inside the sandbox: without it a command the
            # agent runs writes wherever the user can
            require_containment(eff, findings, "the sandbox is not enabled, so a Bash command "
                                               "writes wherever the user can",
                                "it writes wherever the user can")
            self._file_tools(eff, findings)
            for src in eff.array("permissions.additionalDirectories"):
                if outside_repo(str(src.value)):
                    findings.refute(src.doc, src.fact, f"{src.value} is outside the repository")
            for src in eff.array("sandbox.filesystem.allowWrite"):
                self._sandbox_path(src.doc, src.fact, str(src.value), src.scope, findings)
            findings.support(eff.top(), None, "no Claude Code write root outside the repository")
        for doc in of_kind(docs, "codex-config"):
            self._codex(doc, findings)

    @staticmethod
    def _file_tools(eff: Effective, findings: Findings) -> None:
        """With no permission prompt the Write and Edit tools write outside the working
        directories too (the sandbox binds Bash, not them), unless settings block it."""
        bypass = bypass_mode(eff)
        block = eff.value("permissions.blockWritesOutsideWorkingDirectories")
        if bypass is None:
            return
        if block is not None and block.value is True:
            findings.support(block.doc, block.fact, "the Write and Edit tools refuse paths "
                                                    "outside the working directories")
            return
        findings.refute(bypass.doc, bypass.fact, f"defaultMode is bypassPermissions "
                                                 f"({bypass.scope} scope): the Write and Edit "
                                                 "tools write outside the working directories "
                                                 "without asking")

    @staticmethod
    def _sandbox_path(doc: EvidenceDoc, fact: Fact, path: str, scope: str,
                      findings: Findings) -> None:
        """Sandbox paths: `//` absolute, `~/` home, `/` relative to the settings file's folder."""
        p = path.strip()
        if p.startswith(("//", "~", "$HOME", "..")):
            findings.refute(doc, fact, f"{p} is outside the repository")
        elif p.startswith("/") and scope in ("managed", "user", "cli"):
            findings.refute(doc, fact, f"{p} is relative to the {scope} settings folder, "
                                       "outside the repository")
        elif p.startswith("/"):
            findings.gap(f"{doc.path}:{fact.line}: {p} is relative to the settings file's folder "
                         "in current Claude Code and absolute in older releases; write it as "
                         "./path or //path")

    @staticmethod
    def _profile(doc: EvidenceDoc, name: str, profile: object, findings: Findings) -> None:
        """Permission profile paths granted `write` outside the workspace roots."""
        if not isinstance(profile, dict):
            return
        filesystem = profile.get("filesystem")
        for path, access in (filesystem.items() if isinstance(filesystem, dict) else []):
            if str(path).startswith(":"):
                continue  # :workspace_roots, :tmpdir, :slash_tmp: the profile's own special paths
            if "write" in str(access) and outside_repo(str(path)):
                findings.refute(doc, doc.at("permissions", name, "filesystem", path),
                                f"permission profile {name} grants write to {path}")
        for root in doc.items("permissions", name, "workspace_roots"):
            value = root.value if isinstance(root.value, str) else root.key.rsplit(".", 1)[-1]
            if _HOME.match(str(value)):
                findings.refute(doc, root, f"permission profile {name} makes {value} (a home "
                                           "directory) a workspace root")

    def _codex(self, doc: EvidenceDoc, findings: Findings) -> None:
        for fact in doc.fact_list("writable_root"):
            if outside_repo(str(fact.value)):
                findings.refute(doc, fact, f"writable root {fact.value} is outside the repository")
        for fact in doc.fact_list("sandbox_mode") + doc.fact_list("default_permissions"):
            if "danger-full-access" in str(fact.value):
                findings.refute(doc, fact, "danger-full-access writes anywhere")
        for name, profile in doc.entries("permissions"):
            self._profile(doc, str(name), profile.value, findings)
        for path, fact in doc.entries("projects"):
            trusted = isinstance(fact.value, dict) and fact.value.get("trust_level") == "trusted"
            if trusted and _HOME.match(str(path)):
                findings.refute(doc, fact, f"{path} (a home directory) is trusted: a session "
                                           "started there can write all of home")
        for fact in doc.fact_list("mcp_server"):
            body = doc.get("mcp_servers", fact.value) or {}
            args = [str(a) for a in (body.get("args") or [])] if isinstance(body, dict) else []
            if any("filesystem" in a for a in args) and any(
                    _HOME.match(a) or a.startswith(("~", "$HOME", "/home/", "/Users/"))
                    for a in args):
                findings.refute(doc, fact, f"MCP server {fact.value} serves the home directory "
                                           "outside the shell sandbox")
        findings.support(doc, None, "no Codex write root outside the repository")
