"""Fuzz every evidence adapter, through `compliance check` so every config rule reads it too.

Each example is one evidence file in a small workspace whose single control cites it
(pinned to its current sha256, so nothing is stale) with ``verified_by`` naming every
configuration check: the adapter parses the file and every check evaluates the
result, whatever shape it has. Inputs per adapter family:

- seeds: the real files in ../shared/data/agent-configs (read at test time; the test is
  skipped, visibly, when that data is absent), edited as text or reshaped as data;
- small inputs built here: the example workspace's own evidence file of that family,
  a small file written here (MCP configuration, of which there is no real sample),
  and short generated files (data trees in the format, firewall-word scripts,
  CODEOWNERS lines).
"""

from __future__ import annotations

import functools
import json
import tomllib
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml import YAML

from compliance.adapters.jsonpos import parse_json
from compliance.rules.config import CONFIG_RULES
from tests.conftest import REPO
from tests.fuzz.harness import sandbox, shared_seeds
from tests.fuzz.strategies import (
    codeowners_files,
    json_text,
    mutated,
    shell_scripts,
    toml_text,
    tree_mutated,
    trees,
    vocabulary,
    yaml_text,
)
from tests.workspaces import SYSTEM, sha256

MCP = json.dumps({"mcpServers": {
    "github": {"command": "docker", "args": ["run", "-i", "--rm", "-e", "GITHUB_TOKEN",
                                             "ghcr.io/github/github-mcp-server"],
               "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
    "docs": {"type": "http", "url": "https://mcp.example.test/mcp",
             "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}},
}}, indent=2)


@dataclass(frozen=True)
class Family:
    """One adapter family: where its files live, what it is named, how it is written."""

    name: str
    shared: str | None  # folder under agent-configs (None: no real files of this family)
    suffixes: tuple[str, ...]
    path: str  # the file name under evidence/ (detection looks at it)
    fmt: str  # json | yaml | toml | text
    example: str | None = None  # the example workspace's own file of this family
    kind: str | None = None  # an explicit kind:, None to let detection decide
    built: str | None = None  # a small file of this family written here


FAMILIES = {
    f.name: f for f in (
        Family("claude-settings", "claude_settings", (".json",), "claude/settings.json", "json",
               "evidence/claude/managed-settings.json"),
        Family("claude-managed", "claude_settings", (".json",), "claude/managed.json", "json",
               "evidence/claude/managed-settings.json", kind="claude-managed-settings"),
        Family("codex-config", "codex_config", (".toml",), "codex/config.toml", "toml"),
        Family("codex-requirements", "codex_config", (".toml",), "codex/requirements.toml",
               "toml"),
        Family("devcontainer", "devcontainer_firewall", (".json",),
               "devcontainer/devcontainer.json", "json", "evidence/devcontainer/devcontainer.json"),
        Family("firewall-script", "devcontainer_firewall", (".sh",),
               "devcontainer/init-firewall.sh", "text", "evidence/devcontainer/init-firewall.sh"),
        Family("workflow", "gha_workflows", (".yml", ".yaml"), "github/workflows/agent.yml",
               "yaml", "evidence/github/workflows/ci.yml"),
        Family("copilot-setup-steps", "copilot_setup_steps", (".yml",),
               "github/workflows/copilot-setup-steps.yml", "yaml"),
        Family("github-api", "github_api_docs", (".json",), "github/api.json", "json",
               "evidence/github/branch-protection-main.json"),
        Family("rulesets", "github_rulesets", (".json",), "github/ruleset.json", "json",
               "evidence/github/ruleset-main.json"),
        Family("codeowners", "git_codeowners", (), "github/CODEOWNERS", "text",
               "evidence/github/CODEOWNERS"),
        Family("isolation-json", "isolation_runtime", (".json",), "isolation/vm_config.json",
               "json"),
        Family("isolation-yaml", "isolation_runtime", (".yaml",), "isolation/runtime.yaml",
               "yaml", "evidence/isolation/agent-session.yaml"),
        Family("mcp", None, (), "claude/.mcp.json", "json", built=MCP),
        Family("mcp-vscode", None, (), "vscode/.vscode/mcp.json", "json",
               built="// VS Code\n" + MCP.replace('"mcpServers"', '"servers"')),
    )
}

CONTROL = """\
controls:
  - id: FUZZ-01
    layer: isolation
    title: The control every configuration check reads
    status: deployed
    claim: Agent sessions run in single-use virtual machines.
    implementation: Each session boots a fresh VM that is destroyed at the end.
    evidence: [fuzzed]
    verified_by: [{checks}]
    limits: [model-open]
    residual_risk: A hypervisor escape would reach the host.
    owner: platform
evidence:
  - id: fuzzed
    path: {path}
    sha256: {sha}
    collected: 2026-11-27
    max_age_days: 90
{kind}"""


def check_evidence(family: Family, content: str) -> None:
    """`compliance check` on a workspace whose one control cites ``content``."""
    with sandbox() as box:
        path = box.write(f"evidence/{family.path}", content)
        box.write("controls/system.yaml", SYSTEM)
        box.write("controls/fuzz.yaml", CONTROL.format(
            checks=", ".join(CONFIG_RULES), path=json.dumps(family.path),
            sha=sha256(path.read_bytes()),
            kind=f"    kind: {family.kind}\n" if family.kind else ""))
        box.run("check", str(box.ws), "--format", "json", "--today", "2026-12-01")


def parse(fmt: str, text: str) -> Any:
    """The seed as data; a YAML stream is the list of its documents."""
    if fmt == "json":  # JSONC too: dev container files carry comments
        return parse_json(text, "seed", jsonc=True)[0]
    if fmt == "toml":
        return tomllib.loads(text)
    return list(YAML(typ="safe", pure=True).load_all(text))


def serialise(fmt: str, data: Any) -> str:
    if fmt == "yaml" and isinstance(data, list) and data:
        return "---\n".join(yaml_text(doc) for doc in data)
    return {"json": json_text, "yaml": yaml_text, "toml": toml_text}[fmt](data)


@functools.cache
def _example(rel: str) -> str:
    return (REPO / rel).read_text(encoding="utf-8")


@functools.cache
def variants(family: Family, seeds: tuple[str, ...]) -> st.SearchStrategy[str]:
    """Text edits of the seeds, and (for data formats) reshaped seeds and generated trees.

    Built once per family and seeds (each seed is parsed here), not once per example."""
    if not seeds:
        return generated(family)
    edited = st.sampled_from(seeds).flatmap(mutated)
    if family.fmt == "text":
        return edited
    parsed = [parse(family.fmt, s) for s in seeds]
    reshaped = st.sampled_from(parsed).flatmap(tree_mutated).map(
        lambda d: serialise(family.fmt, d))
    words = sorted({w for p in parsed for w in vocabulary(p)})
    fresh = trees(words).map(lambda d: serialise(family.fmt, d))
    return st.one_of(edited, reshaped, fresh)


def generated(family: Family) -> st.SearchStrategy[str]:
    """Short files of the family's format built from scratch."""
    if family.name == "firewall-script":
        return shell_scripts()
    if family.name == "codeowners":
        return codeowners_files()
    return trees([]).map(lambda d: serialise(family.fmt, d))


NAMES = sorted(FAMILIES)
SHARED = sorted(name for name, family in FAMILIES.items() if family.shared)


@pytest.mark.parametrize("name", SHARED)
@given(data=st.data())
def test_check_on_real_agent_configs_edited(name: str, data: st.DataObject) -> None:
    family = FAMILIES[name]
    assert family.shared
    seeds = tuple(text for _, text in shared_seeds(family.shared, *family.suffixes))
    check_evidence(family, data.draw(variants(family, seeds), label="evidence"))


@pytest.mark.parametrize("name", NAMES)
@given(data=st.data())
def test_check_on_small_built_inputs(name: str, data: st.DataObject) -> None:
    family = FAMILIES[name]
    own = ((_example(family.example),) if family.example else ()) + (
        (family.built,) if family.built else ())
    check_evidence(family, data.draw(st.one_of(variants(family, own), generated(family)),
                                     label="evidence"))
