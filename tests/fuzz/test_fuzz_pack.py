"""Fuzz the evidence pack: written from generated files and from a checked workspace
whose evidence paths are spelled in odd but valid ways, then read back.

The tool has no pack reader of its own; an auditor's is ``zipfile`` plus the manifest.
So the pack is read back here the way they would: every member but the manifest is
listed in ``manifest.json`` with its size and sha256, and the same input gives the
same bytes. `compliance build` itself (a few examples: each renders a PDF) runs on the
example workspace with one evidence path respelled.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import re
import zipfile

from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from compliance.diagnostics import UserError
from compliance.pipeline import load_and_check
from compliance.render.build import evidence_files
from compliance.render.pack import MANIFEST_NAME, build_pack
from tests.conftest import REPO
from tests.fuzz.harness import sandbox

REVIEWED = dt.date(2026, 11, 27)

segment = st.one_of(st.sampled_from(["evidence", "a b", "é", "x", "CODEOWNERS", "-", "~"]),
                    st.text(st.characters(blacklist_characters="/\\\x00",
                                          blacklist_categories=("Cs",)), min_size=1, max_size=8)
                    ).filter(lambda s: s not in (".", ".."))
pack_path = st.lists(segment, min_size=1, max_size=4).map("/".join).filter(
    lambda p: p != MANIFEST_NAME)


def read_back(pack: bytes) -> dict[str, bytes]:
    """The pack's members, after checking each against the manifest."""
    with zipfile.ZipFile(io.BytesIO(pack)) as zf:
        assert zf.testzip() is None
        members = {info.filename: zf.read(info) for info in zf.infolist()}
    listed = json.loads(members.pop(MANIFEST_NAME))
    assert [f["path"] for f in listed["files"]] == sorted(members)
    for entry in listed["files"]:
        data = members[entry["path"]]
        assert (entry["bytes"], entry["sha256"]) == (len(data), hashlib.sha256(data).hexdigest())
    return members


@given(files=st.dictionaries(pack_path, st.binary(max_size=200), max_size=6),
       system=st.text(max_size=20))
def test_pack_reads_back_what_was_packed(files: dict[str, bytes], system: str) -> None:
    pack = build_pack(files, system=system, reviewed=REVIEWED, generator="fuzz")
    assert read_back(pack) == files
    assert build_pack(files, system=system, reviewed=REVIEWED, generator="fuzz") == pack


#: The example's evidence paths, each file cited once.
EVIDENCE_YAML = REPO / "controls" / "evidence.yaml"
EXAMPLE_PATHS = [item["path"] for item in
                 YAML(typ="safe", pure=True).load(EVIDENCE_YAML.read_text("utf-8"))["evidence"]]


@st.composite
def respelled(draw: st.DrawFn, path: str) -> str:
    """``path`` spelled another way that names the same file: doubled or trailing slashes,
    ``./`` and ``x/..`` steps (or, sometimes, any text at all)."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=30))
    parts = path.split("/")
    out = [draw(st.sampled_from(["", "./", "././"]))]
    for i, part in enumerate(parts):
        out.append(part)
        if i < len(parts) - 1:
            out.append(draw(st.sampled_from(["/", "//", "/./", f"/../{part}/", "/x/../"])))
    out.append(draw(st.sampled_from(["", "", "/"])))
    return "".join(out)


@st.composite
def respelled_workspace(draw: st.DrawFn) -> tuple[str, str]:
    """(old path, new spelling) for one of the example's evidence items."""
    old = draw(st.sampled_from(EXAMPLE_PATHS))
    return old, draw(respelled(old))


def _respell(text: str, old: str, new: str) -> str:
    spelled = json.dumps(new, ensure_ascii=False)
    return re.sub(rf"(?m)^(\s*path: ){re.escape(old)}$", lambda m: m.group(1) + spelled, text)


@given(change=respelled_workspace())
def test_pack_of_the_example_with_a_respelled_evidence_path(change: tuple[str, str]) -> None:
    with sandbox(example=True) as box:
        rel = "controls/evidence.yaml"
        box.write(rel, _respell((box.ws / rel).read_text("utf-8"), *change))
        try:
            checked = load_and_check(box.ws, today=dt.date(2026, 12, 1))
        except UserError:
            return  # the model cannot be read at all: `check` exits 2, nothing is packed
        if checked.workspace.model is None:
            return  # the model has errors: `build` refuses, nothing is packed
        files = evidence_files(checked)
        pack = build_pack(files, system="fuzz", reviewed=REVIEWED, generator="fuzz")
        assert read_back(pack) == files


# Each example renders a PDF (seconds): few examples, and no shrinking (a failure here
# is shrunk by the pack test above, which runs the same inputs without the PDF).
@settings(max_examples=max(2, settings.default.max_examples // 6),
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(change=respelled_workspace())
def test_build_of_the_example_with_a_respelled_evidence_path(change: tuple[str, str]) -> None:
    with sandbox(example=True) as box:
        rel = "controls/evidence.yaml"
        box.write(rel, _respell((box.ws / rel).read_text("utf-8"), *change))
        box.run("build", str(box.ws), "--out", str(box.out / "built"), "--allow-findings",
                "--today", "2026-12-01")
