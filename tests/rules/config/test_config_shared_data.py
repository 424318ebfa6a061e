"""Verdicts over real third-party files in ../shared/data/agent-configs (skipped when absent).

Each expected verdict and line was checked by reading the file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compliance.adapters import parse_evidence
from compliance.rules.config import CONFIG_RULES, Status, Verdict

FIREWALL = "devcontainer_firewall/anthropics-claude-code_init-firewall.sh"
DEVCONTAINER = "devcontainer_firewall/anthropics-claude-code_devcontainer.json"


def _verdict(shared_data: Path, code: str, *rels: str) -> Verdict:
    docs = [parse_evidence(shared_data / "agent-configs" / rel, rel) for rel in rels]
    return CONFIG_RULES[code]().evaluate(docs)


def _refuting(v: Verdict) -> list[tuple[str, int, str]]:
    return [(Path(r.path).name, r.line, r.key) for r in v.refuting]


def test_init_firewall_allows_dns_and_ssh_to_any_host(shared_data: Path) -> None:
    v = _verdict(shared_data, "CFG008", FIREWALL, DEVCONTAINER)
    assert v.status is Status.REFUTED
    name = "anthropics-claude-code_init-firewall.sh"
    assert _refuting(v) == [
        (name, 29, "iptables"), (name, 33, "iptables"), (name, 45, "github-meta"),
        (name, 70, "domain"), (name, 71, "domain"), (name, 72, "domain"),
        (name, 73, "domain"), (name, 74, "domain")]
    assert v.refuting[0].message == "accepts UDP/53 to any host (DNS can tunnel data)"
    assert v.refuting[1].message == "accepts outbound --dport 22 (SSH) to any host"


def test_devcontainer_egress_is_default_deny(shared_data: Path) -> None:
    v = _verdict(shared_data, "CFG007", FIREWALL, DEVCONTAINER)
    assert v.status is Status.VERIFIED
    assert [(Path(r.path).name, r.line) for r in v.reasons] == [
        ("anthropics-claude-code_devcontainer.json", 55),
        ("anthropics-claude-code_init-firewall.sh", 109)]


def test_fork_pr_approval_example_refutes_ci_approval(shared_data: Path) -> None:
    v = _verdict(shared_data, "CFG019", "github_api_docs/"
                 "GET_repos_actions_permissions_fork-pr-contributor-approval.example.json")
    assert v.status is Status.REFUTED
    assert [(r.line, r.key, r.message) for r in v.refuting] == [
        (2, "approval_policy", "approval_policy is 'first_time_contributors': some outside "
                               "contributors' code runs without approval")]


def test_mdm_managed_settings_disable_bypass(shared_data: Path) -> None:
    v = _verdict(shared_data, "CFG003",
                 "claude_settings/anthropics_examples_mdm_managed-settings.json")
    assert v.status is Status.VERIFIED
    assert [(r.line, r.key) for r in v.reasons] == [
        (3, "permissions.disableBypassPermissionsMode")]


def test_bash_sandbox_example_lacks_fail_if_unavailable(shared_data: Path) -> None:
    v = _verdict(shared_data, "CFG001",
                 "claude_settings/anthropics_examples_settings_settings-bash-sandbox.json")
    assert v.status is Status.REFUTED
    assert [(r.line, r.message) for r in v.refuting] == [
        (1, "sandbox.failIfUnavailable is not set in any scope (default false); when the "
            "sandbox cannot start, commands run unsandboxed with a warning")]


@pytest.mark.parametrize(
    ("code", "rel", "status", "refuting"),
    [
        ("CFG010", "codex_config/1Panel-dev_CordysCRM_.codex_config.toml", "verified", []),
        ("CFG010", "codex_config/1iveowl_PlatformPlatform_.codex_config.toml", "refuted",
         [8, 15]),
        ("CFG015", "codex_config/1Panel-dev_CordysCRM_.codex_config.toml", "refuted", [1]),
        ("CFG015", "codex_config/1iveowl_PlatformPlatform_.codex_config.toml", "verified", []),
        ("CFG012", "copilot_setup_steps/ggml-org_llama.cpp_copilot-setup-steps.yml", "refuted",
         [33, 34, 36, 49]),
        ("CFG021", "copilot_setup_steps/ggml-org_llama.cpp_copilot-setup-steps.yml",
         "verified", []),
        ("CFG016", "github_rulesets/ARPA-H_.github_rulesets_main.json", "verified", []),
        ("CFG016", "github_api_docs/GET_repos_branches_BRANCH_protection.example.json",
         "verified", []),
        ("CFG016", "github_api_docs/GET_repos_rules_branches_BRANCH.example.json", "refuted",
         [1]),
        ("CFG016", "github_api_docs/GET_repos_rulesets.example.json", "unverified", []),
        ("CFG006", "isolation_runtime/firecracker_tests_framework_vm_config.json", "verified",
         []),
        ("CFG005", "isolation_runtime/firecracker_tests_framework_vm_config.json",
         "unverified", []),
        ("CFG005", "isolation_runtime/k8s-agent-sandbox_firecracker-template.yaml",
         "unverified", []),
        ("CFG004", "isolation_runtime/k8s-agent-sandbox_openclaw-gvisor-template.yaml",
         "unverified", []),
        ("CFG013", "isolation_runtime/k8s-agent-sandbox_openclaw-gvisor-template.yaml",
         "refuted", [49]),
        ("CFG022", "gha_workflows/anthropics-claude-code_claude.yml", "verified", []),
        ("CFG020", "gha_workflows/anthropics-claude-code_claude.yml", "verified", []),
        ("CFG023", "gha_workflows/anthropics-claude-code_non-write-users-check.yml",
         "verified", []),
        ("CFG021", "gha_workflows/anthropics-claude-code_non-write-users-check.yml",
         "verified", []),
    ],
)
def test_sample_verdicts(shared_data: Path, code: str, rel: str, status: str,
                         refuting: list[int]) -> None:
    v = _verdict(shared_data, code, rel)
    assert v.status is Status(status), v.message
    assert [r.line for r in v.refuting] == refuting


def test_codeowners_with_the_arpa_h_ruleset(shared_data: Path) -> None:
    v = _verdict(shared_data, "CFG017", "github_rulesets/ARPA-H_.github_rulesets_main.json",
                 "git_codeowners/trailofbits_claude-code-devcontainer_CODEOWNERS")
    assert v.status is Status.VERIFIED
    assert sorted({(Path(r.path).name, r.line) for r in v.reasons}) == [
        ("ARPA-H_.github_rulesets_main.json", 23),
        ("trailofbits_claude-code-devcontainer_CODEOWNERS", 2)]
