"""Does the default branch require an approving review? Shared by CFG016, CFG017, CFG018.

Sources: branch protection (``GET …/branches/{b}/protection``), rulesets
(a single ruleset with its ``rules``; the list endpoint omits rules) and
``GET …/rules/branches/{b}`` (active rules only, so a missing pull_request
rule there is conclusive).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Any

from compliance.adapters.base import EvidenceDoc, Fact, as_dict, as_int, as_list
from compliance.rules.config.base import of_kind

KINDS = ("branch-protection", "rulesets", "rules-branch")


@dataclass
class Approval:
    """Which sources require approval and which show none.

    ``requiring``: (file, the approval count's position, the code-owner setting or None when
    the file does not set it): a reason about code owners cites the code-owner key, not the
    count."""

    requiring: list[tuple[EvidenceDoc, Fact, Fact | None]] = field(default_factory=list)
    missing: list[tuple[EvidenceDoc, Fact | tuple[str | int, ...] | None, str]] = field(
        default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: What else the files show in favour (admins included, ruleset active, no bypass).
    confirmed: list[tuple[EvidenceDoc, Fact | tuple[str | int, ...], str]] = field(
        default_factory=list)


def _pr_rule(doc: EvidenceDoc, prefix: tuple[str | int, ...],
             rules: list[object]) -> tuple[Fact, int, Fact | None] | None:
    for i, rule in enumerate(as_list(rules)):
        if isinstance(rule, dict) and rule.get("type") == "pull_request":
            params = as_dict(rule.get("parameters"))
            count = as_int(params.get("required_approving_review_count"))
            at = doc.at(*prefix, i, "parameters", "required_approving_review_count") or doc.at(
                *prefix, i, "type")
            assert at is not None
            return at, count, doc.at(*prefix, i, "parameters", "require_code_owner_review")
    return None


_DEFAULT_NAMES = ("refs/heads/main", "refs/heads/master")


def targets_default_branch(ruleset: dict[str, Any]) -> bool | None:
    """Does a ruleset apply to the default branch? None when its conditions do not say."""
    if ruleset.get("target", "branch") != "branch":
        return False
    ref = as_dict(ruleset.get("conditions")).get("ref_name")
    if not isinstance(ref, dict):
        return None
    include, exclude = as_list(ref.get("include")), as_list(ref.get("exclude"))

    def hit(patterns: list[Any]) -> bool:
        return any(p in ("~DEFAULT_BRANCH", "~ALL") or any(
            fnmatch.fnmatchcase(name, str(p)) for name in _DEFAULT_NAMES) for p in patterns)

    return hit(include) and not hit(exclude)


def approval(docs: list[EvidenceDoc]) -> Approval:
    out = Approval()
    for doc in of_kind(docs, "branch-protection"):
        reviews = doc.at("required_pull_request_reviews")
        count_at = doc.at("required_pull_request_reviews", "required_approving_review_count")
        count = as_int(count_at.value) if count_at else 0
        if doc.get("message") == "Branch not protected":
            out.missing.append((doc, ("message",), "the branch is not protected"))
        elif reviews is None or not reviews.value:
            out.missing.append((doc, None, "no required_pull_request_reviews"))
        elif count < 1:
            out.missing.append((doc, count_at or reviews, "required_approving_review_count < 1"))
        else:
            owners = doc.at("required_pull_request_reviews", "require_code_owner_reviews")
            assert count_at is not None
            out.requiring.append((doc, count_at, owners))
            admins = doc.get("enforce_admins", "enabled")
            if admins is True:
                out.confirmed.append((doc, ("enforce_admins", "enabled"), "enforce_admins is "
                                      "true: the protection applies to administrators too"))
            if admins is False:
                out.notes.append(f"{doc.path}:{doc.line('enforce_admins')}: enforce_admins is "
                                 "false; an admin token bypasses protection (show the agent's "
                                 "token is not an admin's)")
    for doc in of_kind(docs, "rulesets"):
        for fact in doc.fact_list("ruleset"):
            prefix, rs = fact.value
            prefix = tuple(prefix)
            if "rules" not in rs:
                out.notes.append(f"{doc.path}:{fact.line}: ruleset {rs.get('name')!r} is a list "
                                 "entry without its rules; export GET /rulesets/{id}")
                continue
            found = _pr_rule(doc, (*prefix, "rules"), as_list(rs.get("rules")))
            if found is None:
                continue
            applies = targets_default_branch(rs)
            if applies is False:
                out.notes.append(f"{doc.path}:{fact.line}: ruleset {rs.get('name')!r} does not "
                                 "apply to the default branch")
                continue
            if applies is None:
                out.notes.append(f"{doc.path}:{fact.line}: ruleset {rs.get('name')!r} has no "
                                 "ref_name condition; show it applies to the default branch")
            at, count, owners = found
            enforcement = doc.at(*prefix, "enforcement")
            if enforcement is None or enforcement.value != "active":
                out.missing.append((doc, enforcement or fact, f"ruleset enforcement is "
                                    f"{enforcement.value if enforcement else 'unset'!r}, "
                                    "not active"))
                continue
            bypass = [b for b in as_list(rs.get("bypass_actors")) if isinstance(b, dict)]
            apps = [b for b in bypass if b.get("actor_type") == "Integration"]
            if apps:
                at_b = doc.at(*prefix, "bypass_actors")
                out.missing.append((doc, at_b, f"app {apps[0].get('actor_id')} may bypass the "
                                               "ruleset (an agent app in bypass_actors)"))
                continue
            if bypass:
                out.notes.append(f"{doc.path}:{doc.line(*prefix, 'bypass_actors')}: "
                                 "bypass_actors is not empty; show the agent is none of them")
            elif count >= 1:
                out.confirmed.append((doc, enforcement, f"ruleset {rs.get('name')!r} is "
                                      "active"))
                out.confirmed.append((doc, (*prefix, "bypass_actors") if doc.has(
                    *prefix, "bypass_actors") else enforcement, "bypass_actors is empty: "
                    "nobody may bypass the ruleset"))
            if count < 1:
                out.missing.append((doc, at, "required_approving_review_count < 1"))
            else:
                out.requiring.append((doc, at, owners))
    for doc in of_kind(docs, "rules-branch"):
        rules = doc.data if isinstance(doc.data, list) else []
        found = _pr_rule(doc, (), rules)
        if found is None:
            out.missing.append((doc, None, "no active pull_request rule applies to the branch"))
        elif found[1] < 1:
            out.missing.append((doc, found[0], "required_approving_review_count < 1"))
        else:
            out.requiring.append((doc, found[0], found[2]))
    return out
