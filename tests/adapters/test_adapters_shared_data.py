"""Adapters over real third-party files in ../shared/data/agent-configs (skipped when absent).

Each expected fact was checked by reading the file (line numbers included).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compliance.adapters import UnrecognisedEvidence, parse_evidence


def _doc(shared_data: Path, rel: str):  # type: ignore[no-untyped-def]
    return parse_evidence(shared_data / "agent-configs" / rel, rel)


@pytest.mark.parametrize(
    ("rel", "kind", "scope"),
    [
        ("claude_settings/anthropics_examples_mdm_managed-settings.json", "claude-settings",
         "managed"),
        ("claude_settings/anthropics_examples_settings_settings-strict.json", "claude-settings",
         None),
        ("codex_config/1Panel-dev_CordysCRM_.codex_config.toml", "codex-config", None),
        ("copilot_setup_steps/ggml-org_llama.cpp_copilot-setup-steps.yml",
         "copilot-setup-steps", None),
        ("devcontainer_firewall/anthropics-claude-code_devcontainer.json", "devcontainer", None),
        ("devcontainer_firewall/anthropics-claude-code_init-firewall.sh", "shell", None),
        ("gha_workflows/anthropics-claude-code_claude.yml", "gha-workflow", None),
        ("git_codeowners/trailofbits_claude-code-devcontainer_CODEOWNERS", "codeowners", None),
        ("github_api_docs/GET_repos_actions_permissions_fork-pr-contributor-approval.example.json",
         "fork-pr-approval", None),
        ("github_api_docs/GET_repos_branches_BRANCH_protection.example.json",
         "branch-protection", None),
        ("github_api_docs/GET_repos_rules_branches_BRANCH.example.json", "rules-branch", None),
        ("github_api_docs/GET_repos_rulesets.example.json", "rulesets", None),
        ("github_api_docs/GET_repos_actions_permissions.example.json", "actions-permissions",
         None),
        ("github_rulesets/ARPA-H_.github_rulesets_main.json", "rulesets", None),
        ("isolation_runtime/firecracker_tests_framework_vm_config.json", "firecracker-config",
         None),
        ("isolation_runtime/k8s-agent-sandbox_firecracker-template.yaml", "kubernetes", None),
    ],
)
def test_each_sample_is_recognised(shared_data: Path, rel: str, kind: str,
                                   scope: str | None) -> None:
    doc = _doc(shared_data, rel)
    assert (doc.kind, doc.scope) == (kind, scope)


@pytest.mark.parametrize("rel", ["devcontainer_firewall/anthropics-claude-code_Dockerfile",
                                 "claude_settings/anthropics_examples_settings_README.md"])
def test_files_without_an_adapter_are_refused(shared_data: Path, rel: str) -> None:
    with pytest.raises(UnrecognisedEvidence):
        _doc(shared_data, rel)


def test_init_firewall_facts(shared_data: Path) -> None:
    doc = _doc(shared_data, "devcontainer_firewall/anthropics-claude-code_init-firewall.sh")
    assert [(f.value["chain"], f.value["target"], f.line) for f in doc.fact_list("policy")] == [
        ("INPUT", "DROP", 107), ("FORWARD", "DROP", 108), ("OUTPUT", "DROP", 109)]
    outs = [(f.value.get("proto"), f.value.get("dport"), f.value["target"], f.line)
            for f in doc.fact_list("rule") if f.value["chain"] == "OUTPUT"]
    assert outs == [("udp", "53", "ACCEPT", 29), ("tcp", "22", "ACCEPT", 33),
                    (None, None, "ACCEPT", 38), (None, None, "ACCEPT", 104),
                    (None, None, "ACCEPT", 113), (None, None, "ACCEPT", 116),
                    (None, None, "REJECT", 119)]
    assert [(f.value, f.line) for f in doc.fact_list("domain")] == [
        ("registry.npmjs.org", 68), ("api.anthropic.com", 69), ("sentry.io", 70),
        ("statsig.com", 71), ("marketplace.visualstudio.com", 72),
        ("vscode.blob.core.windows.net", 73), ("update.code.visualstudio.com", 74)]
    assert [f.line for f in doc.fact_list("github-meta")] == [45]


def test_devcontainer_facts(shared_data: Path) -> None:
    doc = _doc(shared_data, "devcontainer_firewall/anthropics-claude-code_devcontainer.json")
    assert [(f.value, f.line) for f in doc.fact_list("capability")] == [
        ("NET_ADMIN", 13), ("NET_RAW", 14)]
    assert [(f.value, f.line) for f in doc.fact_list("lifecycle-command")] == [
        (("postStartCommand", "sudo /usr/local/bin/init-firewall.sh"), 55)]
    assert doc.fact_list("network-host") == doc.fact_list("privileged") == []


def test_codex_configs(shared_data: Path) -> None:
    cordys = _doc(shared_data, "codex_config/1Panel-dev_CordysCRM_.codex_config.toml")
    assert [(f.key, f.value, f.line) for f in cordys.fact_list("network_access")] == [
        ("sandbox_workspace_write.network_access", False, 17)]
    platform = _doc(shared_data, "codex_config/1iveowl_PlatformPlatform_.codex_config.toml")
    assert [(f.value, f.line) for f in platform.fact_list("mcp_server")] == [
        ("aspire", 8), ("linear-server", 15)]
    assert platform.at("shell_environment_policy", "inherit").line == 2


def test_workflow_facts(shared_data: Path) -> None:
    doc = _doc(shared_data, "gha_workflows/anthropics-claude-code_claude.yml")
    assert [(f.value, f.line) for f in doc.fact_list("trigger")] == [
        ("issue_comment", 4), ("pull_request_review_comment", 6), ("issues", 8),
        ("pull_request_review", 10)]
    assert doc.fact_list("secret") == []
    check = _doc(shared_data, "gha_workflows/anthropics-claude-code_non-write-users-check.yml")
    assert [(f.value, f.line) for f in check.fact_list("secret")] == [
        (("allowed-non-write-check", "GITHUB_TOKEN"), 15)]


def test_kubernetes_samples(shared_data: Path) -> None:
    fc = _doc(shared_data, "isolation_runtime/k8s-agent-sandbox_firecracker-template.yaml")
    assert [(f.value["kind"], f.value["runtimeClassName"], f.line)
            for f in fc.fact_list("pod-spec")] == [("SandboxTemplate", "kata-fc", 31)]
    gv = _doc(shared_data, "isolation_runtime/k8s-agent-sandbox_openclaw-gvisor-template.yaml")
    assert [(f.value["runtimeClassName"], f.line) for f in gv.fact_list("pod-spec")] == [
        ("gvisor", 11)]
