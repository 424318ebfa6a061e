"""Each adapter's facts, with the lines they came from."""

from __future__ import annotations

from compliance.adapters import parse_text
from compliance.adapters.codeowners import owner_of


def _facts(doc, name):  # type: ignore[no-untyped-def]
    return [(f.value, f.line, f.column) for f in doc.fact_list(name)]


def test_json_positions_of_keys_and_items() -> None:
    doc = parse_text('{\n  "sandbox": {\n    "excludedCommands": ["git", "docker"]\n  }\n}',
                     ".claude/settings.json")
    assert doc.loc("sandbox") == (2, 3)
    assert doc.loc("sandbox", "excludedCommands", 1) == (3, 33)
    assert doc.at("sandbox", "excludedCommands", 0).key == "sandbox.excludedCommands[0]"


def test_codex_config_profiles_and_mcp_servers() -> None:
    doc = parse_text('model = "o3"\n\n[profiles.fast]\nsandbox_mode = "danger-full-access"\n\n'
                     '[mcp_servers."my.server"]\ncommand = "x"\n', "config.toml")
    assert doc.kind == "codex-config"
    assert [(f.key, f.value, f.line) for f in doc.fact_list("sandbox_mode")] == [
        ("profiles.fast.sandbox_mode", "danger-full-access", 4)]
    assert _facts(doc, "mcp_server") == [("my.server", 6, 1)]


def test_codex_requirements_by_content() -> None:
    doc = parse_text('allowed_sandbox_modes = ["read-only"]\n', "admin/codex.toml")
    assert doc.kind == "codex-requirements"


def test_workflow_triggers_checkouts_inputs_and_secrets() -> None:
    text = """on:
  workflow_run:
    workflows: [CI]
jobs:
  build:
    environment: prod
    steps:
      - uses: actions/checkout@v4
        with:
          ref: ${{ github.event.workflow_run.head_sha }}
      - run: make
        env:
          K: ${{ secrets.API_KEY }}
      - uses: ./.github/actions/local
"""
    doc = parse_text(text, ".github/workflows/x.yml")
    assert doc.kind == "gha-workflow"
    assert _facts(doc, "trigger") == [("workflow_run", 2, 3)]
    assert _facts(doc, "environment") == [(("build", "prod"), 6, 5)]
    assert _facts(doc, "pr-head-checkout") == [(("build", 0), 8, 9)]
    assert _facts(doc, "run-after-checkout") == [(("build", 1), 11, 9), (("build", 2), 14, 9)]
    assert _facts(doc, "secret") == [(("build", "API_KEY"), 13, 18)]


def test_workflow_on_as_list_and_string() -> None:
    assert _facts(parse_text("on: [push, pull_request_target]\njobs: {}\n", "a.yml"),
                  "trigger") == [("push", 1, 6), ("pull_request_target", 1, 12)]
    assert _facts(parse_text("on: push\njobs: {}\n", "b.yml"), "trigger") == [("push", 1, 1)]


def test_copilot_setup_steps_by_job_name() -> None:
    doc = parse_text("on: workflow_dispatch\njobs:\n  copilot-setup-steps:\n    steps: []\n",
                     "steps.yml")
    assert doc.kind == "copilot-setup-steps"


def test_devcontainer_run_args_and_commands() -> None:
    text = """{
  "image": "x",
  "runArgs": ["--cap-add", "NET_ADMIN,NET_RAW", "--network", "host", "--privileged"],
  "postCreateCommand": {"fw": ["sudo", "fw.sh"]},
  "mounts": [{"source": "/home/me/.aws", "target": "/root/.aws", "type": "bind"}],
}"""
    doc = parse_text(text, ".devcontainer/devcontainer.json")
    assert _facts(doc, "capability") == [("NET_ADMIN", 3, 15), ("NET_RAW", 3, 15)]
    assert _facts(doc, "network-host") == [("--network", 3, 49)]
    assert _facts(doc, "privileged") == [("--privileged", 3, 70)]
    assert _facts(doc, "lifecycle-command") == [(("postCreateCommand", "sudo fw.sh"), 4, 25)]
    assert _facts(doc, "mount") == [("source=/home/me/.aws,target=/root/.aws,type=bind", 5, 14)]


def test_shell_iptables_domains_and_commands() -> None:
    text = """#!/bin/bash
ALLOWED_DOMAINS=(pypi.org "files.pythonhosted.org")
iptables -A OUTPUT -p tcp --dport 443 \\
  -m set --match-set allowed dst -j ACCEPT
sudo iptables -P OUTPUT DROP  # default deny
"""
    doc = parse_text(text, "fw.sh")
    assert _facts(doc, "domain") == [("pypi.org", 2, 18), ("files.pythonhosted.org", 2, 28)]
    assert _facts(doc, "rule") == [({"chain": "OUTPUT", "target": "ACCEPT", "table": "filter",
                                     "proto": "tcp", "dport": "443", "set": "allowed",
                                     "set_dir": "dst"}, 3, 1)]
    assert _facts(doc, "policy") == [({"chain": "OUTPUT", "target": "DROP",
                                       "table": "filter"}, 5, 1)]


def test_codeowners_last_match_wins_and_patterns() -> None:
    doc = parse_text("* @all\n/.github/ @sec\n.github/workflows/\ndocs/*.md @docs\n",
                     ".github/CODEOWNERS")
    assert owner_of(doc, ".github/workflows/ci.yml") is None
    rule = owner_of(doc, ".github/dependabot.yml")
    assert rule is not None and (rule.value, rule.line) == (("/.github/", ("@sec",)), 2)
    owned = owner_of(doc, "docs/a.md")
    assert owned is not None and owned.line == 4
    other = owner_of(doc, "docs/sub/a.md")
    assert other is not None and other.line == 1


def test_kubernetes_pod_specs_and_runtime_classes() -> None:
    text = """apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  jobTemplate:
    spec:
      template:
        spec:
          runtimeClassName: gvisor
          containers: [{name: a, image: a}]
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: gvisor}
handler: runsc
"""
    doc = parse_text(text, "k8s.yaml")
    assert [(f.key, f.value["runtimeClassName"], f.line) for f in doc.fact_list("pod-spec")] == [
        ("[0].spec.jobTemplate.spec.template.spec.runtimeClassName", "gvisor", 9)]
    assert _facts(doc, "runtime-class") == [({"name": "gvisor", "handler": "runsc"}, 15, 1)]


def test_github_api_exports_by_content() -> None:
    kinds = [parse_text(text, name).kind for name, text in [
        ("a.json", '{"approval_policy": "all_external_contributors"}'),
        ("b.json", '{"required_pull_request_reviews": null}'),
        ("c.json", '[{"type": "pull_request", "ruleset_id": 1}]'),
        ("d.json", '{"name": "r", "enforcement": "active", "rules": []}'),
        ("e.json", '{"default_workflow_permissions": "read"}'),
        ("f.json", '{"total_count": 0, "environments": []}'),
        ("g.json", '{"boot-source": {}, "machine-config": {}}'),
        ("daemon.json", '{"runtimes": {}}'),
    ]]
    assert kinds == ["fork-pr-approval", "branch-protection", "rules-branch", "rulesets",
                     "actions-permissions", "environments", "firecracker-config",
                     "docker-daemon"]


def test_kubernetes_list_items_are_unpacked() -> None:
    text = """apiVersion: v1
kind: List
items:
  - apiVersion: node.k8s.io/v1
    kind: RuntimeClass
    metadata: {name: kata-fc}
    handler: kata-fc
"""
    doc = parse_text(text, "export.yaml")
    assert [(f.key, f.value["handler"], f.line) for f in doc.fact_list("runtime-class")] == [
        ("[0].items[0].handler", "kata-fc", 7)]


def test_generic_json_is_not_taken_for_claude_settings() -> None:
    import pytest

    from compliance.adapters import UnrecognisedEvidence

    with pytest.raises(UnrecognisedEvidence):
        parse_text('{"env": {"A": "1"}, "model": "x"}', "exports/app.json")
    with pytest.raises(UnrecognisedEvidence):
        parse_text('{"editor.formatOnSave": true}', ".vscode/settings.json")
    assert parse_text('{"env": {}}', "repo/.claude/settings.json").kind == "claude-settings"
    schema = '{"$schema": "https://json.schemastore.org/claude-code-settings.json"}'
    assert parse_text(schema, "exports/x.json").kind == "claude-settings"


def test_shell_quotes_subshells_and_multiline_arrays() -> None:
    text = """#!/bin/bash
gh_ranges=$(curl -s https://api.github.com/meta)
ALLOWED_DOMAINS=(
  "pypi.org"   # python
  files.pythonhosted.org
)
echo "a; iptables -P OUTPUT ACCEPT"
( sudo iptables -A OUTPUT -d 1.2.3.4 -j ACCEPT )
v=$(docker run --rm x)
"""
    doc = parse_text(text, "x.sh")
    assert _facts(doc, "domain") == [("pypi.org", 4, 4), ("files.pythonhosted.org", 5, 3)]
    assert _facts(doc, "policy") == []
    assert [(f.value["dst"], f.line) for f in doc.fact_list("rule")] == [("1.2.3.4", 8)]
    assert [(f.value, f.line) for f in doc.fact_list("command")
            if f.value[0] in ("curl", "docker")] == [
        (("curl", ["-s", "https://api.github.com/meta"]), 2), (("docker", ["run", "--rm", "x"]), 9)]
    assert _facts(doc, "github-meta") == [("api.github.com/meta", 2, 1)]


def test_copilot_setup_steps_keys_copilot_ignores() -> None:
    text = """on: workflow_dispatch
jobs:
  copilot-setup-steps:
    runs-on: ubuntu-latest
    env:
      TOKEN: x
    timeout-minutes: 90
    steps: []
  other:
    runs-on: ubuntu-latest
"""
    doc = parse_text(text, ".github/workflows/copilot-setup-steps.yml")
    assert [(f.key, f.value, f.line) for f in doc.fact_list("copilot-ignored")] == [
        ("jobs.copilot-setup-steps.env", "env is not honoured", 5),
        ("jobs.copilot-setup-steps.timeout-minutes",
         "timeout-minutes 90 is over the maximum of 59", 7),
        ("jobs.other", "job other (only copilot-setup-steps runs)", 9)]


def test_shell_stops_at_a_top_level_exit_and_skips_heredocs() -> None:
    text = """#!/bin/bash
[ -n "$SKIP" ] && exit 0
if [ -z "$X" ]; then
  exit 1
fi
cat > /etc/rules <<EOF
iptables -P OUTPUT ACCEPT
EOF
iptables -P OUTPUT ACCEPT
exit 0
iptables -A OUTPUT -j REJECT
"""
    doc = parse_text(text, "fw.sh")
    assert [(f.value["target"], f.line) for f in doc.fact_list("policy")] == [("ACCEPT", 9)]
    assert doc.fact_list("rule") == []
    assert _facts(doc, "exit") == [(["0"], 10, 1)]


def test_shell_iptables_inserts_negations_and_literal_variables() -> None:
    text = """#!/bin/bash
RESOLVER="10.96.0.10"
export ANY=0.0.0.0/0
ips=$(dig +short A pypi.org)
iptables -I OUTPUT -p udp -d "$RESOLVER" --dport 53 -j ACCEPT
iptables -I OUTPUT 3 ! -d ${ANY} -j ACCEPT
iptables -A OUTPUT -d "$ips" -m set ! --match-set allow src -j ACCEPT
"""
    doc = parse_text(text, "fw.sh")
    assert _facts(doc, "rule") == [
        ({"chain": "OUTPUT", "target": "ACCEPT", "table": "filter", "insert": 1,
          "proto": "udp", "dst": "10.96.0.10", "dport": "53"}, 5, 1),
        ({"chain": "OUTPUT", "target": "ACCEPT", "table": "filter", "insert": 3,
          "dst": "!0.0.0.0/0"}, 6, 1),
        ({"chain": "OUTPUT", "target": "ACCEPT", "table": "filter", "dst": "$ips",
          "set": "!allow", "set_dir": "src"}, 7, 1)]
    assert [f.value[0] for f in doc.fact_list("command")] == ["dig", "iptables", "iptables",
                                                              "iptables"]
