"""Light commands stay light: `--help` and `compliance rules` build no model and pay
nothing for the claims judge (issue 10: both used to import pydantic; start-up time is
measured in benchmarks/startup_bench.py, never asserted here).

Each command runs in a fresh interpreter, which then reports what the command loaded;
the probe reads ``sys.modules`` and the judge's caches without importing anything, and
the same probe after `check` (which must load all of it) shows that it can fail.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

_PROBE = """
import json, sys
from compliance.cli import cli
try:
    cli({args!r})
except SystemExit:
    pass
mods = sys.modules
lazyre = mods.get("compliance.judge.lazyre")
precompiled = mods.get("compliance.judge.precompiled")
absolutes = mods.get("compliance.judge.absolutes")
table = mods.get("compliance.rules.claims.trigger_table")
report = {{
    "imported": sorted(name for name in ("pydantic", "pydantic_core", "compliance.model.sections",
                                         "compliance.model.workspace", "weasyprint", "openpyxl",
                                         "jinja2") if name in mods),
    "compiled": sum(p.is_compiled for p in lazyre.CREATED) if lazyre else 0,
    "precompiled table read": bool(precompiled and precompiled._table.cache_info().currsize),
    "vocabulary loaded": bool(absolutes and absolutes.vocabulary.cache_info().currsize),
    "trigger table read": bool(table and table.known.cache_info().currsize
                               and "_routes" in vars(table.known())),
}}
print(json.dumps(report))
"""

NOTHING = {"imported": [], "compiled": 0, "precompiled table read": False,
           "vocabulary loaded": False, "trigger table read": False}


def _loaded(*args: str) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", _PROBE.format(args=list(args))],
                          capture_output=True, text=True, cwd=REPO, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("args", [["--help"], ["rules"], ["rules", "CLM001"],
                                  ["rules", "absolute-safety-claim"], ["check", "--help"],
                                  ["lint", "--help"]])
def test_light_commands_load_neither_models_nor_judge(args: list[str]) -> None:
    assert _loaded(*args) == NOTHING


def test_the_probe_sees_what_check_loads() -> None:
    """`check` of the example builds the models and judges its prose: the probe above
    would report all of it, so its empty reports mean something."""
    loaded = _loaded("check", str(REPO))
    assert {"pydantic", "compliance.model.sections"} <= set(loaded["imported"])  # type: ignore[arg-type]
    assert not {"weasyprint", "openpyxl", "jinja2"} & set(loaded["imported"])  # type: ignore[arg-type]
    assert loaded["compiled"] > 0
    assert loaded["vocabulary loaded"] is True
    assert loaded["precompiled table read"] is True
