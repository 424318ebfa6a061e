"""CFG017: code owners must approve agent PRs."""

from __future__ import annotations

from typing import ClassVar

from compliance.adapters.base import EvidenceDoc
from compliance.adapters.codeowners import owner_of
from compliance.rules.config._protection import KINDS, approval
from compliance.rules.config.base import ConfigRule, of_kind
from compliance.rules.config.verdict import Findings

#: Paths whose changes decide what the agent and CI may do; one file under each.
AGENT_CONTROL_PATHS = (".github/workflows/ci.yml", ".claude/settings.json",
                       ".codex/config.toml", ".devcontainer/devcontainer.json")


class CodeownersReviewNotRequired(ConfigRule):
    """Flags a code-owner approval claim when protection or CODEOWNERS does not enforce it.

    ## What it does
    Requires an approval-requiring rule with `require_code_owner_review(s)`
    true, and a CODEOWNERS file that gives owners to `.github/workflows/**`,
    `.claude/**`, `.codex/**` and `.devcontainer/**` (last match wins).

    ## Why is this bad?
    An agent that can edit its own sandbox settings or a workflow, with only a
    generic review, can widen its own permissions.

    ## Example
    A CODEOWNERS whose last matching line for `.github/workflows/` has no owner.

    ## Use instead
    `/.github/workflows/ @security`, `/.claude/ @security` … plus
    `require_code_owner_reviews: true`.

    ## Sources
    GitHub REST docs: `required_pull_request_reviews.require_code_owner_reviews`;
    ruleset `pull_request` parameter `require_code_owner_review`.
    """

    code = "CFG017"
    name = "codeowners-review-not-required"
    reads: ClassVar[tuple[str, ...]] = (*KINDS, "codeowners")
    export_hint = "export the branch protection or ruleset, and CODEOWNERS"

    def judge(self, docs: list[EvidenceDoc], findings: Findings) -> None:
        if of_kind(docs, *KINDS):
            result = approval(docs)
            with_owners = [(doc, setting) for doc, _, setting in result.requiring
                           if setting is not None and setting.value is True]
            for doc, setting in with_owners:
                findings.support(doc, setting, "code-owner review is required")
            if not with_owners:
                for doc, count, owners_key in result.requiring:
                    findings.refute(doc, owners_key or count,
                                    "reviews are required but not from code owners")
                for doc, missing_at, message in result.missing:
                    findings.refute(doc, missing_at, message)
        else:
            findings.gap("no branch protection or ruleset export: nothing shows code-owner "
                         "review is required")
        owners = of_kind(docs, "codeowners")
        if not owners:
            findings.gap("no CODEOWNERS given")
        for doc in owners:
            for path in AGENT_CONTROL_PATHS:
                rule = owner_of(doc, path)
                if rule is None:
                    findings.refute(doc, None, f"no code owner for {path.rsplit('/', 1)[0]}/")
                else:
                    findings.support(doc, rule, f"{path.rsplit('/', 1)[0]}/ is owned by "
                                                f"{' '.join(rule.value[1])}")
