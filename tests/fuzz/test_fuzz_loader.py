"""Fuzz the loader: `compliance check` over generated and mutated model files.

``check`` runs ``load_workspace`` and, when the model loads, every rule. Inputs: the
example workspace with one of its ``controls/*.yaml`` files edited (text edits and
shape changes), and a small workspace given a generated model file (random YAML in
the model's own words, or text in YAML's alphabet).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml import YAML

from tests.conftest import REPO
from tests.fuzz.harness import sandbox
from tests.fuzz.strategies import mutated, tree_mutated, trees, vocabulary, yaml_text, yamlish_text
from tests.workspaces import CONTROL, SYSTEM

MODEL_FILES = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "controls").glob("*.yaml"))
FORMATS = st.sampled_from(["text", "json", "sarif", "github"])


def _data(rel: str) -> object:
    return YAML(typ="safe", pure=True).load((REPO / rel).read_text(encoding="utf-8"))


MODEL_WORDS = sorted({w for rel in MODEL_FILES for w in vocabulary(_data(rel))})


@given(rel=st.sampled_from(MODEL_FILES), data=st.data(), fmt=FORMATS)
def test_check_on_an_edited_example_model_file(rel: str, data: st.DataObject, fmt: str) -> None:
    text = data.draw(mutated((REPO / rel).read_text(encoding="utf-8")), label="text")
    with sandbox(example=True) as box:
        box.write(rel, text)
        box.run("check", str(box.ws), "--format", fmt, "--today", "2026-12-01")


@given(rel=st.sampled_from(MODEL_FILES), data=st.data(), fmt=FORMATS)
def test_check_on_a_reshaped_example_model_file(rel: str, data: st.DataObject, fmt: str) -> None:
    text = yaml_text(data.draw(tree_mutated(_data(rel)), label="tree"))
    with sandbox(example=True) as box:
        box.write(rel, text)
        box.run("check", str(box.ws), "--format", fmt, "--today", "2026-12-01")


@given(text=st.one_of(trees(MODEL_WORDS).map(yaml_text), yamlish_text(),
                      st.text(max_size=200)),
       name=st.sampled_from(["controls/extra.yaml", "controls/sub/extra.yml",
                             "compliance.yaml", "waivers.yaml"]))
def test_check_on_a_generated_model_file(text: str, name: str) -> None:
    with sandbox() as box:
        box.write("controls/system.yaml", SYSTEM)
        box.write("controls/isolation.yaml", CONTROL)
        box.write(name, text)
        box.run("check", str(box.ws), "--format", "json")
