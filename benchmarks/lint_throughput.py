"""Throughput of `compliance lint` against proselint on the same prose file (~1 MB default).

Usage: python benchmarks/lint_throughput.py [--size-kb 1024 | --size-mb 10] [--distinct]
       [--claim-share 0.25] [--runs 3] [--keep]

Generates a deterministic Markdown file of security prose (headings, lists,
paragraphs): a share of the sentences (default 1 in 4) comes from the labelled
claim corpus (overclaims and honest statements that use the same words), the
rest from ordinary security-documentation sentences. Both command-line tools
run on it in the same run, as subprocesses, best of N runs each; the ratio is
reported on wall time and on CPU time (CPU time is the fairer number on a busy
machine). Targets: `compliance lint` at least 20x faster than proselint on the
default file, at least 10x on 10 MB of distinct prose (``--size-mb 10 --distinct``).

The judge memoises per sentence, and the default file repeats its sentences
(about 1,900 distinct among 15,600), as boilerplate-heavy documents and answer
columns do. ``--distinct`` numbers every sentence ("... (item 7).") so that none
repeats: the honest figure for prose without repetition. The number changes a
few verdicts (a bare "No (item 7)." is no longer a bare answer), so it reports
fewer findings. The script segments and normalises the file with the judge's own
functions and prints how many of its sentences are distinct, so the claim that
none repeats is checked in every run, not assumed: every memo the judge keeps is
keyed by a sentence's or a text's exact normalised characters.
proselint is a benchmark-only dependency (`pip install -e .[bench]`).
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.corpus.corpus_io import CORPUS, load  # noqa: E402

FILLER = [
    "The platform team owns the sandbox images and rebuilds them weekly.",
    "Agent sessions start from a clean image and are destroyed when the task ends.",
    "The security team meets every Tuesday to review open findings.",
    "Access to the production cluster is granted through a separate approval flow.",
    "Each change to the base image is tested in a staging project first.",
    "The questionnaire owner collects evidence from the platform and security teams.",
    "We document the agent versions in use and upgrade them within thirty days of release.",
    "Support tickets that mention the agent are tagged and reviewed monthly.",
    "The model provider's terms are reviewed by legal once a year.",
    "Contractors follow the same onboarding steps as employees.",
    "Build caches are scoped per repository and expire after a week.",
    "The on-call engineer can pause all agent sessions from the admin console.",
    "Dependency updates proposed by the agent follow the normal release train.",
    "Our data classification policy defines four levels of sensitivity.",
    "Training for new engineers includes a module on working with coding agents.",
    "Metrics on agent usage are reported to the engineering leadership each quarter.",
    "Each repository has a CODEOWNERS file that names the reviewers for workflow files.",
    "We rotate the short-lived tokens every hour and record each issuance.",
    "Engineers request access through the service desk, and a manager approves it.",
    "The incident runbook describes who to call and which logs to collect first.",
    "Our vendor review process covers the model provider and the code host.",
    "Quarterly, we re-run the isolation tests and attach the results as evidence.",
    "Developers can opt out of agent assistance for a repository at any time.",
]


def _distinct(sentence: str, n: int) -> str:
    """``sentence`` with a reference number before its final mark, so no two are equal."""
    end = len(sentence.rstrip(".!?\"')"))
    return f"{sentence[:end]} (item {n}){sentence[end:]}"


def generate(size: int, claim_share: float = 0.25, seed: int = 7,
             distinct: bool = False) -> str:
    rng = random.Random(seed)
    claims = [i.text.strip() for i in load(CORPUS) if "\n" not in i.text.strip()]
    if distinct:  # a numbered statement of several sentences would repeat all but its last
        from compliance.judge.segment import sentences

        claims = [c for c in claims if len(sentences(c)) == 1]
    count = 0

    def pick() -> str:
        nonlocal count
        s = rng.choice(claims) if rng.random() < claim_share else rng.choice(FILLER)
        count += 1
        return _distinct(s, count) if distinct else s

    parts: list[str] = []
    total, section = 0, 0
    while total < size:
        section += 1
        block = [f"## Section {section}: controls and limits", ""]
        for _ in range(3):
            block.append(" ".join(pick() for _ in range(rng.randint(3, 7))))
            block.append("")
        block.extend(f"- {pick()}" for _ in range(4))
        block.append("")
        text = "\n".join(block) + "\n"
        parts.append(text)
        total += len(text.encode("utf-8"))
    return "".join(parts)


def distinct_sentences(text: str) -> tuple[int, int]:
    """(sentences, distinct normalised sentences) of ``text``, as the judge reads it."""
    from compliance.judge.analysis import normalise
    from compliance.judge.segment import sentences

    lows = [normalise(s.prose) for s in sentences(text)]
    return len(lows), len(set(lows))


def timed(cmd: list[str], runs: int) -> tuple[float, float]:
    """Best wall time and best CPU time (user + system of the child) over ``runs``."""
    best_wall = best_cpu = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    return best_wall, best_cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-kb", type=int, default=1024)
    ap.add_argument("--size-mb", type=float, default=None, help="size in MB (overrides --size-kb)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--claim-share", type=float, default=0.25,
                    help="share of sentences taken from the claim corpus (1.0: all)")
    ap.add_argument("--distinct", action="store_true",
                    help="number every sentence, so that no sentence repeats (the judge "
                         "memoises repeated sentences; this measures it without that help)")
    ap.add_argument("--keep", action="store_true", help="keep the generated file")
    args = ap.parse_args()
    proselint = shutil.which("proselint")
    compliance = shutil.which("compliance")
    if not proselint or not compliance:
        sys.exit("needs both `compliance` and `proselint` on PATH (pip install -e .[bench])")
    tmp = Path(tempfile.mkdtemp(prefix="lint-bench-"))
    path = tmp / "prose.md"
    size_bytes = int(args.size_mb * 1e6) if args.size_mb is not None else args.size_kb * 1024
    text = generate(size_bytes, args.claim_share, distinct=args.distinct)
    path.write_text(text, encoding="utf-8")
    n_sentences, n_distinct = distinct_sentences(text)
    del text
    size = path.stat().st_size
    empty = tmp / "empty.md"
    empty.write_text("Nothing to see.\n", encoding="utf-8")
    ours = timed([compliance, "lint", str(path), "--format", "json"], args.runs)
    theirs = timed([proselint, "check", str(path)], args.runs)
    start = timed([compliance, "lint", str(empty)], args.runs)
    # the file must have been read: a refusal (exit 2, too large, unreadable) timed as a run
    # would report a ratio for work that was never done
    read = subprocess.run([compliance, "lint", str(path), "--format", "json"],
                          capture_output=True, text=True, check=False)
    if read.returncode not in (0, 1):
        sys.exit(f"compliance lint did not read {path} (exit {read.returncode}): "
                 f"{read.stderr.strip() or read.stdout.strip()}")
    found = read.stdout.count('"code"')
    print(f"file: {size / 1e6:.2f} MB, {args.claim_share:.0%} of sentences from the claim "
          f"corpus, {'every sentence distinct' if args.distinct else 'sentences repeat'} "
          f"({path if args.keep else 'deleted'})")
    print(f"sentences: {n_sentences}, distinct after normalising: {n_distinct}")
    print(f"{'':18}{'wall s':>9}{'cpu s':>9}")
    print(f"{'compliance lint':18}{ours[0]:9.2f}{ours[1]:9.2f}   {found} findings")
    print(f"{'proselint check':18}{theirs[0]:9.2f}{theirs[1]:9.2f}")
    print(f"{'(lint start-up)':18}{start[0]:9.2f}{start[1]:9.2f}   on a one-line file")
    target = 10 if args.distinct else 20
    print(f"throughput: {size / 1e6 / ours[0]:.2f} MB/s wall, {size / 1e6 / ours[1]:.2f} MB/s cpu")
    print(f"ratio (proselint / compliance lint): wall {theirs[0] / ours[0]:.1f}x, "
          f"cpu {theirs[1] / ours[1]:.1f}x (target >= {target}x)")
    if not args.keep:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
