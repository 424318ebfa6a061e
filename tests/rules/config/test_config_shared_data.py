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
        # network_access = false, but approval_policy = "on-request" (line 4): the file's own
        # comment says networked commands go through approval, so the claim is not verified.
        ("CFG010", "codex_config/1Panel-dev_CordysCRM_.codex_config.toml", "unverified", []),
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
        # no automountServiceAccountToken in the pod template (Kubernetes' default: true)
        ("CFG013", "isolation_runtime/k8s-agent-sandbox_firecracker-template.yaml",
         "unverified", []),
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
        ("ARPA-H_.github_rulesets_main.json", 25),  # require_code_owner_review (not the count)
        ("trailofbits_claude-code-devcontainer_CODEOWNERS", 2)]


def _opened_to_anyone(shared_data: Path) -> list[tuple[str, int]]:
    """(file, line) of every ``allowed_non_write_users: "*"`` in the shared workflows, found
    by reading the text (not through the adapter the check uses)."""
    found = []
    for path in sorted((shared_data / "agent-configs" / "gha_workflows").glob("*.y*ml")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            key, _, value = line.strip().partition(":")
            if key == "allowed_non_write_users" and value.strip().strip("'\"") == "*":
                found.append((f"gha_workflows/{path.name}", number))
    return found


def test_a_real_workflow_open_to_any_user_is_refuted(shared_data: Path) -> None:
    opened = _opened_to_anyone(shared_data)
    if not opened:
        pytest.skip("no workflow in ../shared/data/agent-configs/gha_workflows sets "
                    "allowed_non_write_users: \"*\" (anthropics/claude-code's "
                    "claude-dedupe-issues.yml does); the fixture case in CFG022.yml covers it")
    for rel, line in opened:
        v = _verdict(shared_data, "CFG022", rel)
        assert v.status is Status.REFUTED, (rel, v.message)
        assert line in [r.line for r in v.refuting], (rel, v.message)
        assert "not who can trigger it" in v.message
        assert "only users with write access" not in v.message


def test_a_real_workflow_with_the_default_trust_says_what_it_shows(shared_data: Path) -> None:
    v = _verdict(shared_data, "CFG022", "gha_workflows/anthropics-claude-code_claude.yml")
    assert v.status is Status.VERIFIED
    assert [(r.line, r.key) for r in v.reasons] == [(34, "jobs.claude.steps[1].uses")]
    assert v.reasons[0].message == (
        "job claude, step 2 (anthropics/claude-code-action@v1) sets neither "
        "allowed_non_write_users nor allowed_bots: the action then runs only for actors with "
        "write access to the repository")


def test_codex_mcp_servers_run_outside_the_sandbox_and_one_is_remote(shared_data: Path) -> None:
    rel = "codex_config/1iveowl_PlatformPlatform_.codex_config.toml"
    name = "1iveowl_PlatformPlatform_.codex_config.toml"
    outside = _verdict(shared_data, "CFG025", rel)
    assert outside.status is Status.REFUTED
    assert _refuting(outside) == [(name, 8, "mcp_servers.aspire"),
                                  (name, 15, "mcp_servers.linear-server")]
    network = _verdict(shared_data, "CFG027", rel)
    assert _refuting(network) == [(name, 15, "mcp_servers.linear-server")]
    assert network.refuting[0].message == (
        "MCP server linear-server is remote (https://mcp.linear.app/mcp): tool calls and their "
        "data go over the network")
    assert _verdict(shared_data, "CFG026", rel).status is Status.VERIFIED


def test_codex_tools_per_agent_is_unknown_for_servers_exposing_every_tool(
        shared_data: Path) -> None:
    from compliance.adapters.mcp import ToolCount, tools_per_agent

    rel = "codex_config/1iveowl_PlatformPlatform_.codex_config.toml"
    doc = parse_evidence(shared_data / "agent-configs" / rel, rel)
    assert tools_per_agent([doc]) == {
        "codex": ToolCount(("codex",), 2, None, ("aspire", "linear-server"))}
