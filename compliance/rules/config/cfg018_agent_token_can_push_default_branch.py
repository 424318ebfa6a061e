"""CFG018: the agent can only push its own branch."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc, Fact
from compliance.adapters.workflows import grants_write, job_permissions
from compliance.rules.config._protection import KINDS, approval
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings

_GH_TOKEN_NAMES = ("GH_TOKEN", "GITHUB_TOKEN", "GITHUB_PAT", "GH_PAT", "GH_ENTERPRISE_TOKEN")
_AGENT_ACTIONS = ("anthropics/claude-code-action", "openai/codex-action")


class AgentTokenCanPushDefaultBranch(ConfigRule):
    """Flags a push-scope claim when a write-capable token meets an unprotected default branch.

    ## What it does
    Finds a GitHub token in the agent's reach (a gh/GitHub token forwarded into
    the dev container, gh config mounted, or an agent workflow job with
    `contents: write`) and refutes the claim when the given protection
    exports show no approval requirement on the default branch. Otherwise it
    stays UNVERIFIED: the push restriction of Copilot and Claude Code on the web
    is built in and has no export, and a token's scopes are not in any file.

    ## Why is this bad?
    A token with `contents: write` can push to any unprotected branch, the
    default branch included.

    ## Example
    `"remoteEnv": {"GH_TOKEN": "${localEnv:GH_TOKEN}"}` with no branch protection.

    ## Use instead
    Protect the default branch; give the agent a token scoped to its branch
    (Copilot pushes only to `copilot/` branches; Claude Code on the web: "git
    push works only against the session's current working branch").

    ## Sources
    Claude Code cloud docs: "Git credentials stay outside the VM"; Copilot docs:
    "pushes only to copilot/ branches".
    """

    code = "CFG018"
    name = "agent-token-can-push-default-branch"
    reads: ClassVar[tuple[str, ...]] = ("devcontainer", "gha-workflow", *KINDS)
    export_hint = ("export the branch protection and the agent's token setup (devcontainer "
                   "or workflow)")

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        tokens: list[tuple[EvidenceDoc, Fact | None, str]] = []
        for doc in of_kind(docs, "devcontainer"):
            for fact in doc.fact_list("env"):
                if fact.value[0] in _GH_TOKEN_NAMES:
                    tokens.append((doc, fact, f"{fact.value[0]} is forwarded into the container"))
            for fact in doc.fact_list("mount"):
                if ".config/gh" in fact.value:
                    tokens.append((doc, fact, "the gh CLI config (token) is mounted"))
        for doc in of_kind(docs, "gha-workflow"):
            for fact in doc.fact_list("action-input"):
                job, _step, uses, _name, _value = fact.value
                perms, _declared = job_permissions(doc, job)
                if uses.startswith(_AGENT_ACTIONS) and grants_write(perms, ("contents",)):
                    where = doc.at("jobs", job, "permissions") or doc.at("permissions")
                    tokens.append((doc, where, f"job {job} runs the agent with contents: write"))
                    break
        result = approval(docs)
        unprotected = of_kind(docs, *KINDS) and not result.requiring
        if tokens and unprotected:
            for doc, where, message in tokens:
                findings.refute(doc, where, f"{message}, and the default branch requires no "
                                            "approval")
            return
        findings.gap("the push scope of the agent's token is not in any file; the falsifying "
                     "case (a contents:write token on an unprotected default branch) was not "
                     "found" + ("" if of_kind(docs, *KINDS) else
                                "; export the default branch's protection to rule it out"))
