"""`compliance check` on a firewall script with one very long line: linear, not quadratic.

Usage: python benchmarks/shell_bench.py [--sizes 1 2 4] [--shape domains|word|quoted]

Issue 11 row 5: a devcontainer firewall script with one 2 MB line made `check`
take 54 s (1 MB: 13.5 s, 4 MB: 213 s), because the shell adapter grew each word
one character at a time (shlex) and searched the whole script again for every
hostname. For each size it writes a workspace whose firewall script holds one
line of that many MB (``--shape domains``: a ``for d in host1 host2 ...`` list,
the adapter's slowest path; ``word``: one long word; ``quoted``: one long
double-quoted string), runs `compliance check` on it in-process and reports:

- ``parse_s``: the seconds the shell adapter takes to parse the script in-process
  with its command-length cap lifted (``MAX_COMMAND_CHARS``), i.e. the tokeniser
  itself on the whole line;
- ``check_s``, peak RSS: `compliance check` as a subprocess (with the cap, a line
  over 256 KiB is refused with a CFG100 finding, so this is the cost of reading and
  refusing it);
- the baseline: the seconds ``str.split()`` and ``re.finditer(r"\\S+")`` take over
  the same text in the same run (a linear scan);
- the ratio parse / baseline. A linear adapter keeps that ratio about constant as
  the line doubles; a quadratic one doubles it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.workspaces import CONTROL, minimal, sha256  # noqa: E402


def script(size: int, shape: str) -> bytes:
    if shape == "domains":
        words = []
        total, i = 0, 0
        while total < size:
            word = f"h{i}.example.com"
            words.append(word)
            total += len(word) + 1
            i += 1
        line = "for d in " + " ".join(words) + "; do ipset add allowed $d; done"
    elif shape == "word":
        line = "echo " + "a" * size
    else:
        line = 'echo "' + "a " * (size // 2) + '"'
    return f"#!/bin/bash\niptables -P OUTPUT DROP\n{line}\n".encode()


def workspace(root: Path, size: int, shape: str) -> Path:
    data = script(size, shape)
    evidence = ("evidence:\n  - id: fw\n    path: init-firewall.sh\n"
                f"    sha256: {sha256(data)}\n    collected: 2026-10-01\n")
    control = CONTROL.replace("    limits:",
                              "    evidence: [fw]\n    verified_by: [CFG007]\n    limits:")
    return minimal(root, **{"controls/isolation.yaml": control,
                            "controls/evidence.yaml": evidence,
                            "evidence/init-firewall.sh": data})


def baseline(text: str) -> float:
    start = time.perf_counter()
    text.split()
    sum(1 for _ in re.finditer(r"\S+", text))
    return time.perf_counter() - start


def measure(size_mb: float, shape: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        ws = workspace(Path(tmp) / "ws", int(size_mb * 1024 * 1024), shape)
        text = (ws / "evidence/init-firewall.sh").read_text()
        base = baseline(text)
        from compliance.adapters import shell

        cap = shell.MAX_COMMAND_CHARS
        shell.MAX_COMMAND_CHARS = len(text) + 1
        try:
            start = time.perf_counter()
            shell.parse(text, "init-firewall.sh")
            parse_s = time.perf_counter() - start
        finally:
            shell.MAX_COMMAND_CHARS = cap
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "compliance", "check", str(ws),
                                 "--format", "json"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak RSS
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"check exited {proc.returncode}")
        return {"mb": size_mb, "parse_s": round(parse_s, 2), "check_s": round(seconds, 2),
                "baseline_s": round(base, 3), "ratio": round(parse_s / max(base, 1e-9), 1),
                "peak_rss_mb": round(usage.ru_maxrss / 1024, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 2, 4])
    parser.add_argument("--shape", choices=["domains", "word", "quoted"], default="domains")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(size, args.shape) for size in args.sizes]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"shape: {args.shape}")
    for row in rows:
        print(f"{row['mb']:>5} MB line: parse {row['parse_s']:>6.2f} s, baseline "
              f"{row['baseline_s']:.3f} s, ratio parse/baseline {row['ratio']:>6.1f}; "
              f"check {row['check_s']:.2f} s, peak RSS {row['peak_rss_mb']} MB")


if __name__ == "__main__":
    main()
