"""CFG021: workflows use least-privilege tokens."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc, as_dict
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings


class WorkflowTokenNotLeastPrivilege(ConfigRule):
    """Flags a least-privilege claim: a workflow token that is write-all, or undeclared on write.

    ## What it does
    Refutes on `permissions: write-all` (top level or job), and on jobs with
    neither job nor top-level `permissions` when the
    `actions/permissions/workflow` export says `default_workflow_permissions:
    write`. Without that export, undeclared jobs leave the claim UNVERIFIED.

    ## Why is this bad?
    The default token of older repositories can write contents, packages and
    pull requests; a compromised step inherits all of it.

    ## Example
    A job with no `permissions:` in a repository whose default is `write`.

    ## Use instead
    `permissions: {contents: read}` at the top level; widen per job.

    ## Sources
    GitHub docs: "If you specify the access for any of these scopes, all of those
    that are not specified are set to none."
    """

    code = "CFG021"
    name = "workflow-token-not-least-privilege"
    reads: ClassVar[tuple[str, ...]] = ("gha-workflow", "copilot-setup-steps",
                                        "actions-permissions")
    export_hint = "give the workflows and GET …/actions/permissions/workflow"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        default = None
        for doc in of_kind(docs, "actions-permissions"):
            fact = doc.at("default_workflow_permissions")
            if fact is not None:
                default = (doc, fact)
        workflows = of_kind(docs, "gha-workflow", "copilot-setup-steps")
        if not workflows:
            findings.gap("no workflows given")
        for doc in workflows:
            top = doc.at("permissions")
            if top is not None and top.value == "write-all":
                findings.refute(doc, top, "permissions: write-all")
            for job in as_dict(doc.get("jobs")):
                perms = doc.at("jobs", job, "permissions")
                if perms is not None and perms.value == "write-all":
                    findings.refute(doc, perms, f"job {job} has permissions: write-all")
                elif (declared := perms or top) is not None:
                    where = "the job" if perms is not None else "the workflow"
                    findings.support(doc, declared, f"job {job}'s token gets "
                                     f"{_scopes(declared.value)} (declared on {where})")
                elif default is None:
                    findings.gap(f"{doc.path}:{doc.line('jobs', job)}: job {job} declares no "
                                 "permissions and the repository default is not exported "
                                 "(GET …/actions/permissions/workflow)")
                elif default[1].value == "write":
                    findings.refute(doc, ("jobs", job), f"job {job} declares no permissions and "
                                    f"the repository default is write ({default[0].path})")
                else:
                    findings.support(default[0], default[1], f"job {job} declares no "
                                     "permissions and the repository default is read")


def _scopes(perms: object) -> str:
    """``contents: read, pull-requests: write`` as the file declares them."""
    if isinstance(perms, dict):
        return ", ".join(f"{k}: {v}" for k, v in perms.items()) or "no permissions ({})"
    return f"permissions {perms}"
