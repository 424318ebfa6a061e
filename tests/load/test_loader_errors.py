"""Every kind of bad model input gives a positioned error; unreadable files exit 2."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.diagnostics import UserError
from compliance.load import load_workspace
from tests.workspaces import CONTROL, SYSTEM, minimal


def findings(root: Path) -> list[str]:
    ws = load_workspace(root)
    return [f"{d.path}:{d.line}:{d.column}: {d.message} [{d.code}]" for d in ws.findings]


def unreadable(root: Path) -> list[str]:
    with pytest.raises(UserError) as info:
        load_workspace(root)
    return [f"{d.path}:{d.line}:{d.column}: {d.message} [{d.code}]"
            for d in info.value.diagnostics]


def test_clean_workspace_has_a_model(tmp_path: Path) -> None:
    ws = load_workspace(minimal(tmp_path))
    assert ws.findings == []
    assert ws.model is not None and [c.id for c in ws.model.controls] == ["ISO-01"]


def test_yaml_syntax_error_is_unreadable(tmp_path: Path) -> None:
    minimal(tmp_path, controls__bad="")  # placeholder so the dict is built
    (tmp_path / "controls/bad").unlink()
    (tmp_path / "controls/broken.yaml").write_text("controls:\n  - id: [X\n    layer: git\n")
    assert unreadable(tmp_path) == [  # at the '[' that is never closed, not where it ended
        "controls/broken.yaml:2:9: YAML syntax error: this '[' is never closed (did not find "
        "expected ',' or ']' at line 3, column 10) [YML001]"]


@pytest.mark.parametrize(("text", "expected"), [
    ("title: {a: 1\n", "1:8: YAML syntax error: this '{' is never closed (did not find "
                       "expected ',' or '}' at the end of the file)"),
    ('title: "abc\n', "1:8: YAML syntax error: this quote is never closed (found unexpected "
                      "end of stream at the end of the file)"),
    ("a:\n  - b\n c: d\n", "3:2: YAML syntax error: did not find expected key while "
                           "parsing a block mapping"),
])
def test_unclosed_openers_point_at_the_opener(tmp_path: Path, text: str, expected: str) -> None:
    minimal(tmp_path, **{"controls/broken.yaml": text})
    assert unreadable(tmp_path) == [f"controls/broken.yaml:{expected} [YML001]"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32",
                                      "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_are_named(tmp_path: Path, encoding: str) -> None:
    minimal(tmp_path, **{"controls/wide.yaml": "controls: []\n".encode(encoding)})
    assert unreadable(tmp_path) == [
        "controls/wide.yaml:1:1: UTF-16/UTF-32 text: save the YAML file as UTF-8 [YML001]"]


@pytest.mark.parametrize(("field", "line"), [("collected", "evidence:\n  - {id: fw, path: "
                                                          "fw.sh, collected: 2026-13-45}\n"),
                                             ("expires", "")])
def test_invalid_date_is_one_clear_error(tmp_path: Path, field: str, line: str) -> None:
    if field == "collected":
        minimal(tmp_path, **{"controls/evidence.yaml": line, "evidence/fw.sh": "x\n"})
        where = "controls/evidence.yaml:2:38: evidence[0].collected"
    else:
        minimal(tmp_path)
        (tmp_path / "waivers.yaml").write_text(
            "waivers:\n  - rule: LIM001\n    target: ISO-01\n    reason: r\n    owner: o\n"
            "    expires: 2026-13-45  # month 13\n")
        where = "waivers.yaml:6:14: waivers[0].expires"
    assert findings(tmp_path) == [
        f"{where}: not a valid date: 2026-13-45; use YYYY-MM-DD [YML004]"]


def test_over_long_text_is_worded_plainly(tmp_path: Path) -> None:
    text = CONTROL.replace("title: Disposable VMs", "title: " + "x" * 301)
    minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert findings(tmp_path) == [
        "controls/isolation.yaml:4:12: controls[0].title: is 301 characters long; at most 300 "
        "are allowed here [SCH001]"]


def test_duplicate_key(tmp_path: Path) -> None:
    text = CONTROL + "    owner: again\n"
    minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert findings(tmp_path) == [
        "controls/isolation.yaml:11:5: duplicate key 'owner' (first defined at line 10, "
        "column 5) [YML002]"]


def test_unknown_key_with_did_you_mean(tmp_path: Path) -> None:
    text = CONTROL.replace("    owner: platform\n", "    ownr: platform\n")
    minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert findings(tmp_path) == [
        "controls/isolation.yaml:2:5: missing required field 'owner' in controls[0] [SCH003]",
        "controls/isolation.yaml:10:5: unknown key 'ownr' in controls[0]; did you mean "
        "'owner'? [SCH002]"]


def test_wrong_type_and_bad_enum(tmp_path: Path) -> None:
    text = CONTROL.replace("status: deployed", "status: deploy").replace(
        "limits: [model-open]", "limits: model-open")
    minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert findings(tmp_path) == [
        "controls/isolation.yaml:5:13: controls[0].status: 'deploy' is not one of deployed, "
        "partial, planned; did you mean 'deployed'? [SCH001]",
        "controls/isolation.yaml:8:13: controls[0].limits: expected a list, got 'model-open' "
        "[SCH001]"]


def test_wrong_date(tmp_path: Path) -> None:
    minimal(tmp_path, **{"controls/system.yaml": SYSTEM.replace("2026-11-01", "last week")})
    assert findings(tmp_path) == [
        "controls/system.yaml:5:18: system.last_reviewed: expected a date (YYYY-MM-DD), "
        "got 'last week' [SCH001]"]


def test_duplicate_control_id_across_files(tmp_path: Path) -> None:
    minimal(tmp_path, **{"controls/more.yaml": CONTROL})
    assert findings(tmp_path) == [
        "controls/more.yaml:2:9: duplicate control id 'ISO-01'; first defined at "
        "controls/isolation.yaml:2:9 [REF001]"]


def test_undefined_references(tmp_path: Path) -> None:
    text = CONTROL.replace("limits: [model-open]", "limits: [model-opn]\n    evidence: [vm-cfg]")
    system = SYSTEM.replace("sources: [owasp-llm01]", "sources: [owasp-llm02]")
    minimal(tmp_path, **{"controls/isolation.yaml": text, "controls/system.yaml": system})
    assert findings(tmp_path) == [
        "controls/isolation.yaml:8:14: limits: limit 'model-opn' is not defined; did you "
        "mean 'model-open'? [REF002]",
        "controls/isolation.yaml:9:16: evidence: evidence item 'vm-cfg' is not defined "
        "(no evidence are defined) [REF002]",
        "controls/system.yaml:13:15: sources: source 'owasp-llm02' is not defined; did you "
        "mean 'owasp-llm01'? [REF002]"]


def test_system_missing(tmp_path: Path) -> None:
    minimal(tmp_path, **{"controls/system.yaml": SYSTEM.replace("system:", "other:")})
    minimal(tmp_path, **{"controls/system.yaml": SYSTEM.replace("system:", "# no system\nx:")
                         .replace("x:\n  name: Test agents\n  scope: Coding agents used by "
                                  "the test team.\n  owner: sec@example.test\n  "
                                  "last_reviewed: 2026-11-01\n", "")})
    got = findings(tmp_path)
    assert got == [("controls/isolation.yaml:1:1: no file under controls/ defines "
                       "`system:` (name, scope, owner, last_reviewed); add it to one file "
                       "[REF003]")]


def test_not_utf8_is_unreadable(tmp_path: Path) -> None:
    minimal(tmp_path, **{"controls/latin1.yaml": "controls: []\n# caf\xe9\n".encode("latin-1")})
    assert unreadable(tmp_path) == [
        "controls/latin1.yaml:2:6: not valid UTF-8 (byte 0xe9); save the file as UTF-8 [YML001]"]


def test_binary_is_unreadable(tmp_path: Path) -> None:
    minimal(tmp_path, **{"controls/blob.yaml": b"\x89PNG\r\n\x1a\n\x00\x00"})
    assert unreadable(tmp_path) == [
        "controls/blob.yaml:3:1: binary file (NUL byte): not a YAML file [YML001]"]


def test_empty_file(tmp_path: Path) -> None:
    minimal(tmp_path, **{"controls/empty.yaml": "# nothing yet\n"})
    assert findings(tmp_path) == [
        "controls/empty.yaml:1:1: empty file: expected a YAML mapping (e.g. `controls:`); "
        "delete the file or add content [YML003]"]


def test_alias_bomb_is_refused_fast(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        refs = ",".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    minimal(tmp_path, **{"controls/bomb.yaml": "\n".join(lines) + "\n"})
    start = time.perf_counter()
    got = unreadable(tmp_path)
    elapsed = time.perf_counter() - start
    assert got == ["controls/bomb.yaml:1:1: aliases expand to more than 2,000,000 nodes "
                   "(an alias bomb?); refusing to expand [YML001]"]
    assert elapsed < 30  # a sanity bound against expansion, not a performance target


def test_aliases_and_merge_keys_are_allowed(tmp_path: Path) -> None:
    text = CONTROL.replace("  - id: ISO-01\n", "  - &base\n    id: ISO-01\n") + (
        "  - <<: *base\n    id: ISO-02\n    title: Second VM pool\n")
    minimal(tmp_path, **{"controls/isolation.yaml": text})
    ws = load_workspace(tmp_path)
    assert ws.findings == []
    assert ws.model is not None
    assert [(c.id, c.title) for c in ws.model.controls] == [
        ("ISO-01", "Disposable VMs"), ("ISO-02", "Second VM pool")]


def test_chained_merge_keys_bring_every_level(tmp_path: Path) -> None:
    """A control that merges one which itself merges a base gets the base's keys too
    (not a literal "<<" key), the way any YAML loader reads it."""
    text = CONTROL.replace("  - id: ISO-01\n", "  - &base\n    id: ISO-01\n") + (
        "  - &second\n    <<: *base\n    id: ISO-02\n"
        "  - <<: *second\n    id: ISO-03\n    title: Third VM pool\n")
    minimal(tmp_path, **{"controls/isolation.yaml": text})
    ws = load_workspace(tmp_path)
    assert ws.findings == []
    assert ws.model is not None
    assert [(c.id, c.title, c.owner) for c in ws.model.controls] == [
        ("ISO-01", "Disposable VMs", "platform"), ("ISO-02", "Disposable VMs", "platform"),
        ("ISO-03", "Third VM pool", "platform")]


def test_unsupported_tag(tmp_path: Path) -> None:
    text = CONTROL.replace("owner: platform", "owner: !!python/name:os.system platform")
    minimal(tmp_path, **{"controls/isolation.yaml": text})
    assert findings(tmp_path) == [  # one finding, not also "got nothing (null)"
        "controls/isolation.yaml:10:12: controls[0].owner: unsupported YAML tag "
        "'tag:yaml.org,2002:python/name:os.system'; use plain values [YML004]"]


def test_all_errors_collected_in_one_run(tmp_path: Path) -> None:
    bad = CONTROL.replace("status: deployed", "status: live").replace("ownr", "owner")
    minimal(tmp_path, **{"controls/isolation.yaml": bad,
                         "controls/extra.yaml": "controls:\n  - id: X\n    layr: git\n"})
    codes = sorted(f.rsplit("[", 1)[1] for f in findings(tmp_path))
    assert codes == ["SCH001]", "SCH002]"] + ["SCH003]"] * 7


@pytest.mark.parametrize(("text", "where"), [
    ("a: " + "[" * 100_000 + "]" * 100_000 + "\n", "controls/deep.yaml:1:203"),
    ("- " * 100_000 + "x\n", "controls/deep.yaml:1:401"),
    ("".join(" " * i + "-\n" for i in range(0, 600, 2)), "controls/deep.yaml:201:401"),
])
def test_deep_nesting_is_refused_without_crashing(tmp_path: Path, text: str, where: str) -> None:
    # A subprocess: before the guard, the C composer overflowed the stack (SIGSEGV).
    import subprocess
    import sys

    ws = minimal(tmp_path, **{"controls/deep.yaml": text})
    proc = subprocess.run([sys.executable, "-m", "compliance", "check", str(ws)],
                          capture_output=True, text=True)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (f"{where}: error nested deeper than 200 levels; refusing to parse "
                           "[YML001]\n")


def test_model_file_linking_outside_the_workspace_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.yaml").write_text("token: hunter2\n")
    ws = minimal(tmp_path / "ws")
    (ws / "controls/link.yaml").symlink_to(tmp_path / "secret.yaml")
    refused = ("controls/link.yaml:1:1: refusing to read a model file that resolves outside "
               "ws/ (after following '..' and links); it is a link to "
               f"{(tmp_path / 'secret.yaml').resolve()} [YML001]")
    assert unreadable(ws) == [refused]
    cwd = Path.cwd()
    os.chdir(ws)
    try:  # the workspace given as "." is still named
        assert unreadable(Path(".")) == [refused]
    finally:
        os.chdir(cwd)


def test_alias_chain_is_bounded_in_positions(tmp_path: Path) -> None:
    # 1,500 nested aliases expand to ~1.1M nodes (inside the budget); positions under
    # aliases stop after a few levels, so this stays small instead of gigabytes.
    from compliance.load import parse_yaml

    lines = ["x0: &a0 [1]"] + [f"x{i}: &a{i} [*a{i - 1}]" for i in range(1, 1500)]
    doc = parse_yaml("\n".join(lines) + "\n", "chain.yaml")
    assert len(doc.positions) < 50_000
    deep = ("x1499",) + (0,) * 1000
    assert str(doc.pos(deep)) == "chain.yaml:1491:8"  # the deepest recorded ancestor


def test_every_entry_under_controls_that_is_not_read_is_reported(tmp_path: Path) -> None:
    """Issue 11, row 10: a dangling link, a FIFO, a link to /dev/zero and a linked folder
    outside the workspace (holding a syntax error) were skipped with exit 0."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "broken.yaml").write_text("controls: [\n")
    ws = minimal(tmp_path / "ws")
    controls = ws / "controls"
    (controls / "dangling.yaml").symlink_to(controls / "gone.yaml")
    os.mkfifo(controls / "pipe.yaml")
    (controls / "zero.yaml").symlink_to("/dev/zero")
    (controls / "shared").symlink_to(outside, target_is_directory=True)
    assert unreadable(ws) == [
        "controls/dangling.yaml:1:1: cannot read this model entry: a symbolic link to "
        f"{controls / 'gone.yaml'}, which does not exist [YML001]",
        "controls/pipe.yaml:1:1: cannot read this model entry: a FIFO (named pipe), not a "
        "regular file [YML001]",
        "controls/shared:1:1: refusing to read a model folder that resolves outside ws/ "
        f"(after following '..' and links); it is a link to {outside.resolve()} [YML001]",
        "controls/zero.yaml:1:1: refusing to read a model file that resolves outside ws/ "
        "(after following '..' and links); it is a link to /dev/zero [YML001]"]
    result = CliRunner().invoke(cli, ["check", str(ws)])
    assert result.exit_code == 2


def test_other_files_under_controls_are_listed_and_linked_folders_inside_are_read(
        tmp_path: Path) -> None:
    ws = minimal(tmp_path / "ws")
    (ws / "controls/README.md").write_text("# the model\n")
    (ws / "shared").mkdir()
    (ws / "shared/extra.yaml").write_text(
        "limits:\n  - id: extra\n    text: Another limit.\n    topics: [x]\n"
        "    sources: [owasp-llm01]\n")
    (ws / "controls/linked").symlink_to(ws / "shared", target_is_directory=True)
    loaded = load_workspace(ws)
    assert [f"{d.path}:{d.line}:{d.column}: {d.level.value} {d.message} [{d.code}]"
            for d in loaded.findings if d.code == "YML005"] == [
        "controls/README.md:1:1: info not read: only .yaml and .yml files under controls/ "
        "are the model [YML005]"]
    assert "controls/linked/extra.yaml" in loaded.docs
    result = CliRunner().invoke(cli, ["check", str(ws)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("text", "where"), [
    ("'[': null\n", "controls/extra.yaml:1:1: unknown key '[' in the file"),
    ("controls:\n  - 'a[b]': 1\n", "controls/extra.yaml:2:5: unknown key 'a[b]' in controls[0]"),
])
def test_a_key_with_a_bracket_is_an_unknown_key_like_any_other(
    tmp_path: Path, text: str, where: str
) -> None:
    """Found by tests/fuzz: brackets in a key were taken for pydantic's union tags and
    dropped from the error's path (an IndexError traceback for a top-level key)."""
    minimal(tmp_path, **{"controls/extra.yaml": text})
    assert [f for f in findings(tmp_path) if "unknown key" in f][0].startswith(where)
