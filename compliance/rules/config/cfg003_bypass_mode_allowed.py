"""CFG003: agents cannot run in bypass/YOLO mode."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from compliance.adapters.base import EvidenceDoc, Fact, as_list
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings

#: Launch flags that turn prompts and the sandbox off, per agent.
FLAGS = {
    "claude": ("--dangerously-skip-permissions", "bypassPermissions"),
    "codex": ("--yolo", "--dangerously-bypass-approvals-and-sandbox", "danger-full-access"),
}
#: Programs that start an agent (directly, through a package runner or a container);
#: a flag mentioned by echo, grep or a comment is not a launch.
LAUNCHERS = frozenset({"claude", "codex", "npx", "bunx", "pnpx", "pnpm", "yarn", "node",
                       "docker", "podman", "kubectl", "env"})


class BypassModeAllowed(ConfigRule):
    """Flags a claim that agents cannot run in bypass/YOLO mode when nothing enforces it.

    ## What it does
    Claude Code: requires managed settings with
    `permissions.disableBypassPermissionsMode: "disable"` and no scope with
    `defaultMode: "bypassPermissions"`. Codex: requires `requirements.toml`
    `allowed_sandbox_modes` without `danger-full-access` (or a closed
    `[allowed_permission_profiles]` map without `:danger-full-access`) when any config or
    launcher uses it. A script or dev-container command that starts an agent
    with `--dangerously-skip-permissions`, `--yolo` or `danger-full-access`
    refutes the claim unless the evidence also shows the setting that blocks it.

    ## Why is this bad?
    Bypass mode removes every permission prompt; only a managed setting stops a
    user or a repository from turning it on. Codex `--yolo` means "No sandbox;
    no prompts".

    ## Example
    A project `.claude/settings.json` with `"defaultMode": "bypassPermissions"`.

    ## Use instead
    Ship `disableBypassPermissionsMode: "disable"` in managed settings and an
    admin `requirements.toml` with `allowed_sandbox_modes = ["read-only",
    "workspace-write"]`.

    ## Sources
    Claude Code settings reference (`disableBypassPermissionsMode`); Codex
    "Agent approvals & security" (`--yolo`: "No sandbox; no prompts") and
    "Managed configuration" (`requirements.toml`).
    """

    code = "CFG003"
    name = "bypass-mode-allowed"
    reads: ClassVar[tuple[str, ...]] = ("claude-settings", "codex-config", "codex-requirements",
                                        "shell", "devcontainer")
    export_hint = ("export managed-settings.json (Claude Code) or requirements.toml (Codex)")

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        blocked = {
            "claude": self._claude(of_kind(docs, "claude-settings"), findings),
            "codex": self._codex(of_kind(docs, "codex-config"),
                                 of_kind(docs, "codex-requirements"), findings),
        }
        for doc, fact, tool, flag, what in self._launches(docs):
            if blocked[tool]:
                findings.support(doc, fact, f"{what} with {flag}, which {blocked[tool]} blocks")
            else:
                findings.refute(doc, fact, f"{what} with {flag}, and nothing in the evidence "
                                           f"blocks it ({self._needs[tool]})")

    _needs = {"claude": 'managed disableBypassPermissionsMode: "disable"',
              "codex": "requirements.toml allowed_sandbox_modes without danger-full-access"}

    @staticmethod
    def _launches(docs: list[EvidenceDoc]) -> Iterator[tuple[EvidenceDoc, Fact, str, str, str]]:
        """Agent launches with a bypass flag: (file, fact, tool, flag, description)."""
        for doc in of_kind(docs, "shell"):
            for fact in doc.fact_list("command"):
                prog, args = fact.value
                if prog not in LAUNCHERS:
                    continue
                for tool, flags in FLAGS.items():
                    hit = next((a for a in args if any(f in a for f in flags)), None)
                    if hit is not None:
                        yield doc, fact, tool, hit, f"{prog} starts {tool}"
        for doc in of_kind(docs, "devcontainer"):
            for fact in doc.fact_list("lifecycle-command"):
                prop, text = fact.value
                for tool, flags in FLAGS.items():
                    flag = next((f for f in flags if f in text), None)
                    if flag is not None:
                        yield doc, fact, tool, flag, f"{prop} starts {tool}"

    def _claude(self, docs: list[EvidenceDoc], findings: Findings) -> str:
        """Refute/support from Claude settings; the blocking setting's place, or ''."""
        if not docs:
            return ""
        for doc in docs:
            for fact in doc.fact_list("defaultMode"):
                if fact.value == "bypassPermissions":
                    scope = doc.scope or "project"
                    findings.refute(doc, fact, f"defaultMode is bypassPermissions ({scope} scope)")
        managed = [d for d in docs if d.scope == "managed"]
        if not managed:
            findings.gap("no managed Claude Code settings given: only managed "
                         "disableBypassPermissionsMode binds users; export managed-settings.json")
            return ""
        for doc in managed:
            flag = doc.at("permissions", "disableBypassPermissionsMode")
            if flag is not None and flag.value == "disable":
                findings.support(doc, flag, "managed settings disable bypass mode")
                return f"{doc.path}:{flag.line}"
        findings.refute(managed[0], ("permissions",) if managed[0].has("permissions") else None,
                        'managed settings lack permissions.disableBypassPermissionsMode: "disable"')
        return ""

    def _codex(self, configs: list[EvidenceDoc], reqs: list[EvidenceDoc],
               findings: Findings) -> str:
        """Refute/support from Codex files; the enforcing requirement's place, or ''."""
        enforced = ""
        for doc in reqs:
            modes = doc.at("allowed_sandbox_modes")
            profiles = doc.at("allowed_permission_profiles")
            if isinstance(profiles, Fact) and isinstance(profiles.value, dict):
                full = doc.at("allowed_permission_profiles", ":danger-full-access")
                if full is not None and full.value is True:
                    findings.refute(doc, full, "allowed_permission_profiles allows "
                                               ":danger-full-access")
                else:
                    enforced = f"{doc.path}:{profiles.line}"
                    findings.support(doc, profiles, "allowed_permission_profiles omits "
                                                    ":danger-full-access (a closed allowlist)")
                continue
            if modes is None:
                findings.refute(doc, None, "requirements.toml has neither allowed_sandbox_modes "
                                           "nor allowed_permission_profiles, so "
                                           "danger-full-access (--yolo) stays allowed")
            elif "danger-full-access" in [str(m) for m in as_list(modes.value)]:
                findings.refute(doc, modes, "allowed_sandbox_modes permits danger-full-access")
            else:
                enforced = f"{doc.path}:{modes.line}"
                findings.support(doc, modes, "allowed_sandbox_modes excludes danger-full-access")
        for doc in configs:
            for fact in doc.fact_list("sandbox_mode") + doc.fact_list("default_permissions"):
                if "danger-full-access" in str(fact.value) and not enforced:
                    findings.refute(doc, fact, f"{fact.key} = {fact.value!r} and no "
                                               "requirements.toml excludes it")
        if configs and not reqs:
            findings.gap("no Codex requirements.toml given: without allowed_sandbox_modes any "
                         "user can pass --yolo; export the admin requirements.toml")
        return enforced
