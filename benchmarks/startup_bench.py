"""Benchmark `compliance check` of the example workspace against importing its libraries.

Measures in the same run, as the median of --runs paired repetitions (each pair
in alternating order, after one warm-up of each):

  (a) ``python -c 'import jinja2, pydantic, ruamel.yaml, click'``: the interpreter
      and the libraries the tool is built on (check itself never imports jinja2;
      the baseline imports it anyway, as the issue states it);
  (b) ``compliance check`` on the example workspace in this repository (start-up,
      imports, load, check, text output), as a subprocess;

and, for information, ``compliance --help`` and ``compliance rules`` (neither
should pay for the claims judge or the models) and the modules `check` imports
before it reads a file (how much of the budget imports alone take). Each ratio is
the median of the per-pair ratios, in wall-clock time and in CPU time (user +
system of the child, from ``resource.getrusage(RUSAGE_CHILDREN)``; steadier on a
busy machine).

Target: (b)/(a) <= 2. The children cache byte-code in a temporary folder (the
warm-up writes it), as an installed package has it; ``--no-bytecode`` measures
a checkout run with PYTHONDONTWRITEBYTECODE=1, where our modules are compiled
from source at every start and the libraries' are not.

    python benchmarks/startup_bench.py --runs 15
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = 2.0
BASELINE = [sys.executable, "-c", "import jinja2, pydantic, ruamel.yaml, click"]


def compliance(*args: str) -> list[str]:
    """The command as the console script runs it (``compliance.cli:main``)."""
    return [sys.executable, "-c", "from compliance.cli import main; main()", *args]


#: What `check` imports before it reads a file (the floor its run adds to; for information).
CHECK_IMPORTS = ("compliance.cli, compliance.commands.check, compliance.pipeline, "
                 "compliance.rules.registry, compliance.formats, compliance.report")
COMMANDS = {
    "check": compliance("check", str(REPO)),
    "--help": compliance("--help"),
    "rules": compliance("rules"),
    "imports": [sys.executable, "-c", f"import {CHECK_IMPORTS}"],
}


def child_env(pycache: str | None) -> dict[str, str]:
    """The children's environment: byte-code cached under ``pycache`` (as an installed
    package has it: pip compiles on install), unless ``pycache`` is None."""
    env = dict(os.environ)
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
    return env


ENV: dict[str, str] = dict(os.environ)


def timed(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False,
                          env=ENV)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{cmd} exited {proc.returncode}:\n{proc.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE as it is (a checkout without .pyc "
                             "files compiles every module of the tool at every start)")
    args = parser.parse_args()
    global ENV
    pycache = tempfile.TemporaryDirectory(prefix="startup-bench-pyc-")
    ENV = child_env(None if args.no_bytecode else pycache.name)
    for cmd in [BASELINE, *COMMANDS.values()]:
        timed(cmd)  # warm-up: the OS file cache and the .pyc files
    base: list[tuple[float, float]] = []
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    for i in range(args.runs):
        order = list(COMMANDS) if i % 2 == 0 else list(reversed(COMMANDS))
        if i % 2:
            base.append(timed(BASELINE))
        for name in order:
            runs[name].append(timed(COMMANDS[name]))
        if not i % 2:
            base.append(timed(BASELINE))
    result: dict[str, object] = {
        "runs": args.runs,
        "baseline_wall_s": round(statistics.median(b[0] for b in base), 4),
        "baseline_cpu_s": round(statistics.median(b[1] for b in base), 4),
    }
    for name, times in runs.items():
        result[name] = {
            "wall_s": round(statistics.median(t[0] for t in times), 4),
            "cpu_s": round(statistics.median(t[1] for t in times), 4),
            "ratio_wall": round(statistics.median(
                t[0] / b[0] for b, t in zip(base, times, strict=True)), 2),
            "ratio_cpu": round(statistics.median(
                t[1] / b[1] for b, t in zip(base, times, strict=True)), 2),
        }
    check = result["check"]
    assert isinstance(check, dict)
    result["target_ratio"] = TARGET
    result["meets_target"] = check["ratio_wall"] <= TARGET
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"median of {args.runs} paired runs:")
    print(f"  (a) import jinja2, pydantic, ruamel.yaml, click  "
          f"{result['baseline_wall_s']:7.3f} s wall  {result['baseline_cpu_s']:7.3f} s cpu")
    for name in COMMANDS:
        r = result[name]
        assert isinstance(r, dict)
        label = ("check's imports alone" if name == "imports" else
                 f"compliance {name}" + (" (example workspace)" if name == "check" else ""))
        print(f"  (b) {label:44} {r['wall_s']:7.3f} s wall  {r['cpu_s']:7.3f} s cpu   "
              f"ratio {r['ratio_wall']:.2f} wall, {r['ratio_cpu']:.2f} cpu")
    print(f"check / baseline: {check['ratio_wall']:.2f} (target <= {TARGET}) -> "
          + ("meets target" if result["meets_target"] else "MISSES target"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
