"""CFG022: only trusted users can trigger the agent workflow."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from compliance.adapters.base import EvidenceDoc, Fact, as_dict, as_list
from compliance.adapters.workflows import grants_write, job_permissions
from compliance.rules.config.base import ConfigRule
from compliance.rules.config.verdict import Findings

ACTION = "anthropics/claude-code-action"


class UntrustedUsersTriggerAgent(ConfigRule):
    """Flags a claude-code-action that users without write access can trigger.

    ## What it does
    For each `anthropics/claude-code-action` step: `allowed_non_write_users: "*"`
    or `allowed_bots: "*"` refutes the claim, whatever the job's token may do.
    A list of named non-write users refutes it when the job's token can write
    `contents` or `pull-requests` (or permissions are undeclared), or when a
    `github_token` from a secret (a PAT) is passed; with a read-only token the
    claim stays unverified (whether those users are trusted is not in the file).
    A step without either input is the action's default, which runs only for
    actors with write access.

    ## Why is this bad?
    Anyone who can open an issue can then steer the agent: prompt injection from
    any account. A read-only token limits what the agent can change; it does not
    limit who can trigger it, and the agent still reads the repository, runs
    tools and can post what it read.

    ## Example
    `allowed_non_write_users: "*"` on a workflow that runs on `issues: opened`,
    with `permissions: {contents: read, issues: write}`.

    ## Use instead
    Leave `allowed_non_write_users` unset (the action then requires write
    access), or name the few accounts allowed and pair them with read-only
    permissions.

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
            for job, index, uses, given, facts in _agent_steps(doc):
                steps += 1
                self._step(doc, job, index, uses, given, facts, findings)
        if steps == 0:
            findings.gap("none of the given workflows has an anthropics/claude-code-action step")

    def _step(self, doc: EvidenceDoc, job: str, index: int, uses: str,
              given: dict[str, object], facts: dict[str, Fact],
              findings: Findings) -> None:
        perms, declared = job_permissions(doc, job)
        token = str(given.get("github_token", ""))
        pat = "secrets." in token and "GITHUB_TOKEN" not in token
        writes = not declared or grants_write(perms, ("contents", "pull-requests"))
        token_says = _token_text(perms, declared, pat)
        on = _triggers(doc)
        step = f"job {job}, step {index + 1} ({uses})"
        opened = False
        for name in ("allowed_non_write_users", "allowed_bots"):
            value = given.get(name)
            if not value:
                continue
            who = ("any user, including users without write access to the repository,"
                   if name == "allowed_non_write_users" else "any bot or GitHub App")
            if str(value).strip() == "*":
                opened = True
                findings.refute(doc, facts.get(name),
                                f"{name}: \"*\" in {step} lets {who} trigger the agent "
                                f"(the workflow runs on {on}); {token_says}, which limits "
                                "what the agent can change, not who can trigger it")
            elif name == "allowed_non_write_users":
                opened = True
                if writes or pat:
                    findings.refute(doc, facts.get(name),
                                    f"{name}: {value!r} in {step} lets these users without "
                                    f"write access trigger the agent, and {token_says}")
                else:
                    findings.gap(f"{doc.path}:{facts[name].line}: {name}: {value!r} in "
                                 f"{step} lets these users without write access trigger "
                                 "the agent; whether they are trusted is not in the file")
        if not opened:
            findings.support(doc, ("jobs", job, "steps", index, "uses"),
                             f"{step} sets neither allowed_non_write_users nor "
                             "allowed_bots: the action then runs only for actors with "
                             "write access to the repository")


def _agent_steps(doc: EvidenceDoc) -> Iterator[
        tuple[str, int, str, dict[str, object], dict[str, Fact]]]:
    """Every claude-code-action step: job, index, ``uses``, its inputs and their facts."""
    inputs: dict[tuple[str, int], dict[str, object]] = {}
    facts: dict[tuple[str, int], dict[str, Fact]] = {}
    for fact in doc.fact_list("action-input"):
        job, step, uses, name, value = fact.value
        if uses.startswith(ACTION):
            inputs.setdefault((job, step), {})[name] = value
            facts.setdefault((job, step), {})[name] = fact
    for job, body in as_dict(doc.get("jobs")).items():
        for i, step in enumerate(as_list(as_dict(body).get("steps"))):
            uses = str(step.get("uses", "")) if isinstance(step, dict) else ""
            if uses.startswith(ACTION):
                yield job, i, uses, inputs.get((job, i), {}), facts.get((job, i), {})


def _token_text(perms: object, declared: bool, pat: bool) -> str:
    """What the job's token may do, as the file shows it."""
    if pat:
        return "the step is given a personal access token (github_token from a secret)"
    if not declared:
        return ("the job declares no permissions, so its token gets the repository's "
                "default permissions")
    if isinstance(perms, dict):
        scopes = ", ".join(f"{k}: {v}" for k, v in perms.items())
        return f"the job's token has {scopes}"
    return f"the job's token has permissions {perms}"


def _triggers(doc: EvidenceDoc) -> str:
    names = sorted({str(f.value) for f in doc.fact_list("trigger")})
    return ", ".join(names) if names else "no trigger the file names"
