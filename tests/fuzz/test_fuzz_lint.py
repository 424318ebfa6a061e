"""Fuzz `compliance lint` in every input format: Markdown, text, YAML, JSON, CSV, XLSX.

Prose seeds are this repository's own docs and example model; questionnaire seeds are
built here (tests/fuzz/questionnaires.py) or, in the ``shared`` variants, the real
questionnaires in ../shared/data (skipped visibly when absent).
"""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import REPO
from tests.fuzz.harness import sandbox
from tests.fuzz.questionnaires import questionnaire_inputs, shared_questionnaires
from tests.fuzz.strategies import mutated, trees, yaml_text, yamlish_text

pytestmark = pytest.mark.filterwarnings("ignore:Data Validation extension is not supported",
                                        "ignore:Duplicate name")

CLAIMS = [
    "The sandbox is 100% secure and stops prompt injection.",
    "Our allowlist is not comprehensive; allowed hosts still receive data.",
    '> "No internet means no data leaves." That is false: the model channel stays open.',
    "Q: Are secrets hidden from the agent?\nA: Yes, completely.",
    "# Isolation\n\n- escape is impossible\n- logs are complete and tamper-proof\n",
]


@functools.cache
def _repo_text(rel: str) -> str:
    return (REPO / rel).read_text(encoding="utf-8")


PROSE = ["README.md", "docs/architecture.md", "docs/rules-claims.md"]
YAML_SEEDS = ["controls/network.yaml", "controls/credentials.yaml", "compliance.yaml"]
JSON_SEEDS = ["evidence/claude/managed-settings.json", "evidence/github/ruleset-main.json"]


def _text_inputs(suffix: str) -> st.SearchStrategy[str]:
    if suffix in (".md", ".txt"):
        seeds = [_repo_text(p)[:3000] for p in PROSE] + CLAIMS
        return st.one_of(st.sampled_from(seeds).flatmap(mutated), st.text(max_size=300),
                         st.lists(st.sampled_from(CLAIMS), max_size=5).map("\n".join))
    if suffix == ".yaml":
        return st.one_of(st.sampled_from([_repo_text(p) for p in YAML_SEEDS]).flatmap(mutated),
                         yamlish_text(), trees(CLAIMS).map(yaml_text))
    return st.one_of(st.sampled_from([_repo_text(p) for p in JSON_SEEDS]).flatmap(mutated),
                     trees(CLAIMS).map(json.dumps))


def lint(suffix: str, content: bytes, *options: str) -> None:
    with sandbox() as box:
        path = box.write(f"input{suffix}", content)
        box.run("lint", str(path), *options)


@pytest.mark.parametrize("suffix", [".md", ".txt", ".yaml", ".json"])
@given(data=st.data(), fmt=st.sampled_from(["text", "json", "sarif", "github"]))
def test_lint_on_text_formats(suffix: str, data: st.DataObject, fmt: str) -> None:
    content = data.draw(_text_inputs(suffix), label="content")
    lint(suffix, content.encode("utf-8", "surrogatepass"), "--format", fmt)


QUESTIONNAIRES = [".csv", ".xlsx"]


@pytest.mark.parametrize("suffix", QUESTIONNAIRES)
@given(data=st.data(), column=st.sampled_from([None, "Answer", "Comments", "Question"]))
def test_lint_on_questionnaires(suffix: str, data: st.DataObject, column: str | None) -> None:
    content = data.draw(questionnaire_inputs(suffix, None), label="content")
    lint(suffix, content, *(["--column", column] if column else []), "--format", "json")


@pytest.mark.parametrize("suffix", [*QUESTIONNAIRES, ".json"])
@given(data=st.data())
def test_lint_on_real_questionnaires_edited(suffix: str, data: st.DataObject) -> None:
    content = data.draw(questionnaire_inputs(suffix, shared_questionnaires()), label="content")
    lint(suffix, content, "--format", "json")
