"""A lazy pattern is re.compile of the same source, only later."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import compliance.rules.claims  # noqa: F401 - makes every judge pattern
from compliance.judge.lazyre import CREATED, LazyPattern, lazy


def test_every_judge_pattern_reads_as_its_compiled_self() -> None:
    assert len(CREATED) > 300
    for lp in CREATED:
        eager = re.compile(lp.pattern, lp._given)
        assert (lp.flags, lp.pattern) == (eager.flags, eager.pattern), lp.pattern[:80]
        assert (lp.groups, lp.groupindex) == (eager.groups, eager.groupindex), lp.pattern[:80]


def test_compiles_at_first_use_and_then_is_the_compiled_pattern() -> None:
    lp = LazyPattern(r"\bsafe(?P<t>ly)?\b")
    assert not lp.is_compiled
    assert lp.flags == re.compile(r"\bsafe(?P<t>ly)?\b").flags  # read without compiling
    assert not lp.is_compiled
    m = lp.search("run safely")
    assert lp.is_compiled and m is not None and m.span("t") == (8, 10)
    assert lp.search == lp.compiled().search  # the compiled pattern's own method


@pytest.mark.parametrize(("source", "flags"), [
    ("(?i)safe", 0), ("(?x) safe # comment", 0), ("safe", re.IGNORECASE), ("safe", re.ASCII),
    ("(?a:safe)", 0), ("(?-i:safe)", re.IGNORECASE), ("(?s).", 0)])
def test_flags_without_compiling_equal_the_compiled_flags(source: str, flags: int) -> None:
    lp = lazy(source, flags)
    assert lp.flags == re.compile(source, flags).flags
    assert [m.span() for m in lp.finditer("Safe safe\n")] == [
        m.span() for m in re.compile(source, flags).finditer("Safe safe\n")]


@pytest.mark.parametrize("args", [["rules"], ["rules", "CLM001"], ["--help"]])
def test_rules_and_help_compile_no_judge_pattern(args: list[str]) -> None:
    code = ("import sys, io; from compliance.cli import cli\n"
            "sys.stdout = io.StringIO()\n"
            f"try:\n    cli({args!r})\nexcept SystemExit:\n    pass\n"
            "from compliance.judge.lazyre import CREATED\n"
            "sys.stdout = sys.__stdout__\n"
            "print(sum(p.is_compiled for p in CREATED), len(CREATED))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    compiled, _made = map(int, proc.stdout.split())
    assert compiled == 0
