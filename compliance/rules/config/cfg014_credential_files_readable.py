"""CFG014: the agent cannot read credential files."""

from __future__ import annotations

import fnmatch
import re
from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.claude_merge import Sourced, merge_claude_settings
from compliance.rules.config.base import ConfigRule, require_containment
from compliance.rules.config.verdict import Findings

#: The credential locations the claim must cover.
REQUIRED = ("~/.ssh", "~/.aws", ".env")
_HOME = re.compile(r"^(?:/?/home/[^/]+|/?/Users/[^/]+|/?/root|\$HOME|~)(?=/|$)")
_GLOB_TAIL = re.compile(r"(?:/\*\*|/\*)?/?$")


def _covers(entry: str, target: str) -> bool:
    """Does a denyRead / credentials.files path cover the credential location?

    Home may be written `~`, `$HOME`, `/home/<user>`, `/Users/<user>` (or with the
    `//` absolute prefix); `~/.aws/credentials` counts for `~/.aws`; `.env` is
    covered by a basename pattern (`.env`, `.env*`, `**/.env`) at the top or any depth.
    """
    path = _HOME.sub("~", entry.strip())
    if target == ".env":
        head, _, name = path.removeprefix("./").rpartition("/")
        return head in ("", "**", "./**") and fnmatch.fnmatchcase(".env", name)
    path = _GLOB_TAIL.sub("", path)
    if target == "~/.aws" and path == "~/.aws/credentials":
        return True
    return path in ("~", target)


class CredentialFilesReadable(ConfigRule):
    """Flags a claim that the agent cannot read credential files when only tool rules deny them.

    ## What it does
    Requires the sandbox to be enabled and `sandbox.filesystem.denyRead` (or
    `sandbox.credentials.files` with mode deny/mask) to cover `~/.ssh`,
    `~/.aws` and `.env`. `permissions.deny` `Read(...)` rules alone
    refute the claim, and are named in the reasons. What the sandbox denies
    binds only commands inside it: `sandbox.allowUnsandboxedCommands` true or
    unset (default true) or an `excludedCommands` entry keeps the claim
    UNVERIFIED (a command may run outside once a person approves it), and
    with `defaultMode: bypassPermissions` in effect (nobody approves) refutes it.

    ## Why is this bad?
    Read/Edit deny rules "don't apply to arbitrary subprocesses": `cat ~/.ssh/id_rsa`
    in Bash is not a Read tool call. The sandbox's default read policy
    "includes credential files such as `~/.aws/credentials`".

    ## Example
    `"permissions": {"deny": ["Read(~/.ssh/**)"]}` with no `denyRead`.

    ## Use instead
    `"sandbox": {"enabled": true, "filesystem": {"denyRead": ["~/.ssh", "~/.aws",
    ".env"]}}`.

    ## Sources
    Claude Code settings reference: Read/Edit deny rules "don't apply to arbitrary
    subprocesses, so for OS-level enforcement enable the sandbox";
    `allowUnsandboxedCommands`: "Allow commands to run outside the sandbox via the
    dangerouslyDisableSandbox parameter ... Default: true".
    """

    code = "CFG014"
    name = "credential-files-readable"
    reads: ClassVar[tuple[str, ...]] = ("claude-settings",)
    export_hint = "export the Claude Code settings files of every scope"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        eff = merge_claude_settings(docs)
        require_containment(eff, findings,
                            "the sandbox is off: denyRead binds nothing and Bash reads any file",
                            "it reads every file the user can, credential files included")
        entries: list[Sourced] = list(eff.array("sandbox.filesystem.denyRead"))
        for src in eff.array("sandbox.credentials.files"):
            spec = src.value if isinstance(src.value, dict) else {"path": src.value}
            mode = spec.get("mode", "deny")
            if mode == "mask" and src.scope in ("project", "local"):
                continue  # "mask entries are dropped from project files"
            if mode in ("deny", "mask"):
                entries.append(src)
        tool_rules = [s for s in eff.array("permissions.deny") if str(s.value).startswith("Read(")]
        for target in REQUIRED:
            hit = [s for s in entries
                   if _covers(str(s.value.get("path", "") if isinstance(s.value, dict)
                                  else s.value), target)]
            if hit:
                findings.support(hit[0].doc, hit[0].fact, f"{target} is denied to the sandbox")
                continue
            named = [s for s in tool_rules if target.lstrip("~/") in str(s.value)]
            if named:
                findings.refute(named[0].doc, named[0].fact,
                                f"{named[0].value} binds only the Read tool, not subprocesses; no "
                                f"sandbox.filesystem.denyRead covers {target}")
            else:
                findings.refute(eff.top(), None, f"no sandbox.filesystem.denyRead covers {target}")
