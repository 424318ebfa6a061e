"""Benchmark `compliance check` against the YAML parser it is built on.

Generates a synthetic workspace of N controls (about 0.7 KB of YAML per
control, with sources, limits and pinned evidence), then measures in the same
run, each as the median of --runs paired repetitions after one warm-up:

  (a) ruamel.yaml C-parser compose of the same files
      (``YAML(typ='safe').compose`` on each file's text, texts read beforehand);
  (b) `compliance check` end to end: in-process (load + check, imports warm)
      and as a subprocess (interpreter start, imports, load, check, output);

and reports the median of the per-repetition ratios (b)/(a) and the peak
RSS of the child process running the check
(``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` after each child).

Targets at 1,000 controls: in-process ratio <= 1.5, peak RSS <= 200 MB.

    python benchmarks/check_bench.py --controls 1000
    python benchmarks/check_bench.py --controls 1000 --profile 25   # top 25 by cumtime
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import gc
import hashlib
import io
import json
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCHEMA_LINE = "# yaml-language-server: $schema=../compliance/schema/controls.schema.json\n"
LAYERS = ("isolation", "network", "credentials", "git", "pipeline", "logs")
PER_FILE = 100  # controls per generated file
TODAY = dt.date(2026, 11, 30)

TARGET_RATIO = 1.5
TARGET_RSS_MB = 200.0

_WORDS = ("session", "runner", "firewall", "resolver", "proxy", "registry", "collector",
          "workflow", "reviewer", "branch", "token", "ruleset", "sandbox", "container",
          "kernel", "policy", "archive", "export", "bucket", "approval")


def _prose(i: int, n_words: int) -> str:
    """Deterministic, varied, honest-sounding prose (no overclaim keywords)."""
    words = [_WORDS[(i * 7 + k * 3) % len(_WORDS)] for k in range(n_words)]
    sentences = [" ".join(words[k:k + 10]) for k in range(0, n_words, 10)]
    return ". ".join(s.capitalize() for s in sentences) + "."


#: Honest prose of the kind a real model holds (the claims judge's cost depends on
#: the words, so word salad would understate it). Picked and varied by index.
CLAIMS = (
    "Agent sessions in pool {i} run in single-use microVMs that are destroyed when the "
    "session ends.",
    "Outbound traffic from pool {i} is denied by default; DNS goes only to one named "
    "resolver and HTTPS only to three package registries.",
    "Sessions in pool {i} hold no long-lived credentials; a proxy adds them to the "
    "requests the session sends.",
    "Changes from pool {i} reach main only through a pull request approved by at least "
    "one human reviewer.",
    "Workflow runs for pull requests from pool {i} wait until a maintainer approves them.",
    "Claude Code in pool {i} exports its event logs, including tool details, to a "
    "collector in a separate account.",
)
IMPLEMENTATIONS = (
    "Managed settings for pool {i} set sandbox.enabled and failIfUnavailable to true and "
    "allowUnsandboxedCommands to false; the repository cannot override them.",
    "The firewall script sets DROP policies, allows the resolver and the proxy by address, "
    "and ends the OUTPUT chain with a REJECT rule.",
    "Branch protection on main requires one approving review from a code owner and applies "
    "to administrators; the ruleset has no bypass actors.",
    "The repository default token is read-only and each workflow in pool {i} declares "
    "contents: read.",
)
RESIDUALS = (
    "A reviewer can approve a harmful change that looks routine.",
    "The model API and the package registries stay reachable and can carry data out.",
    "A guest-to-host escape would reach other sessions on the node.",
    "Telemetry stops when a session loses its network path to the collector.",
)


def _pick(pool: tuple[str, ...], i: int) -> str:
    return pool[i % len(pool)].format(i=i)


def _wrap(text: str, indent: str, width: int = 88) -> str:
    out, line = [], ""
    for word in text.split():
        if line and len(indent) + len(line) + 1 + len(word) > width:
            out.append(indent + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    out.append(indent + line)
    return "\n".join(out)


def _claude_settings(e: int) -> tuple[str, bytes]:
    body = {
        "permissions": {"disableBypassPermissionsMode": "disable",
                        "deny": [f"Read(./secrets-{e}/**)"]},
        "sandbox": {"enabled": True, "failIfUnavailable": True,
                    "allowUnsandboxedCommands": False,
                    "filesystem": {"denyRead": ["~/.ssh", "~/.aws", ".env"]},
                    "network": {"allowedDomains": ["registry.npmjs.org", "pypi.org"],
                                "strictAllowlist": True, "allowManagedDomainsOnly": True}},
        "env": {"CLAUDE_CODE_ENABLE_TELEMETRY": "1", "OTEL_LOGS_EXPORTER": "otlp",
                "OTEL_LOG_TOOL_DETAILS": "1", "OTEL_RESOURCE_ATTRIBUTES": f"pool={e}"},
    }
    return f"claude/{e:04d}/managed-settings.json", json.dumps(body, indent=2).encode()


def _workflow(e: int) -> tuple[str, bytes]:
    body = f"""\
name: CI {e}
on:
  pull_request:
    branches: [main]
permissions:
  contents: read
jobs:
  test:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683
        with:
          persist-credentials: false
      - run: make test SHARD={e}
"""
    return f"workflows/ci-{e:04d}.yml", body.encode()


def _branch_protection(e: int) -> tuple[str, bytes]:
    body = {
        "url": f"https://api.github.com/repos/acme/repo-{e}/branches/main/protection",
        "enforce_admins": {"enabled": True},
        "required_pull_request_reviews": {"required_approving_review_count": 1,
                                          "require_code_owner_reviews": True,
                                          "dismiss_stale_reviews": True},
    }
    return f"github/{e:04d}/branch-protection.json", json.dumps(body, indent=2).encode()


def _fork_approval(e: int) -> tuple[str, bytes]:
    body = '{\n  "approval_policy": "all_external_contributors"\n}\n' + " " * (e % 7)
    return f"github/{e:04d}/fork-pr-contributor-approval.json", body.encode()


#: Real-format evidence files the synthetic controls cite, and the checks that read them.
EVIDENCE_KINDS = (
    (_claude_settings, ("CFG001", "CFG003", "CFG009", "CFG014", "CFG024")),
    (_workflow, ("CFG020", "CFG021")),
    (_branch_protection, ("CFG016",)),
    (_fork_approval, ("CFG019",)),
)


def _cited(e: int, n_evidence: int) -> str:
    """Evidence ids a control cites: its export, plus a workflow for the approval check."""
    if EVIDENCE_KINDS[e % len(EVIDENCE_KINDS)][0] is _fork_approval and e >= 2:
        return f"ev-{e:04d}, ev-{e - 2:04d}"
    return f"ev-{e:04d}"


def generate(root: Path, n_controls: int) -> list[Path]:
    """Write a workspace of ``n_controls`` controls under ``root``; return its YAML files."""
    controls_dir, evidence_dir = root / "controls", root / "evidence"
    controls_dir.mkdir(parents=True)
    evidence_dir.mkdir()
    n_sources = max(4, n_controls // 50)
    n_limits = max(6, n_controls // 10)
    n_evidence = max(3, n_controls // 20)

    (controls_dir / "system.yaml").write_text(SCHEMA_LINE + f"""\
system:
  name: Synthetic agents ({n_controls} controls)
  scope: >
    Synthetic workspace generated by benchmarks/check_bench.py to measure the
    cost of loading and checking a model of realistic size.
  owner: bench@example.test
  last_reviewed: {TODAY.isoformat()}
""", encoding="utf-8")

    lines = [SCHEMA_LINE, "sources:\n"]
    for s in range(n_sources):
        lines.append(f"""\
  - id: src-{s:04d}
    title: Vendor documentation page {s}
    url: https://docs.example.test/page/{s}
    quote: >
{_wrap(_prose(s, 18), "      ")}
""")
    (controls_dir / "sources.yaml").write_text("".join(lines), encoding="utf-8")

    lines = [SCHEMA_LINE, "limits:\n"]
    for m in range(n_limits):
        lines.append(f"""\
  - id: lim-{m:04d}
    text: >
{_wrap("The control does not cover this case. " + _prose(m, 24), "      ")}
    topics: [topic-{m % 12:02d}]
    sources: [src-{m % n_sources:04d}, src-{(m + 1) % n_sources:04d}]
""")
    (controls_dir / "limits.yaml").write_text("".join(lines), encoding="utf-8")

    lines = [SCHEMA_LINE, "evidence:\n"]
    for e in range(n_evidence):
        rel, body = EVIDENCE_KINDS[e % len(EVIDENCE_KINDS)][0](e)
        (evidence_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (evidence_dir / rel).write_bytes(body)
        lines.append(f"""\
  - id: ev-{e:04d}
    path: {rel}
    sha256: {hashlib.sha256(body).hexdigest()}
    description: Configuration export number {e}.
    collected: {(TODAY - dt.timedelta(days=e % 20)).isoformat()}
    max_age_days: 90
""")
    (controls_dir / "evidence.yaml").write_text("".join(lines), encoding="utf-8")

    for f in range(0, n_controls, PER_FILE):
        lines = [SCHEMA_LINE, "controls:\n"]
        for i in range(f, min(f + PER_FILE, n_controls)):
            layer = LAYERS[i % len(LAYERS)]
            lines.append(f"""\
  - id: CTL-{i:05d}
    layer: {layer}
    title: Control {i} for the {layer} layer
    status: {"partial" if i % 10 == 0 else "deployed"}
    claim: >
{_wrap(_pick(CLAIMS, i), "      ")}
    stance_clause: have control {i} in place
    implementation: >
{_wrap(_pick(IMPLEMENTATIONS, i), "      ")}
    evidence: [{_cited(i % n_evidence, n_evidence)}]
    verified_by: [{", ".join(EVIDENCE_KINDS[(i % n_evidence) % len(EVIDENCE_KINDS)][1])}]
    limits: [lim-{i % n_limits:04d}, lim-{(i + 3) % n_limits:04d}]
    residual_risk: >
{_wrap(_pick(RESIDUALS, i), "      ")}
    owner: team-{i % 9}@example.test
""")
        (controls_dir / f"controls-{f // PER_FILE:03d}.yaml").write_text(
            "".join(lines), encoding="utf-8")
    return sorted(controls_dir.glob("*.yaml"))


def time_compose(texts: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds to compose every text."""
    from ruamel.yaml import YAML

    gc.collect()  # neither side pays for the other's garbage
    wall, cpu = time.perf_counter(), time.process_time()
    for text in texts:
        YAML(typ="safe").compose(text)
    return time.perf_counter() - wall, time.process_time() - cpu


def time_in_process(root: Path) -> tuple[float, float]:
    """Wall and CPU seconds of load + check (the judge's memos emptied first: a real run
    is a fresh process)."""
    from compliance.pipeline import load_and_check
    from compliance.rules.claims.driver import forget

    forget()
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    checked = load_and_check(root, TODAY)
    elapsed = time.perf_counter() - wall, time.process_time() - cpu
    if checked.workspace.model is None:
        raise SystemExit("generated workspace did not load: " +
                         "; ".join(d.message for d in checked.result.findings[:3]))
    return elapsed


def time_stages(root: Path) -> tuple[float, float]:
    """CPU seconds of the two stages separately: load (YAML + models), checks (rules)."""
    from compliance.check.engine import run_checks
    from compliance.load import load_workspace
    from compliance.rules.claims.driver import forget

    forget()
    gc.collect()
    cpu = time.process_time()
    ws = load_workspace(root)
    load = time.process_time() - cpu
    cpu = time.process_time()
    run_checks(ws, TODAY)
    return load, time.process_time() - cpu


def check_command(root: Path) -> list[str]:
    return [sys.executable, "-c", "from compliance.cli import main; main()",
            "check", str(root), "--today", TODAY.isoformat(), "--format", "json"]


def time_subprocess(root: Path) -> tuple[float, float, int]:
    """Wall time, this child's peak RSS in MB (Linux: ru_maxrss is KiB), exit code."""
    start = time.perf_counter()
    proc = subprocess.run(check_command(root), capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode == 2:
        raise SystemExit(f"compliance check could not read the workspace:\n{proc.stderr.decode()}")
    maxrss_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, maxrss_kib / 1024, proc.returncode


def profile(root: Path, top: int) -> str:
    from compliance.pipeline import load_and_check
    from compliance.rules.claims.driver import forget

    forget()  # a cold judge, as in the timed runs
    prof = cProfile.Profile()
    prof.enable()
    load_and_check(root, TODAY)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--controls", type=int, default=1000, help="controls to generate")
    parser.add_argument("--runs", type=int, default=5, help="repetitions (median is reported)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="generate into this (new) folder and keep it")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="also print the top N functions of an in-process cProfile run")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="compliance-bench-") as tmp:
        root = args.keep or Path(tmp) / "ws"
        files = generate(root, args.controls)
        texts = [p.read_text(encoding="utf-8") for p in files]
        size = sum(len(t.encode()) for t in texts)

        time_compose(texts)  # warm-up: imports, caches
        time_in_process(root)
        # Paired runs: each repetition times (a) and (b) back to back, so a load
        # spike on a shared machine hits both sides of a ratio, not one.
        composes, in_procs, subs = [], [], []
        for _ in range(args.runs):
            composes.append(time_compose(texts))
            in_procs.append(time_in_process(root))
            subs.append(time_subprocess(root))
        compose = statistics.median(a[0] for a in composes)
        in_proc = statistics.median(b[0] for b in in_procs)
        sub_wall = statistics.median(s[0] for s in subs)
        ratio_in = statistics.median(b[0] / a[0] for a, b in zip(composes, in_procs, strict=True))
        ratio_cpu = statistics.median(b[1] / a[1] for a, b in zip(composes, in_procs, strict=True))
        ratio_sub = statistics.median(s[0] / a[0] for a, s in zip(composes, subs, strict=True))
        rss = max(s[1] for s in subs)
        exit_codes = sorted({s[2] for s in subs})
        stages = [time_stages(root) for _ in range(args.runs)]
        load_cpu = statistics.median(s[0] for s in stages)
        checks_cpu = statistics.median(s[1] for s in stages)
        compose_cpu = statistics.median(a[1] for a in composes)
        prof_text = profile(root, args.profile) if args.profile else ""

    result = {
        "controls": args.controls,
        "files": len(files),
        "yaml_bytes": size,
        "bytes_per_control": round(size / args.controls),
        "runs": args.runs,
        "compose_s": round(compose, 4),
        "check_in_process_s": round(in_proc, 4),
        "check_subprocess_s": round(sub_wall, 4),
        "ratio_in_process": round(ratio_in, 2),
        "ratio_in_process_cpu": round(ratio_cpu, 2),
        "ratio_subprocess": round(ratio_sub, 2),
        "load_cpu_s": round(load_cpu, 4),
        "checks_cpu_s": round(checks_cpu, 4),
        "load_over_compose_cpu": round(load_cpu / compose_cpu, 2),
        "checks_over_compose_cpu": round(checks_cpu / compose_cpu, 2),
        "peak_rss_mb": round(rss, 1),
        "check_exit_codes": exit_codes,
        "target_ratio": TARGET_RATIO,
        "target_rss_mb": TARGET_RSS_MB,
        "meets_targets": ratio_in <= TARGET_RATIO and rss <= TARGET_RSS_MB,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"workspace: {args.controls} controls in {len(files)} files, "
              f"{size / 1e6:.2f} MB of YAML ({result['bytes_per_control']} B/control)")
        print(f"median of {args.runs} runs:")
        print(f"  (a) ruamel C-parser compose          {compose:8.3f} s")
        print(f"  (b) compliance check, in-process     {in_proc:8.3f} s   "
              f"ratio {result['ratio_in_process']:.2f} (target <= {TARGET_RATIO}); "
              f"CPU-time ratio {result['ratio_in_process_cpu']:.2f}")
        print(f"  (b) compliance check, subprocess     {sub_wall:8.3f} s   "
              f"ratio {result['ratio_subprocess']:.2f} (includes interpreter start-up)")
        print(f"  stages (CPU): load {load_cpu:.3f} s = {result['load_over_compose_cpu']:.2f}x "
              f"compose, checks {checks_cpu:.3f} s = {result['checks_over_compose_cpu']:.2f}x")
        print(f"  peak RSS of the check subprocess     {rss:8.1f} MB  "
              f"(target <= {TARGET_RSS_MB:.0f})")
        print(f"  check exit codes: {exit_codes}")
        print("meets targets" if result["meets_targets"] else "MISSES targets")
    if prof_text:
        print(prof_text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
