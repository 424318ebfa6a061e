"""`compliance init` on the example's evidence and on real third-party configs.

Both are laid out as a repository would hold them (copied into a temporary
folder at test time; the real configs are read from ../shared/data and the
test is skipped visibly without them). Each claim init writes must come out of
`compliance check` exactly as init reported it: VERIFIED or UNVERIFIED for
deployed controls; a claim the files REFUTE is written as planned and named.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.pipeline import load_and_check

TODAY = dt.date(2026, 12, 1)
EXAMPLE_LAYOUT = {
    "claude/managed-settings.json": "exports/managed-settings.json",
    "devcontainer/devcontainer.json": ".devcontainer/devcontainer.json",
    "devcontainer/init-firewall.sh": ".devcontainer/init-firewall.sh",
    "github/CODEOWNERS": ".github/CODEOWNERS",
    "github/workflows/ci.yml": ".github/workflows/ci.yml",
    "github/workflows/sensitive-change-gate.yml": ".github/workflows/sensitive-change-gate.yml",
    "github/branch-protection-main.json": "exports/branch-protection-main.json",
    "github/ruleset-main.json": "exports/ruleset-main.json",
    "github/fork-pr-contributor-approval.json": "exports/fork-pr-contributor-approval.json",
    "github/actions-permissions-workflow.json": "exports/actions-permissions-workflow.json",
}
REAL_LAYOUT = {
    "claude_settings/anthropics_examples_settings_settings-bash-sandbox.json":
        ".claude/settings.json",
    "devcontainer_firewall/anthropics-claude-code_devcontainer.json":
        ".devcontainer/devcontainer.json",
    "devcontainer_firewall/anthropics-claude-code_init-firewall.sh":
        ".devcontainer/init-firewall.sh",
    "codex_config/1iveowl_PlatformPlatform_.codex_config.toml": ".codex/config.toml",
    "gha_workflows/anthropics-claude-code_claude.yml": ".github/workflows/claude.yml",
    "copilot_setup_steps/ggml-org_llama.cpp_copilot-setup-steps.yml":
        ".github/workflows/copilot-setup-steps.yml",
    "git_codeowners/trailofbits_claude-code-devcontainer_CODEOWNERS": "CODEOWNERS",
    "github_api_docs/GET_repos_branches_BRANCH_protection.example.json":
        "exports/branch-protection.json",
    "github_api_docs/GET_repos_actions_permissions_fork-pr-contributor-approval.example.json":
        "exports/fork-pr-contributor-approval.json",
}


def lay_out(src: Path, layout: dict[str, str], repo: Path) -> Path:
    for rel, dest in layout.items():
        target = repo / dest
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / rel, target)
    return repo


def init(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["init", *args, "--today", TODAY.isoformat()])
    return result.exit_code, result.stdout, result.stderr


def verdicts(workspace: Path) -> tuple[dict[str, str], list[str]]:
    checked = load_and_check(workspace, today=TODAY)
    codes = sorted({d.code for d in checked.result.findings if d.level.value == "error"})
    return {cid: v["status"] for cid, v in checked.result.verdicts.items()}, codes


def reported(stdout: str) -> dict[str, str]:
    """Control id -> the verdict init printed for its claim."""
    out = {}
    for line in stdout.splitlines():
        words = line.split()
        if len(words) >= 3 and words[0].split("-")[0] in (
                "ISO", "NET", "CRED", "GIT", "PIPE", "LOGS"):
            out[words[0]] = words[2].lower()
    return out


def planned(workspace: Path) -> set[str]:
    model = load_and_check(workspace, today=TODAY).workspace.model
    assert model is not None
    return {c.id for c in model.controls if c.status.value == "planned"}


def assert_check_agrees(workspace: Path, stdout: str) -> dict[str, str]:
    said = reported(stdout)
    got, errors = verdicts(workspace)
    assert set(said) == set(got)
    for cid, status in said.items():
        if status == "refuted":
            assert cid in planned(workspace)
            assert got[cid] == "unverified"  # planned: not checked, never verified
        else:
            assert got[cid] == status, cid
    assert "refuted" not in got.values()
    assert errors == ["INI001"]  # only the fields a person must fill
    return said


def test_init_on_the_example_evidence(repo: Path, tmp_path: Path) -> None:
    src = lay_out(repo / "evidence", EXAMPLE_LAYOUT, tmp_path / "repo")
    code, out, err = init(str(src))
    assert code == 0, err
    said = assert_check_agrees(src / "compliance-workspace", out)
    # the example's managed settings enforce the sandbox and its firewall denies by default
    assert said["ISO-01"] == "verified"
    assert said["NET-01"] == "verified"
    assert said["GIT-01"] == "verified"
    # naive claims the example's files contradict: writes outside the repository
    # (allowWrite /workspace and /tmp in managed settings) and no credentials.envVars
    assert {cid for cid, status in said.items() if status == "refuted"} == {"ISO-03", "CRED-01"}
    assert ("exports/managed-settings.json:27 sandbox.filesystem.allowWrite[0]: /workspace is "
            "relative to the managed settings folder, outside the repository") in out


def test_init_on_real_configs(shared_data: Path, tmp_path: Path) -> None:
    src = lay_out(shared_data / "agent-configs", REAL_LAYOUT, tmp_path / "repo")
    code, out, err = init(str(src))
    assert code == 0, err
    said = assert_check_agrees(src / "compliance-workspace", out)
    by_kind = {line.split()[1]: line.split()[2] for line in out.splitlines()
               if line.split()[:1] and line.split()[0] in said}
    # what a naive claim would say, and what these files say back
    assert by_kind["os-sandbox"] == "REFUTED"          # failIfUnavailable unset
    assert by_kind["egress-allowlist"] == "REFUTED"    # UDP/53 and TCP/22 to any host
    assert by_kind["codex-no-network"] == "REFUTED"    # MCP servers
    assert by_kind["mcp-servers"] == "REFUTED"
    assert by_kind["ci-approval"] == "REFUTED"          # first_time_contributors
    assert by_kind["egress-default-deny"] == "VERIFIED"
    assert ".devcontainer/init-firewall.sh:29 iptables: accepts UDP/53 to any host" in out
    assert ".codex/config.toml:15 mcp_servers.linear-server" in out


def _fill(workspace: Path) -> None:
    for path in (workspace / "controls").glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        text = text.replace('"FILL IN: the team or person who runs this control"',
                            "platform@example.test")
        text = text.replace('"FILL IN: the team or person accountable for this model"',
                            "security@example.test")
        text = text.replace('"FILL IN: what this model covers and what it does not, in plain '
                            'words"', "The agents that work on this repository.")
        text = text.replace('"FILL IN: the risk that remains with this control in place, '
                            'starting from its limits"', "A reviewer can approve a bad change.")
        path.write_text(text, encoding="utf-8")


def test_placeholders_fail_check_until_filled(repo: Path, tmp_path: Path) -> None:
    src = lay_out(repo / "evidence", EXAMPLE_LAYOUT, tmp_path / "repo")
    assert init(str(src))[0] == 0
    ws = src / "compliance-workspace"
    result = CliRunner().invoke(cli, ["check", str(ws)])
    assert result.exit_code == 1
    assert ("controls/system.yaml:6:10: error system owner is still the placeholder "
            "`compliance init` wrote; replace it with the team or person accountable for this "
            "model (only a person can answer this) [INI001]") in result.stdout
    _fill(ws)
    checked = load_and_check(ws, today=TODAY)
    assert [d for d in checked.result.findings if d.level.value == "error"] == []
    assert checked.ok


def test_never_overwrites_and_dry_run_writes_nothing(repo: Path, tmp_path: Path) -> None:
    src = lay_out(repo / "evidence", EXAMPLE_LAYOUT, tmp_path / "repo")
    code, out, _ = init(str(src), "--dry-run")
    assert code == 0
    assert "would write" in out and "  controls/network.yaml" in out
    assert not (src / "compliance-workspace").exists()
    existing = tmp_path / "ws"
    existing.mkdir()
    (existing / "keep.txt").write_text("mine", encoding="utf-8")
    code, out, err = init(str(src), "--out", str(existing))
    assert code == 2
    assert f"error: cannot write {existing}: it already exists; compliance init never " \
           "overwrites a workspace (choose another --out)" in err
    assert out == ""  # refused before the analysis, not after a page of it
    assert sorted(p.name for p in existing.iterdir()) == ["keep.txt"]


def test_two_runs_write_identical_bytes(repo: Path, tmp_path: Path) -> None:
    src = lay_out(repo / "evidence", EXAMPLE_LAYOUT, tmp_path / "repo")
    assert init(str(src), "--out", str(tmp_path / "a"))[0] == 0
    assert init(str(src), "--out", str(tmp_path / "b"))[0] == 0
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*"))
    assert files_a == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*"))
    for rel in files_a:
        if (tmp_path / "a" / rel).is_file():
            assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()


def test_a_failed_write_leaves_nothing(repo: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    src = lay_out(repo / "evidence", EXAMPLE_LAYOUT, tmp_path / "repo")
    calls = {"n": 0}
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        calls["n"] += 1
        if calls["n"] == 5:
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    code, _out, err = init(str(src), "--out", str(tmp_path / "ws"))
    assert code == 2
    assert f"error: cannot write {tmp_path / 'ws'}: No space left on device" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["repo"]


def test_unreadable_configuration_is_a_positioned_error(tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text('{\n  "sandbox": {,}\n}', "utf-8")
    code, _out, err = init(str(tmp_path))
    assert code == 1
    assert err.startswith(".claude/settings.json:2:15: error invalid JSON: expected a "
                          "double-quoted key [CFG100]\n")
    assert "nothing was written" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [".claude"]


def test_nothing_found(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("hello", encoding="utf-8")
    code, _out, err = init(str(tmp_path))
    assert code == 1
    assert f"error: no agent configuration found under {tmp_path}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"]


def test_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    code, _out, err = init(str(tmp_path / "nope"))
    assert code == 2
    assert "does not exist" in err


def test_the_workflow_token_claim_says_what_its_check_verifies(repo: Path, tmp_path: Path) -> None:
    """init wrote "Least-privilege workflow tokens" and a stance of "least-privilege tokens"
    for workflows granting pull-requests: write and id-token: write: CFG021 verifies that
    permissions are declared and none is write-all, not least privilege."""
    src = lay_out(repo / "evidence", EXAMPLE_LAYOUT, tmp_path / "repo")
    assert init(str(src), "--out", str(tmp_path / "ws"))[0] == 0
    text = (tmp_path / "ws" / "controls" / "pipeline.yaml").read_text(encoding="utf-8")
    assert "kind: least-privilege-tokens" in text  # (the kind's id is kept)
    assert "title: \"Workflow token permissions declared per workflow\"" in text
    assert "least-privilege tokens" not in text.casefold()
    assert "least privilege" not in text.casefold()


@pytest.mark.parametrize(("settings", "iso03"), [
    ('{\n  "permissions": {"defaultMode": "bypassPermissions"},\n'
     '  "sandbox": {"enabled": true, "allowUnsandboxedCommands": true}\n}\n', "refuted"),
    ('{\n  "permissions": {"defaultMode": "default"},\n'
     '  "sandbox": {"enabled": true, "allowUnsandboxedCommands": true}\n}\n', "unverified"),
    ('{\n  "permissions": {"defaultMode": "default"},\n'
     '  "sandbox": {"enabled": true, "allowUnsandboxedCommands": false}\n}\n', "verified"),
], ids=["bypass-and-unsandboxed", "unsandboxed-with-prompts", "neither"])
def test_workspace_only_writes_is_not_verified_when_commands_can_leave_the_sandbox(
        tmp_path: Path, settings: str, iso03: str) -> None:
    """A project whose settings let commands run outside the sandbox (and skip every
    prompt) does not write only inside the repository."""
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(settings, encoding="utf-8")
    code, out, err = init(str(tmp_path), "--dry-run")
    assert code == 0, err
    assert reported(out)["ISO-03"] == iso03
    if iso03 == "refuted":
        assert (".claude/settings.json:2 permissions.defaultMode: defaultMode is "
                "bypassPermissions (project scope): the Write and Edit tools write outside the "
                "working directories without asking") in out
        assert (".claude/settings.json:3 sandbox.allowUnsandboxedCommands: "
                "sandbox.allowUnsandboxedCommands is true (project scope): a command may retry "
                "outside the sandbox, and with permissions.defaultMode bypassPermissions "
                "(.claude/settings.json:2) nobody approves it; outside the sandbox it writes "
                "wherever the user can") in out


def test_default_deny_egress_is_written_with_what_the_firewall_still_allows(
        repo: Path, tmp_path: Path) -> None:
    """init's stance said "have default-deny network access" with no limit naming DNS,
    while the same scan found DNS accepted to any host."""
    src = lay_out(repo / "evidence", EXAMPLE_LAYOUT, tmp_path / "repo")
    assert init(str(src), "--out", str(tmp_path / "ws"))[0] == 0
    network = (tmp_path / "ws" / "controls" / "network.yaml").read_text(encoding="utf-8")
    limits = (tmp_path / "ws" / "controls" / "limits.yaml").read_text(encoding="utf-8")
    assert "limits: [model-channel-open, firewall-still-allows]" in network
    assert "topics: [dns-channel, allowed-destinations-receive-data]" in limits
    assert "firewall-allows-ssh" not in limits  # the example's firewall drops port 22


def test_default_deny_egress_names_ssh_when_the_firewall_accepts_it_to_any_host(
        repo: Path, tmp_path: Path) -> None:
    """The default-deny control's limits named DNS, the allowed hosts and the model API,
    and not SSH, while the firewall it was written from accepted port 22 to any host."""
    src = lay_out(repo / "evidence", EXAMPLE_LAYOUT, tmp_path / "repo")
    script = src / ".devcontainer" / "init-firewall.sh"
    text = script.read_text(encoding="utf-8")
    reject = "iptables -A OUTPUT -j REJECT"
    assert reject in text, "the example's firewall changed: update this edit"
    script.write_text(text.replace(reject, f"iptables -A OUTPUT -p tcp --dport 22 -j ACCEPT\n"
                                           f"{reject}"), encoding="utf-8")
    code, out, err = init(str(src), "--out", str(tmp_path / "ws"))
    assert code == 0, err
    network = (tmp_path / "ws" / "controls" / "network.yaml").read_text(encoding="utf-8")
    limits = (tmp_path / "ws" / "controls" / "limits.yaml").read_text(encoding="utf-8")
    egress = network.split("kind: egress-default-deny", 1)[1].split("  - id: ", 1)[0]
    assert "status: deployed" in egress  # CFG007: SSH is no hole in default deny, CFG008's
    assert "limits: [model-channel-open, firewall-still-allows, firewall-allows-ssh]" in egress
    assert ("  - id: firewall-allows-ssh\n    text: >\n      The firewall accepts SSH (TCP port "
            "22) to any host:") in limits
    assert "topics: [ssh-channel]" in limits
    assert_check_agrees(tmp_path / "ws", out)
