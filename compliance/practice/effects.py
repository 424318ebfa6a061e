"""How controls of each kind act on attacker needs: they stop a need, or make it harder.

"Stops" means the control, as its kind claims, denies the need outright
within its stated limits (a default-deny firewall denies a connection to an
unknown host). "Hardens" means the need stays possible but costs the
attacker something (an allowlist still lets data reach the allowed hosts;
required review still approves what it is shown). A kind that does not act
on a need is absent from its row. A workspace adds or replaces rows with
``tabletop_effects`` in compliance.yaml.
"""

from __future__ import annotations

from typing import Literal

from compliance.model import Model
from compliance.model.practice import Need

Effect = Literal["stops", "hardens"]
STOPS: Effect = "stops"
HARDENS: Effect = "hardens"

_N = Need
_ISOLATION_VM: dict[Need, Effect] = {
    _N.ESCAPE_ISOLATION: STOPS, _N.REACH_OTHER_SESSIONS: HARDENS,
    _N.PERSIST_AFTER_SESSION: HARDENS, _N.RUN_UNTRUSTED_CODE: HARDENS}
_ISOLATION_CONTAINER: dict[Need, Effect] = {
    _N.ESCAPE_ISOLATION: HARDENS, _N.REACH_OTHER_SESSIONS: HARDENS,
    _N.RUN_UNTRUSTED_CODE: HARDENS}
_OS_SANDBOX: dict[Need, Effect] = {
    _N.WRITE_OUTSIDE_REPOSITORY: STOPS, _N.RUN_UNTRUSTED_CODE: HARDENS,
    _N.ESCAPE_ISOLATION: HARDENS, _N.CONNECT_TOOL: HARDENS}
_DEFAULT_DENY: dict[Need, Effect] = {_N.EGRESS_TO_HOST: STOPS}
_ALLOWLIST: dict[Need, Effect] = {
    _N.EGRESS_TO_HOST: STOPS, _N.EGRESS_VIA_ALLOWED_DESTINATION: HARDENS,
    _N.INSTALL_DEPENDENCY: HARDENS}
_NO_SECRETS: dict[Need, Effect] = {_N.READ_SECRET: STOPS}
_PROXY: dict[Need, Effect] = {_N.READ_SECRET: STOPS, _N.USE_STOLEN_TOKEN: HARDENS,
                               _N.PUSH_BRANCH: HARDENS}
_CODE_OWNERS: dict[Need, Effect] = {
    _N.WRITE_WORKFLOW_FILE: STOPS, _N.MERGE_WITHOUT_REVIEW: STOPS}
_BRANCH_PROTECTION: dict[Need, Effect] = {
    _N.MERGE_WITHOUT_REVIEW: STOPS, _N.WRITE_WORKFLOW_FILE: HARDENS}
_BRANCH_ONLY: dict[Need, Effect] = {_N.PUSH_BRANCH: HARDENS, _N.MERGE_WITHOUT_REVIEW: HARDENS}
_APPROVAL: dict[Need, Effect] = {_N.RUN_BEFORE_APPROVAL: STOPS}
_TOKENS: dict[Need, Effect] = {_N.USE_WORKFLOW_SECRETS: HARDENS}
_LOGGING: dict[Need, Effect] = {_N.GO_UNLOGGED: HARDENS}

#: Control kind -> need -> effect. Kinds follow compliance.rules.config.KIND_CHECKS
#: and the limit table (compliance.rules.model.limits.REQUIRED_LIMITS).
KIND_EFFECTS: dict[str, dict[Need, Effect]] = {
    "microvm-isolation": _ISOLATION_VM,
    "firecracker": _ISOLATION_VM,
    "gvisor": _ISOLATION_CONTAINER,
    "gvisor-isolation": _ISOLATION_CONTAINER,
    "container-isolation": _ISOLATION_CONTAINER,
    "os-sandbox": _OS_SANDBOX,
    "workspace-only-writes": {_N.WRITE_OUTSIDE_REPOSITORY: STOPS},
    "no-bypass-mode": {_N.RUN_UNTRUSTED_CODE: HARDENS},
    "egress-default-deny": _DEFAULT_DENY,
    "no-network-interface": {_N.EGRESS_TO_HOST: STOPS,
                             _N.EGRESS_VIA_ALLOWED_DESTINATION: HARDENS},
    "codex-no-network": _DEFAULT_DENY,
    "copilot-firewall": _ALLOWLIST,
    "egress-allowlist": _ALLOWLIST,
    "unknown-hosts-blocked": _DEFAULT_DENY,
    "env-secrets": _NO_SECRETS,
    "secrets-not-in-env": _NO_SECRETS,
    "shell-env-filtered": {_N.READ_SECRET: HARDENS},
    "credential-proxy": _PROXY,
    "credential-files": _NO_SECRETS,
    "credential-files-unreadable": _NO_SECRETS,
    "branch-protection": _BRANCH_PROTECTION,
    "human-review": _CODE_OWNERS,
    "codeowners-review": _CODE_OWNERS,
    "agent-branch-only": _BRANCH_ONLY,
    "single-branch-push": _BRANCH_ONLY,
    "ci-approval": _APPROVAL,
    "workflow-approval": _APPROVAL,
    "privileged-workflows": {_N.RUN_BEFORE_APPROVAL: HARDENS},
    "least-privilege-tokens": _TOKENS,
    "workflow-permissions": _TOKENS,
    "deployment-approval": {_N.USE_WORKFLOW_SECRETS: HARDENS},
    "trusted-triggers": {_N.FOLLOW_INJECTED_INSTRUCTION: HARDENS},
    "change-gate": {_N.WRITE_WORKFLOW_FILE: HARDENS},
    "session-logging": _LOGGING,
    "session-logs": _LOGGING,
    "log-retention": {_N.ERASE_LOGS: HARDENS},
}


def effects_table(model: Model) -> dict[str, dict[Need, Effect]]:
    """The built-in table with the workspace's ``tabletop_effects`` rows laid over it."""
    table = dict(KIND_EFFECTS)
    for kind, row in (model.settings.tabletop_effects or {}).items():
        table[kind] = dict(row)
    return table
