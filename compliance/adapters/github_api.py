"""GitHub REST API exports (JSON responses saved as evidence).

Each kind is recognised by the keys its endpoint returns:

- ``branch-protection``: ``GET /repos/{o}/{r}/branches/{b}/protection`` (its 404 body
  ``{"message": "Branch not protected"}`` is an export too: of no protection);
- ``rulesets``: ``GET /repos/{o}/{r}/rulesets`` (a list) or one ruleset
  (``GET …/rulesets/{id}`` or a ``.github/rulesets/*.json`` export);
- ``rules-branch``: ``GET /repos/{o}/{r}/rules/branches/{b}`` (active rules only);
- ``actions-permissions``: ``GET …/actions/permissions``, ``…/permissions/workflow``
  (``default_workflow_permissions``) and ``…/fork-pr-workflows-private-repos``;
- ``fork-pr-approval``: ``GET …/actions/permissions/fork-pr-contributor-approval``;
- ``environments``: ``GET /repos/{o}/{r}/environments`` (protection rules per environment).
"""

from __future__ import annotations

from typing import Any

from compliance.adapters.base import EvidenceDoc, KeyPath

BRANCH_PROTECTION = "branch-protection"
RULESETS = "rulesets"
RULES_BRANCH = "rules-branch"
ACTIONS_PERMISSIONS = "actions-permissions"
FORK_PR_APPROVAL = "fork-pr-approval"
ENVIRONMENTS = "environments"
KINDS = (BRANCH_PROTECTION, RULESETS, RULES_BRANCH, ACTIONS_PERMISSIONS, FORK_PR_APPROVAL,
         ENVIRONMENTS)

_ACTIONS_KEYS = frozenset({
    "allowed_actions", "default_workflow_permissions", "can_approve_pull_request_reviews",
    "run_workflows_from_fork_pull_requests", "require_approval_for_fork_pr_workflows",
    "send_write_tokens_to_workflows", "sha_pinning_required",
})


def detect(data: Any) -> str | None:
    """The API export kind these JSON contents are, or None."""
    if isinstance(data, dict):
        if "approval_policy" in data and len(data) <= 3:
            return FORK_PR_APPROVAL
        if "required_pull_request_reviews" in data or "enforce_admins" in data or (
            str(data.get("url", "")).endswith("/protection")
        ) or data.get("message") == "Branch not protected":
            return BRANCH_PROTECTION
        if "enforcement" in data and ("rules" in data or "target" in data):
            return RULESETS
        if isinstance(data.get("environments"), list):
            return ENVIRONMENTS
        if _ACTIONS_KEYS & set(data):
            return ACTIONS_PERMISSIONS
    if isinstance(data, list) and data and all(isinstance(x, dict) for x in data):
        if all("type" in x and "ruleset_id" in x for x in data):
            return RULES_BRANCH
        if all("enforcement" in x for x in data):
            return RULESETS
    return None


def build(kind: str, data: Any, positions: dict[KeyPath, tuple[int, int]],
          display_path: str) -> EvidenceDoc:
    doc = EvidenceDoc(kind, display_path, data, positions)
    if kind == RULESETS:
        sets = data if isinstance(data, list) else [data]
        for i, rs in enumerate(sets):
            prefix: tuple[str | int, ...] = (i,) if isinstance(data, list) else ()
            key = (*prefix, "name") if rs.get("name") else prefix
            doc.add_at("ruleset", (prefix, rs), *key)
    if kind == RULES_BRANCH:
        for i, rule in enumerate(data):
            doc.add_at("rule", rule, i, "type")
    return doc
