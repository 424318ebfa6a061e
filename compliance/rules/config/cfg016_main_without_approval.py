"""CFG016: agent changes can't reach main without human approval."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.rules.config._protection import KINDS, approval
from compliance.rules.config.base import ConfigRule
from compliance.rules.config.verdict import Findings


class MainWithoutApproval(ConfigRule):
    """Flags a claim that agent changes need human approval when no rule on the branch requires it.

    ## What it does
    Reads branch protection, rulesets and the `rules/branches` export. The
    claim holds when one source requires at least one approving review on the
    default branch through an active rule. It is refuted when no source does,
    or when an app (Integration) may bypass the requiring ruleset.
    `enforce_admins: false` or human bypass actors leave it UNVERIFIED.

    ## Why is this bad?
    Without a required review an agent token with write access can merge or
    push to main; a ruleset in `evaluate` mode only reports.

    ## Example
    A ruleset with `"enforcement": "evaluate"`; a `rules/branches` export with
    no `pull_request` rule.

    ## Use instead
    An active ruleset (or branch protection) with
    `required_approving_review_count >= 1` and no agent in `bypass_actors`.

    ## Sources
    GitHub REST docs: `GET …/rules/branches/{b}` "returns active rules only";
    `GET …/rulesets`: `enforcement`, `bypass_actors`.
    """

    code = "CFG016"
    name = "main-without-approval"
    reads: ClassVar[tuple[str, ...]] = KINDS
    export_hint = "export GET …/branches/{b}/protection or the active ruleset"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        result = approval(docs)
        for doc, fact, _owners in result.requiring:
            plural = "" if fact.value == 1 else "s"
            findings.support(doc, fact, f"{fact.key.rsplit('.', 1)[-1]} is {fact.value}: a "
                                        f"pull request needs at least {fact.value} approving "
                                        f"review{plural} before it can merge")
        if result.requiring:
            for doc, shown, message in result.confirmed:
                findings.support(doc, shown, message)
        for doc, where, message in result.missing:
            if not result.requiring or "bypass" in message:
                findings.refute(doc, where, message)
        for note in result.notes:
            if not result.requiring or "without its rules" not in note:
                findings.gap(note)
