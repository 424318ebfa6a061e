"""CFG020: privileged workflows never execute PR code."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.workflows import PRIVILEGED_TRIGGERS, grants_write, job_permissions
from compliance.rules.config._secrets import EPHEMERAL
from compliance.rules.config.base import ConfigRule
from compliance.rules.config.verdict import Findings


class PrivilegedWorkflowRunsPrCode(ConfigRule):
    """Flags a workflow that checks out PR head code under a privileged trigger and runs it.

    ## What it does
    For workflows on `pull_request_target` or `workflow_run`: a step that
    checks out the PR head (`ref: ${{ github.event.pull_request.head.sha }}`,
    `workflow_run.head_sha`, `gh pr checkout` …) followed by a `run` or
    local-action step, in a job with write permissions (declared, or undeclared
    and so the repository default) or secrets, refutes the claim.

    ## Why is this bad?
    This is the "pwn request": the PR's code runs with a write token and the
    repository's secrets.

    ## Example
    `on: pull_request_target` + `actions/checkout` with
    `ref: ${{ github.event.pull_request.head.sha }}` + `run: npm test`.

    ## Use instead
    Run PR code under `pull_request` (read-only, no secrets) and pass results to
    a privileged workflow as data.

    ## Sources
    GitHub docs: under `pull_request_target` the GITHUB_TOKEN gets read/write
    "even when it is triggered from a public fork"; `workflow_run` is "able to
    access secrets and write tokens".
    """

    code = "CFG020"
    name = "privileged-workflow-runs-pr-code"
    reads: ClassVar[tuple[str, ...]] = ("gha-workflow",)
    export_hint = "give the repository's .github/workflows/*.yml files"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        for doc in docs:
            privileged = [f for f in doc.fact_list("trigger") if f.value in PRIVILEGED_TRIGGERS]
            if not privileged:
                triggers = doc.fact_list("trigger")
                names = ", ".join(sorted({str(f.value) for f in triggers})) or "nothing"
                findings.support(doc, triggers[0] if triggers else None,
                                 f"the workflow triggers on {names}: neither "
                                 "pull_request_target nor workflow_run, so a fork's pull "
                                 "request does not get the base repository's write token or "
                                 "secrets here (a pull request from a branch of this "
                                 "repository, such as the agent's, still runs with its token "
                                 "and secrets)")
                continue
            checkouts = {f.value[0]: f for f in doc.fact_list("pr-head-checkout")}
            secrets = {f.value[0] for f in doc.fact_list("secret") if f.value[1] not in EPHEMERAL}
            for run in doc.fact_list("run-after-checkout"):
                job = run.value[0]
                perms, declared = job_permissions(doc, job)
                power = []
                if not declared or grants_write(perms):
                    power.append("write token" if declared else "default token permissions")
                if job in secrets or None in secrets:
                    power.append("secrets")
                if power:
                    co = checkouts.get(job)
                    findings.refute(doc, run, f"job {job} runs PR head code checked out at line "
                                              f"{co.line if co else '?'} under "
                                              f"{privileged[0].value} with {' and '.join(power)}")
            if not findings.refuted:
                findings.support(doc, privileged[0], f"{privileged[0].value} workflow does not "
                                                     "run checked-out PR code with privileges")
