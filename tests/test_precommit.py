""".pre-commit-hooks.yaml, run by pre-commit's own `try-repo` on a temporary git repository.

pre-commit builds the hooks' environment the way a user's machine does (a
virtualenv with this repository and its dependencies pip-installed from the
package index), which takes about four minutes. CI runs it (`.ci/run` sets
COMPLIANCE_INSTALL_TESTS=1); elsewhere it is skipped with that reason, and
always when git is not installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.workspaces import copy_example

REPO = Path(__file__).resolve().parent.parent
HOOKS = YAML(typ="safe").load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


def test_hooks_are_declared_for_check_and_lint() -> None:
    assert [h["id"] for h in HOOKS] == ["compliance-check", "compliance-lint"]
    check, lint = HOOKS
    assert check["entry"] == "compliance check" and check["pass_filenames"] is False
    assert lint["entry"] == "compliance lint" and lint["language"] == "python"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e.test",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e.test"})


@pytest.mark.slow
def test_try_repo_runs_both_hooks(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed; pre-commit try-repo needs it")
    if os.environ.get("COMPLIANCE_INSTALL_TESTS") != "1":
        pytest.skip("pre-commit try-repo pip-installs the package from the index (about four "
                    "minutes); set COMPLIANCE_INSTALL_TESTS=1 to run it (CI does)")
    pytest.importorskip("pre_commit", reason="pre-commit is a test dependency: "
                                             "pip install -e '.[test]'")
    repo = copy_example(REPO, tmp_path / "repo")
    doc = repo / "docs" / "security.md"
    doc.parent.mkdir()
    doc.write_text("# Security\n\nOur sandbox makes the agent 100% safe.\n", encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "start")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}

    def try_repo() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(REPO),
                               "--all-files"], cwd=repo, env=env, capture_output=True,
                              text=True, timeout=900)

    first = try_repo()
    assert first.returncode == 1, first.stdout + first.stderr
    assert "compliance check" in first.stdout and "Passed" in first.stdout
    assert "compliance lint" in first.stdout and "Failed" in first.stdout
    assert "docs/security.md:3:" in first.stdout and "[CLM001]" in first.stdout
    doc.write_text("# Security\n\nThe sandbox narrows what an injected agent can reach.\n",
                   encoding="utf-8")
    _git(repo, "commit", "-qam", "honest")
    second = try_repo()
    assert second.returncode == 0, second.stdout + second.stderr
    assert "Failed" not in second.stdout
