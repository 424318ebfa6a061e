"""The shell adapter on huge input: a clear finding for an over-long command, and the same
words as shlex (whose one-character-at-a-time growth of each word was quadratic).

Issue 11, row 5: a firewall script with one 2 MB line made `check` take 54 s
(13.5 s at 1 MB, 213 s at 4 MB). Speed is measured in benchmarks/shell_bench.py
(before and after numbers in its docstring's issue); here only behaviour.
"""

from __future__ import annotations

import random
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.adapters import EvidenceError, parse_text
from compliance.adapters.shell import MAX_COMMAND_CHARS, shell_words
from compliance.cli import cli
from tests.workspaces import CONTROL, minimal, sha256


def shlex_words(command: str) -> list[str] | None:
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        return list(lexer)
    except ValueError:
        return None


def words(command: str) -> list[str] | None:
    try:
        return [w for w, _, _ in shell_words(command)]
    except ValueError:
        return None


def test_the_linear_tokeniser_splits_exactly_as_shlex_did() -> None:
    rng = random.Random(5)
    alphabet = "ab \t;&|()'\"\\#$=-x\r"
    for _ in range(20_000):
        command = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert words(command) == shlex_words(command), repr(command)
    for command in ['iptables -A OUTPUT -d "$ip" -j ACCEPT # allow', "a&&b||c;;d", "''",
                    'echo "a \\" b" \'c d\'', "for h in a.com b.com; do dig $h; done"]:
        assert words(command) == shlex_words(command), command


def test_word_spans_point_at_the_raw_text() -> None:
    command = 'for d in "github.com" api.x.io; do :; done'
    spans = {w: command[s:e] for w, s, e in shell_words(command)}
    assert spans["github.com"] == '"github.com"'
    assert spans["api.x.io"] == "api.x.io"


def test_hosts_on_a_long_line_keep_their_own_columns() -> None:
    hosts = [f"h{i}.example.com" for i in range(2000)]
    line = "for d in " + " ".join(hosts) + "; do echo $d; done"
    doc = parse_text("#!/bin/sh\n" + line + "\n", "fw.sh", "shell")
    found = [(f.value, f.line, f.column) for f in doc.fact_list("domain")]
    assert len(found) == 2000
    assert found[0] == ("h0.example.com", 2, 10)
    assert found[-1] == ("h1999.example.com", 2, line.index("h1999.example.com") + 1)


@pytest.mark.parametrize("shape", ["domains", "word", "quoted"])
def test_a_command_over_the_limit_is_a_positioned_finding(shape: str) -> None:
    size = MAX_COMMAND_CHARS + 1
    body = {"domains": "for d in " + "a.example.com " * (size // 14 + 1) + "; do :; done",
            "word": "echo " + "a" * size,
            "quoted": 'echo "' + "a " * (size // 2 + 1) + '"'}[shape]
    with pytest.raises(EvidenceError) as info:
        parse_text(f"#!/bin/bash\niptables -P OUTPUT DROP\n{body}\n", "fw.sh", "shell")
    d = info.value.diagnostic
    assert (d.path, d.line, d.column, d.code) == ("fw.sh", 3, 1, "CFG100")
    assert d.message == (
        f"the command starting on line 3 is {len(body):,} characters long; commands are read "
        f"up to {MAX_COMMAND_CHARS:,} characters, so this script is not read (split the list "
        "over several lines or several commands)")


def test_check_reports_the_2_mb_line_of_the_report(tmp_path: Path) -> None:
    script = ("#!/bin/bash\niptables -P OUTPUT DROP\nfor d in "
              + " ".join(f"h{i}.example.com" for i in range(130_000)) + "; do :; done\n")
    assert len(script) > 2_000_000
    data = script.encode()
    evidence = ("evidence:\n  - id: fw\n    path: init-firewall.sh\n"
                f"    sha256: {sha256(data)}\n    collected: 2026-10-01\n")
    control = CONTROL.replace("    limits:",
                              "    evidence: [fw]\n    verified_by: [CFG007]\n    limits:")
    ws = minimal(tmp_path, **{"controls/isolation.yaml": control,
                              "controls/evidence.yaml": evidence,
                              "evidence/init-firewall.sh": data})
    result = CliRunner().invoke(cli, ["check", str(ws)])
    assert result.exit_code == 1, result.output
    assert "evidence/init-firewall.sh:3:1: error evidence fw: the command starting on line 3 " \
        "is " in result.stdout
