"""Bad evidence: malformed files are reported at their own line:col; binary, oversized and
unrecognised files are refused, never guessed."""

from __future__ import annotations

from pathlib import Path

import pytest

from compliance.adapters import (
    KINDS,
    EvidenceError,
    UnrecognisedEvidence,
    parse_evidence,
    parse_text,
)


def _error(text: str, name: str, kind: str | None = None) -> str:
    with pytest.raises(EvidenceError) as info:
        parse_text(text, name, kind)
    d = info.value.diagnostic
    return f"{d.path}:{d.line}:{d.column}: {d.message}"


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("managed-settings.json", '{\n  "sandbox": {\n    "enabled": tru\n  }\n}\n',
         "managed-settings.json:3:16: invalid JSON: unexpected character 't'"),
        ("managed-settings.json", '{\n  "a": 1,\n}\n',
         "managed-settings.json:3:1: invalid JSON: expected a double-quoted key"),
        ("managed-settings.json", '{"a": 1, "a": 2}',
         "managed-settings.json:1:10: invalid JSON: duplicate key 'a'"),
        ("protection.json", '{"enforce_admins": {"enabled": true}',
         "protection.json:1:37: invalid JSON: expected ',' or '}'"),
        ("devcontainer.json", '{\n  // ok\n  "image": "x",\n  "runArgs": [\n}\n',
         "devcontainer.json:5:1: invalid JSON: unexpected character '}'"),
        ("devcontainer.json", '{\n  /* never closed\n',
         "devcontainer.json:2:3: invalid JSON: unterminated /* comment"),
        ("config.toml", 'sandbox_mode = "read-only"\nnetwork_access = \n',
         "config.toml:2:18: invalid TOML: Invalid value"),
        ("requirements.toml", '[a]\nx = 1\n[a]\n',
         "requirements.toml:3:3: invalid TOML: Cannot declare ('a',) twice"),
        (".github/workflows/ci.yml", "on: push\njobs:\n  a: [1, 2\n",
         ".github/workflows/ci.yml:3:6: invalid YAML: this '[' is never closed (did not "
         "find expected ',' or ']' at the end of the file)"),
        ("pod.yaml", "kind: Pod\n  bad: indent\n",
         "pod.yaml:2:6: invalid YAML: mapping values are not allowed in this context"),
        ("fw.sh", '#!/bin/bash\niptables -P OUTPUT DROP\necho "unclosed\n',
         "fw.sh:3:6: unclosed \" quote"),
        ("fw.sh", "#!/bin/sh\ncat <<EOF\nbody\n",
         "fw.sh:2:1: here-document 'EOF' is never closed"),
    ],
)
def test_malformed_is_reported_at_its_own_line_and_column(name: str, text: str,
                                                          expected: str) -> None:
    assert _error(text, name) == expected


def test_multiline_quotes_and_heredocs_are_not_errors() -> None:
    text = "#!/bin/bash\necho 'a\nb'\ncat <<'EOF'\nit's fine\nEOF\nx=$'\\n'\n"
    assert parse_text(text, "ok.sh").kind == "shell"


def test_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_bytes(b'{"a":\n 1}\x00\x01')
    with pytest.raises(EvidenceError) as info:
        parse_evidence(path, "evidence/settings.json")
    d = info.value.diagnostic
    assert (d.path, d.line, d.column, d.message) == (
        "evidence/settings.json", 2, 4, "binary file (NUL byte); not evidence")


def test_non_utf8_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "CODEOWNERS"
    path.write_bytes(b"* @a\n\xff\xfe\n")
    with pytest.raises(EvidenceError) as info:
        parse_evidence(path, "CODEOWNERS")
    d = info.value.diagnostic
    assert (d.line, d.column, d.message) == (2, 1, "file is not UTF-8 text")


def test_oversized_file_is_refused_with_a_configurable_cap(tmp_path: Path) -> None:
    path = tmp_path / "daemon.json"
    path.write_text('{"runtimes": {}}', encoding="utf-8")
    assert parse_evidence(path, "daemon.json").kind == "docker-daemon"
    with pytest.raises(EvidenceError) as info:
        parse_evidence(path, "daemon.json", max_bytes=10)
    assert info.value.diagnostic.message == (
        "evidence file is 16 bytes, over the 10-byte limit; refusing to parse")


@pytest.mark.parametrize(
    ("name", "text"),
    [("notes.md", "# notes\n"), ("data.json", '{"hello": "world"}'),
     ("values.yaml", "replicas: 2\n"), ("Dockerfile", "FROM node:20\n"),
     ("other.toml", 'title = "x"\n')],
)
def test_unrecognised_files_are_refused_not_guessed(name: str, text: str) -> None:
    with pytest.raises(UnrecognisedEvidence) as info:
        parse_text(text, name)
    message = str(info.value)
    assert message.startswith(f"{name}: no adapter recognises this file; name its kind")
    assert all(kind in message for kind in KINDS)


def test_unknown_explicit_kind_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(UnrecognisedEvidence, match="unknown evidence kind 'jenkins'"):
        parse_evidence(path, "x.json", "jenkins")


BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['x'] * 9)}]\n"
    for prev, name in zip(["", "a", "b", "c", "d", "e", "f"], "abcdefg", strict=True)
) + "h: [*g, *g, *g, *g, *g, *g, *g, *g, *g]\napiVersion: v1\nkind: Pod\n"


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("deep.json", "[" * 500 + "]" * 500,
         "deep.json:1:201: invalid JSON: nested deeper than 200 levels"),
        ("deep.toml", "a = " + "[" * 5000 + "]" * 5000,
         "deep.toml:1:1: invalid TOML: nested too deeply"),
        ("deep.yaml", "kind: Pod\napiVersion: v1\na: " + "[" * 300 + "]" * 300 + "\n",
         "deep.yaml:3:203: refusing YAML: nested deeper than 200 levels"),
        ("bomb.yaml", BOMB,
         "bomb.yaml:1:1: refusing YAML: aliases expand to more than 2,000,000 nodes "
         "(an alias bomb?)"),
    ],
)
def test_hostile_nesting_and_alias_bombs_are_refused(name: str, text: str,
                                                     expected: str) -> None:
    assert _error(text, name) == expected
