"""CFG022: only trusted users can trigger the agent workflow."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc, as_dict, as_list
from compliance.adapters.workflows import grants_write, job_permissions
from compliance.rules.config.base import ConfigRule
from compliance.rules.config.verdict import Findings

ACTION = "anthropics/claude-code-action"


class UntrustedUsersTriggerAgent(ConfigRule):
    """Flags a claude-code-action that users without write access can trigger with a writing token.

    ## What it does
    For each `anthropics/claude-code-action` step: a non-empty
    `allowed_non_write_users` (or `allowed_bots: "*"`) refutes the claim when
    the job's token can write
    `contents` or `pull-requests` (or permissions are undeclared), or when a
    `github_token` from a secret (a PAT) is passed.

    ## Why is this bad?
    Anyone who can open an issue can then steer an agent that holds a writing
    token: prompt injection with write access.

    ## Example
    `allowed_non_write_users: "*"` with `permissions: {contents: write}`.

    ## Use instead
    Leave `allowed_non_write_users` unset, or pair it with read-only permissions.

    ## Sources
    anthropics/claude-code `non-write-users-check.yml`: `allowed_non_write_users`
    "allows users without write access to trigger Claude Code Action workflows. This
    can introduce security risks."
    """

    code = "CFG022"
    name = "untrusted-users-trigger-agent"
    reads: ClassVar[tuple[str, ...]] = ("gha-workflow",)
    export_hint = "give the workflow that runs anthropics/claude-code-action"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        steps = 0
        for doc in docs:
            inputs: dict[tuple[str, int], dict[str, object]] = {}
            facts = {}
            for fact in doc.fact_list("action-input"):
                job, step, uses, name, value = fact.value
                if uses.startswith(ACTION):
                    inputs.setdefault((job, step), {})[name] = value
                    facts[(job, step, name)] = fact
            for job, body in as_dict(doc.get("jobs")).items():
                for i, step in enumerate(as_list(as_dict(body).get("steps"))):
                    if isinstance(step, dict) and str(step.get("uses", "")).startswith(ACTION):
                        steps += 1
                        inputs.setdefault((job, i), {})
            for (job, step), given in inputs.items():
                token = str(given.get("github_token", ""))
                perms, declared = job_permissions(doc, job)
                writes = not declared or grants_write(perms, ("contents", "pull-requests"))
                pat = "secrets." in token and "GITHUB_TOKEN" not in token
                opened = [(name, given[name]) for name in ("allowed_non_write_users",
                                                           "allowed_bots")
                          if given.get(name) and (name != "allowed_bots" or given[name] == "*")]
                for name, value in opened:
                    at = facts.get((job, step, name))
                    if writes:
                        findings.refute(doc, at, f"{name}={value!r} with a token that can write "
                                                 "contents or pull requests")
                    elif pat:
                        findings.refute(doc, at, f"{name}={value!r} with a PAT github_token")
                if not (opened and (writes or pat)):
                    findings.support(doc, ("jobs", job, "steps", step),
                                     "only users with write access can trigger the agent")
        if steps == 0:
            findings.gap("no anthropics/claude-code-action step in the given workflows")
