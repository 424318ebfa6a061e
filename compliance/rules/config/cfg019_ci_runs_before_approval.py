"""CFG019: CI never runs outside-contributor/agent code before a human approves it."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.workflows import PRIVILEGED_TRIGGERS
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings


class CiRunsBeforeApproval(ConfigRule):
    """Flags a "CI waits for a human" claim when approval policy or triggers let code run first.

    ## What it does
    Refutes when the `fork-pr-contributor-approval` export's `approval_policy`
    is not `all_external_contributors`, when the private-repo fork settings run
    fork workflows without `require_approval_for_fork_pr_workflows`, and for
    every workflow triggered by `pull_request_target` or `workflow_run`.
    Copilot's "run workflows automatically" switch has no export, so with
    `copilot-setup-steps.yml` in evidence the best verdict is UNVERIFIED.

    ## Why is this bad?
    `first_time_contributors` lets anyone who has contributed once run CI on
    their next PR; `pull_request_target` workflows "will always run, regardless
    of approval settings".

    ## Example
    `{"approval_policy": "first_time_contributors"}`.

    ## Use instead
    `approval_policy: all_external_contributors` and no privileged triggers.

    ## Sources
    GitHub docs: `pull_request_target` workflows "will always run, regardless of
    approval settings"; `workflow_run` is "able to access secrets and write
    tokens, even if the previous workflow was not".
    """

    code = "CFG019"
    name = "ci-runs-before-approval"
    reads: ClassVar[tuple[str, ...]] = ("fork-pr-approval", "actions-permissions",
                                        "gha-workflow", "copilot-setup-steps")
    export_hint = ("export GET …/actions/permissions/fork-pr-contributor-approval and the "
                   "repository's workflows")

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        approvals = of_kind(docs, "fork-pr-approval")
        for doc in approvals:
            policy = doc.at("approval_policy")
            if policy is not None and policy.value == "all_external_contributors":
                findings.support(doc, policy, "approval_policy is 'all_external_contributors': "
                                              "workflow runs for every outside contributor's "
                                              "pull request wait for a maintainer's approval")
            else:
                value = policy.value if policy else "unset"
                findings.refute(doc, policy, f"approval_policy is {value!r}: some outside "
                                             "contributors' code runs without approval")
        if not approvals:
            findings.gap("no fork-pr-contributor-approval export given")
        for doc in of_kind(docs, "actions-permissions"):
            runs = doc.at("run_workflows_from_fork_pull_requests")
            need = doc.at("require_approval_for_fork_pr_workflows")
            if runs is not None and runs.value is True and (need is None or need.value is False):
                findings.refute(doc, need or runs, "fork PR workflows run without approval")
        workflows = of_kind(docs, "gha-workflow", "copilot-setup-steps")
        for doc in workflows:
            for fact in doc.fact_list("trigger"):
                if fact.value in PRIVILEGED_TRIGGERS:
                    findings.refute(doc, fact, f"{fact.value} runs regardless of approval "
                                               "settings")
        if not findings.refuted:
            for doc in workflows:
                triggers = doc.fact_list("trigger")
                names = ", ".join(sorted({str(f.value) for f in triggers})) or "nothing"
                findings.support(doc, triggers[0] if triggers else None,
                                 f"the workflow triggers on {names}: neither "
                                 "pull_request_target nor workflow_run")
        if not workflows:
            findings.gap("no workflows given: privileged triggers cannot be ruled out")
        if of_kind(docs, "copilot-setup-steps"):
            findings.gap("Copilot's 'run workflows automatically' setting has no export")
