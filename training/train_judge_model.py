"""Train the judge's second opinion (compliance/judge/learned.py) and write its weights.

    python training/train_judge_model.py            # writes compliance/judge/learned_weights.json
    python training/train_judge_model.py --check    # retrains and fails if the file differs
    python training/train_judge_model.py --cv       # only the cross-validated figures

What it learns from (all labelled; nothing is downloaded):
- the synthetic statements of tests/corpus/*.yaml, except the three sealed sets
  (heldout15, heldout18, heldout21), which stay the synthetic figures to quote;
- the minimal pairs of tests/rules/claims/cases/CLM001-CLM009.yaml (CLM010.yaml holds the
  model's own cases, which it is tested on, so it is not trained on them);
- the real public sentences of ../shared/data/claims-real-dev (part1.tsv, part2.tsv), read
  from there and never copied into the repository. Without ../shared the script stops:
  a model trained without them would not be the one committed.

The model is two sets of logistic regressions over binary word 1- to 3-gram features
(n-grams seen in at least two training texts), each text's vector scaled to unit length:
one scores "overclaim or not" (the classes balanced, each real sentence weighing
REAL_WEIGHT synthetic ones, since real writing is what the model must generalise to), and
one per family, trained on the overclaims only, names the family it reads. Training is
AdaGrad over a fixed shuffle (seeded), in pure Python, so the same inputs give the same
bytes on every machine.

The threshold is chosen by cross-validation on the real sentences, never on a set the
model is scored on: the model is trained without part1 and scored on it, then without
part2 and scored on part2, and the threshold is the score above which TARGET_FPR of those
unseen honest sentences fall. On text the model never saw it flags that share of honest
sentences the rules passed; the same cross-validation prints the recall it buys.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from compliance.judge.analysis import normalise  # noqa: E402
from compliance.judge.learned import (  # noqa: E402
    METADATA,
    WEIGHTS,
    Model,
    _sigmoid,
    bucket,
    features,
    pack,
    unpack,
)

HERE = REPO / "compliance" / "judge"
SEALED = ("heldout15", "heldout18", "heldout21")
REAL_WEIGHT = 10.0
TARGET_FPR = 0.05
EPOCHS = 12
RATE = 0.3
L2 = 2e-4
MIN_DF = 2
SEED = 20261204


def _code_of() -> dict[str, str]:
    from compliance.rules.claims import CLAIM_RULES

    return {rule.name: code for code, rule in CLAIM_RULES.items()}


def labelled() -> tuple[list[tuple[str, str, tuple[str, ...]]], dict[str, str]]:
    """(group, text, family codes) for every training text, and sha256 per file read."""
    from ruamel.yaml import YAML

    from tests.corpus.corpus_io import HERE, load
    from tests.corpus.real_text import PART1, PART2, load_real

    code_of = _code_of()
    out: list[tuple[str, str, tuple[str, ...]]] = []
    files: dict[str, str] = {}

    def note(path: Path) -> None:
        base = REPO if path.is_relative_to(REPO) else REPO.parent
        files[path.relative_to(base).as_posix()] = hashlib.sha256(
            path.read_bytes()).hexdigest()

    for path in sorted(HERE.glob("*.yaml")):
        if path.stem in SEALED:
            continue
        note(path)
        out += [("synthetic", i.text, tuple(sorted(code_of[n] for n in i.expect)))
                for i in load(path)]
    for path in sorted((REPO / "tests" / "rules" / "claims" / "cases").glob("*.yaml")):
        if path.stem == "CLM010":  # the model's own cases: what it is tested on
            continue
        note(path)
        data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
        for case in data.get("fail") or []:
            out.append(("synthetic", case["text"], tuple(sorted(case.get("codes") or []))))
        for case in data.get("pass") or []:
            out.append(("synthetic", case["text"] if isinstance(case, dict) else case, ()))
    for name, path in (("part1", PART1), ("part2", PART2)):
        if not path.is_file():
            sys.exit(f"train_judge_model: {path} is missing; the committed model is trained "
                     "with ../shared/data/claims-real-dev beside the repository")
        note(path)
        out += [(name, i.text, tuple(sorted(code_of[n] for n in i.expect)))
                for i in load_real(path)]
    return out, files


def logistic(rows: list[tuple[list[str], int, float]], vocab: set[str]
             ) -> tuple[float, dict[str, float]]:
    """Weighted L2 logistic regression by AdaGrad; rows: (features, 0/1, weight)."""
    w: dict[str, float] = defaultdict(float)
    g2: dict[str, float] = defaultdict(float)
    bias, gb2 = 0.0, 0.0
    order = list(range(len(rows)))
    rng = random.Random(SEED)
    for _ in range(EPOCHS):
        rng.shuffle(order)
        for i in order:
            feats, y, weight = rows[i]
            known = [f for f in feats if f in vocab]
            scale = 1.0 / math.sqrt(len(feats)) if feats else 0.0
            g = weight * (_sigmoid(bias + scale * sum(w[f] for f in known)) - y)
            gb2 += g * g
            bias -= RATE * g / math.sqrt(gb2 + 1e-12)
            for f in known:
                grad = g * scale + L2 * w[f]
                g2[f] += grad * grad
                w[f] -= RATE * grad / math.sqrt(g2[f] + 1e-12)
    return bias, {f: x for f, x in w.items() if abs(x) >= 1e-3}


Doc = tuple[str, list[int], tuple[str, ...]]


def fit(docs: list[Doc]) -> tuple[dict[str, object], bytes]:
    """(metadata, weights file bytes) for (group, bucket ids, family codes) texts; the
    metadata's threshold is left for :func:`cross_validate` to set."""
    df = Counter(f for _, feats, _ in docs for f in feats)
    vocab = {f for f, n in df.items() if n >= MIN_DF}
    base = [(feats, 1 if codes else 0, REAL_WEIGHT if group != "synthetic" else 1.0)
            for group, feats, codes in docs]
    pos = sum(wt for _, y, wt in base if y)
    neg = sum(wt for _, y, wt in base if not y)
    total = pos + neg
    rows = [(f, y, wt * total / (2 * (pos if y else neg))) for f, y, wt in base]
    bias, weights = logistic(rows, vocab)
    over = [(group, feats, codes) for group, feats, codes in docs if codes]
    codes_all = sorted({c for *_, codes in over for c in codes})
    columns = [weights]
    biases: dict[str, float] = {}
    for code in codes_all:
        frows = [(feats, 1 if code in codes else 0,
                  REAL_WEIGHT if group != "synthetic" else 1.0) for group, feats, codes in over]
        fb, fw = logistic(frows, vocab)
        biases[code] = round(fb, 4)
        columns.append(fw)
    used = sorted(set().union(*columns))
    table = {b: [col.get(b, 0.0) for col in columns] for b in used}
    meta: dict[str, object] = {"bias": round(bias, 4), "families": biases, "threshold": 0.5}
    return meta, pack(table)


def trained(docs: list[Doc]) -> Model:
    meta, raw = fit(docs)
    return unpack(raw, meta)


def cross_validate(docs: list[Doc], asked: dict[int, list[str]]
                   ) -> tuple[float, list[tuple[float, bool, tuple[str, ...], str]]]:
    """Threshold at TARGET_FPR over real honest sentences the model was not trained on,
    and every held-out real sentence's (score, is overclaim, codes, predicted family).
    ``asked``: per text, the n-grams the judge would score (empty where the judge does not
    ask the model, see driver.second_opinion_input), so the threshold holds for what runs."""
    held: list[tuple[float, bool, tuple[str, ...], str]] = []
    for part in ("part1", "part2"):
        m = trained([d for d in docs if d[0] != part])
        held += [(m.score(asked[i]) if asked[i] else 0.0, bool(codes), codes,
                  m.family(asked[i]))
                 for i, (group, _, codes) in enumerate(docs) if group == part]
    honest = sorted((s for s, over, *_ in held if not over), reverse=True)
    cut = honest[int(TARGET_FPR * len(honest))]
    return round(cut, 4), held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="retrain and fail if the committed weights differ")
    parser.add_argument("--cv", action="store_true", help="print cross-validation only")
    args = parser.parse_args()
    texts, files = labelled()
    strings = {i: features(normalise(text)) for i, (_, text, _) in enumerate(texts)}
    docs = [(group, sorted({bucket(f) for f in strings[i]}), codes)
            for i, (group, _, codes) in enumerate(texts)]
    from compliance.rules.claims.driver import second_opinion_input

    asked = {}
    for i, (_, text, _) in enumerate(texts):
        low = second_opinion_input(normalise(text))
        asked[i] = features(low) if low is not None else []
    threshold, held = cross_validate(docs, asked)
    over = [h for h in held if h[1]]
    honest = [h for h in held if not h[1]]
    flagged = [h for h in over if h[0] > threshold]
    named = sum(h[3] in h[2] for h in flagged)
    false = sum(h[0] > threshold for h in honest)
    print("cross-validated on real sentences the model did not see (scored on part1 when "
          f"trained without it, on part2 without part2): threshold {threshold}; recall "
          f"{len(flagged) / len(over):.3f} ({len(flagged)}/{len(over)}), with the labelled "
          f"family {named / len(over):.3f}, false-positive rate {false / len(honest):.3f} "
          f"({false}/{len(honest)})")
    if args.cv:
        return
    meta, raw = fit(docs)
    meta["threshold"] = threshold
    meta["trained_on"] = {"files": files, "texts": dict(sorted(Counter(
        g for g, *_ in docs).items())), "script": "training/train_judge_model.py"}
    text = json.dumps(meta, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    if args.check:
        same = ((HERE / METADATA).is_file() and (HERE / METADATA).read_text(encoding="utf-8")
                == text and (HERE / WEIGHTS).is_file()
                and (HERE / WEIGHTS).read_bytes() == raw)
        print("weights reproduce" if same else "the committed weights differ from a fresh "
              "training run")
        sys.exit(0 if same else 1)
    from compliance.atomic import write_bytes_atomic, write_text_atomic

    write_bytes_atomic(HERE / WEIGHTS, raw)
    write_text_atomic(HERE / METADATA, text)
    n = int.from_bytes(raw[:4], "little")
    print(f"wrote compliance/judge/{WEIGHTS} ({len(raw):,} bytes, {n:,} buckets) and "
          f"{METADATA}, from {len(docs):,} texts")


if __name__ == "__main__":
    main()
