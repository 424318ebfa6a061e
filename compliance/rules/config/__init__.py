"""Claim-versus-configuration checks (CFG001-CFG027), one per row of config-checks.md.

Each check reads the evidence kinds it names and returns a three-state
:class:`~compliance.rules.config.verdict.Verdict` via
``evaluate(docs: list[EvidenceDoc])``. A control says which checks verify its
claim (``verified_by: [CFG007, ...]``) or lets :func:`checks_for_kind` infer
them from its kind via :data:`KIND_CHECKS`.
"""

from __future__ import annotations

from compliance.adapters.base import EvidenceDoc
from compliance.rules.base import Rule
from compliance.rules.config.base import ConfigRule
from compliance.rules.config.cfg001_sandbox_not_enforced import SandboxNotEnforced
from compliance.rules.config.cfg002_sandbox_reaches_host_services import (
    SandboxReachesHostServices,
)
from compliance.rules.config.cfg003_bypass_mode_allowed import BypassModeAllowed
from compliance.rules.config.cfg004_runtime_not_gvisor import RuntimeNotGvisor
from compliance.rules.config.cfg005_runtime_not_firecracker import RuntimeNotFirecracker
from compliance.rules.config.cfg006_sandbox_has_network_interface import (
    SandboxHasNetworkInterface,
)
from compliance.rules.config.cfg007_egress_not_default_deny import EgressNotDefaultDeny
from compliance.rules.config.cfg008_egress_allowlist_too_broad import EgressAllowlistTooBroad
from compliance.rules.config.cfg009_unknown_hosts_prompted import UnknownHostsPrompted
from compliance.rules.config.cfg010_codex_network_enabled import CodexNetworkEnabled
from compliance.rules.config.cfg011_writes_outside_repo import WritesOutsideRepo
from compliance.rules.config.cfg012_copilot_egress_unfirewalled import (
    CopilotEgressUnfirewalled,
)
from compliance.rules.config.cfg013_secrets_in_agent_env import SecretsInAgentEnv
from compliance.rules.config.cfg014_credential_files_readable import CredentialFilesReadable
from compliance.rules.config.cfg015_shell_inherits_secrets import ShellInheritsSecrets
from compliance.rules.config.cfg016_main_without_approval import MainWithoutApproval
from compliance.rules.config.cfg017_codeowners_review_not_required import (
    CodeownersReviewNotRequired,
)
from compliance.rules.config.cfg018_agent_token_can_push_default_branch import (
    AgentTokenCanPushDefaultBranch,
)
from compliance.rules.config.cfg019_ci_runs_before_approval import CiRunsBeforeApproval
from compliance.rules.config.cfg020_privileged_workflow_runs_pr_code import (
    PrivilegedWorkflowRunsPrCode,
)
from compliance.rules.config.cfg021_workflow_token_not_least_privilege import (
    WorkflowTokenNotLeastPrivilege,
)
from compliance.rules.config.cfg022_untrusted_users_trigger_agent import (
    UntrustedUsersTriggerAgent,
)
from compliance.rules.config.cfg023_secrets_without_environment_approval import (
    SecretsWithoutEnvironmentApproval,
)
from compliance.rules.config.cfg024_session_logs_not_central import SessionLogsNotCentral
from compliance.rules.config.cfg025_mcp_server_outside_sandbox import McpServerOutsideSandbox
from compliance.rules.config.cfg026_mcp_server_gets_secrets import McpServerGetsSecrets
from compliance.rules.config.cfg027_mcp_server_reaches_network_or_home import (
    McpServerReachesNetworkOrHome,
)
from compliance.rules.config.cfg100_unreadable_evidence import UnreadableEvidence
from compliance.rules.config.verdict import Findings, Reason, Status, Verdict

__all__ = ["CONFIG_FAMILY_RULES", "CONFIG_RULES", "KIND_CHECKS", "ConfigRule", "Findings",
           "Reason", "Status", "Verdict", "checks_for_kind", "evaluate"]

CONFIG_RULES: dict[str, type[ConfigRule]] = {
    rule.code: rule
    for rule in (
        SandboxNotEnforced, SandboxReachesHostServices, BypassModeAllowed, RuntimeNotGvisor,
        RuntimeNotFirecracker, SandboxHasNetworkInterface, EgressNotDefaultDeny,
        EgressAllowlistTooBroad, UnknownHostsPrompted, CodexNetworkEnabled, WritesOutsideRepo,
        CopilotEgressUnfirewalled, SecretsInAgentEnv, CredentialFilesReadable,
        ShellInheritsSecrets, MainWithoutApproval, CodeownersReviewNotRequired,
        AgentTokenCanPushDefaultBranch, CiRunsBeforeApproval, PrivilegedWorkflowRunsPrCode,
        WorkflowTokenNotLeastPrivilege, UntrustedUsersTriggerAgent,
        SecretsWithoutEnvironmentApproval, SessionLogsNotCentral, McpServerOutsideSandbox,
        McpServerGetsSecrets, McpServerReachesNetworkOrHome,
    )
}

#: Every rule of the config family for the engine: the 27 checks plus CFG100, which
#: reports cited evidence that no adapter can read.
CONFIG_FAMILY_RULES: dict[str, type[Rule]] = {**CONFIG_RULES, "CFG100": UnreadableEvidence}

#: A control's kind -> the checks that verify a claim of that kind (documented in
#: docs/rules-config.md). A control may instead list ``verified_by`` codes itself.
KIND_CHECKS: dict[str, tuple[str, ...]] = {
    "os-sandbox": ("CFG001", "CFG002"),
    "sandbox-host-services": ("CFG002",),
    "no-bypass-mode": ("CFG003",),
    "gvisor": ("CFG004",),
    "firecracker": ("CFG005",),
    "no-network-interface": ("CFG006",),
    "egress-default-deny": ("CFG007",),
    "egress-allowlist": ("CFG008", "CFG009"),
    "unknown-hosts-blocked": ("CFG009",),
    "codex-no-network": ("CFG010",),
    "workspace-only-writes": ("CFG011",),
    "copilot-firewall": ("CFG012",),
    "secrets-not-in-env": ("CFG013", "CFG015"),
    "credential-files-unreadable": ("CFG014",),
    "shell-env-filtered": ("CFG015",),
    "branch-protection": ("CFG016",),
    "codeowners-review": ("CFG017",),
    "agent-branch-only": ("CFG018",),
    "ci-approval": ("CFG019",),
    "privileged-workflows": ("CFG020",),
    "least-privilege-tokens": ("CFG021",),
    "trusted-triggers": ("CFG022",),
    "deployment-approval": ("CFG023",),
    "session-logs": ("CFG024",),
    "tools-inside-sandbox": ("CFG025",),
    "mcp-without-secrets": ("CFG026",),
    "mcp-local-only": ("CFG027",),
    "mcp-servers": ("CFG025", "CFG026", "CFG027"),
    # The same checks under the kind names the model's limit table uses
    # (compliance.rules.model.limits.REQUIRED_LIMITS) and the example workspace:
    "gvisor-isolation": ("CFG004",),
    "env-secrets": ("CFG013", "CFG015"),
    "credential-proxy": ("CFG013",),
    "credential-files": ("CFG014",),
    "human-review": ("CFG016", "CFG017"),
    "single-branch-push": ("CFG018",),
    "workflow-approval": ("CFG019", "CFG020"),
    "workflow-permissions": ("CFG021",),
    "session-logging": ("CFG024",),
}


def checks_for_kind(kind: str) -> list[str]:
    """The check codes that verify a control of this kind ([] when none applies)."""
    return list(KIND_CHECKS.get(kind, ()))


def evaluate(code: str, docs: list[EvidenceDoc]) -> Verdict:
    """Run one check by code over parsed evidence documents."""
    return CONFIG_RULES[code]().evaluate(docs)
