"""A second opinion on sentences no rule flagged: a linear model over word n-grams.

The family rules and the shared absolute predicates are precise on the wordings they know
and blind to the ones they do not; on real public text nobody here wrote, they find about
half of the overclaims. This model was trained (``training/train_judge_model.py``,
reproducible, no network, pure Python) on the labelled statements of tests/corpus and of
../shared/data/claims-real-dev. It scores a sentence from the word n-grams it contains,
so it carries no grammar: it cannot tell "cannot escape" from "we never said it cannot
escape" as the rules can. That is why its findings are warnings (CLM010), raised only on
sentences the rules passed, each naming the family it reads and the n-grams that weighed
most, and why a reviewer, not CI, decides them.

Reading the weights costs about 30 ms; only a judge that meets a sentence the rules
passed pays it.
"""

from __future__ import annotations

import json
import math
import re
import sys
import zlib
from array import array
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

#: A word (letters, digits, inner apostrophes and hyphens) or one punctuation mark.
TOKEN = re.compile(r"[a-z0-9][a-z0-9'\-]*|[^\sa-z0-9]")
#: Longest n-gram the model reads.
MAX_N = 3
#: Sentences longer than this are scored on their first this-many tokens (a bound on time).
MAX_TOKENS = 120
#: n-grams are hashed (CRC-32, stable on every platform) into this many buckets, so the
#: weights file carries no text: about 25,000 buckets are used, and a sentence's n-gram
#: shares a bucket with a trained one about once in 170.
BUCKETS = 1 << 22
#: Metadata (biases, threshold, family order, what it was trained on) and the weights:
#: the sorted bucket ids (uint32), then per bucket the overclaim weight and one weight per
#: family (float32), little-endian.
METADATA = "learned_model.json"
WEIGHTS = "learned_weights.bin"


def features(low: str) -> list[str]:
    """The distinct word 1- to 3-grams of a lower-cased, normalised sentence, in order."""
    tokens = TOKEN.findall(low)[:MAX_TOKENS]
    word = [t[0].isalnum() for t in tokens]
    seen: dict[str, None] = {}
    for n in range(1, MAX_N + 1):
        for i in range(len(tokens) - n + 1):
            if any(word[i:i + n]):  # punctuation alone says nothing of a claim
                seen.setdefault(" ".join(tokens[i:i + n]), None)
    return list(seen)


def bucket(feature: str) -> int:
    return zlib.crc32(feature.encode("utf-8")) & (BUCKETS - 1)


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))


@dataclass(frozen=True)
class Model:
    """The overclaim score's and each family's weights per bucket, and the threshold."""

    #: bucket id -> row of ``matrix``
    rows: dict[int, int]
    #: row-major, ``1 + len(codes)`` columns: the overclaim weight, then each family's
    matrix: array
    bias: float
    #: family rule codes, in column order, and their biases
    codes: tuple[str, ...]
    family_bias: tuple[float, ...]
    threshold: float
    trained_on: dict[str, Any]

    @property
    def width(self) -> int:
        return 1 + len(self.codes)

    def _known(self, feats: list[str]) -> tuple[list[tuple[str, int]], int]:
        """(n-gram, offset of its row) for each distinct bucket the model knows, and how many
        distinct buckets the n-grams fill (the scale, as in training)."""
        rows, width = self.rows, self.width
        seen: dict[int, str] = {}
        for f in feats:
            seen.setdefault(bucket(f), f)
        return [(f, rows[b] * width) for b, f in seen.items() if b in rows], len(seen)

    def score(self, feats: list[str]) -> float:
        """Overclaim score in [0, 1] (the logistic of the linear score)."""
        known, n = self._known(feats)
        if not n:
            return _sigmoid(self.bias)
        m = self.matrix
        return _sigmoid(self.bias + sum(m[at] for _, at in known) / math.sqrt(n))

    def family(self, feats: list[str]) -> str:
        """The family (a claim rule's code) whose weights score these n-grams highest."""
        m = self.matrix
        known, n = self._known(feats)
        scale = 1.0 / math.sqrt(max(n, 1))
        scores = [(b + scale * sum(m[at + 1 + j] for _, at in known), code)
                  for j, (code, b) in enumerate(zip(self.codes, self.family_bias, strict=True))]
        return max(scores)[1]

    def carriers(self, feats: list[str], limit: int = 3) -> list[str]:
        """The n-grams that pushed the score up most, skipping one inside another shown."""
        m = self.matrix
        ranked = sorted((-m[at], f) for f, at in self._known(feats)[0] if m[at] > 0)
        out: list[str] = []
        for _, f in ranked:
            if any(f in g or g in f for g in out):
                continue
            out.append(f)
            if len(out) == limit:
                break
        return out


def pack(weights: dict[int, list[float]]) -> bytes:
    """The weights file's bytes for bucket -> [overclaim weight, family weights...]."""
    ids = array("I", sorted(weights))
    values = array("f", [x for b in ids for x in weights[b]])
    if sys.byteorder == "big":
        ids.byteswap()
        values.byteswap()
    return len(ids).to_bytes(4, "little") + ids.tobytes() + values.tobytes()


def unpack(raw: bytes, meta: dict[str, Any]) -> Model:
    n = int.from_bytes(raw[:4], "little")
    ids, values = array("I"), array("f")
    ids.frombytes(raw[4:4 + 4 * n])
    values.frombytes(raw[4 + 4 * n:])
    if sys.byteorder == "big":
        ids.byteswap()
        values.byteswap()
    codes = tuple(meta["families"])
    if len(values) != n * (1 + len(codes)):
        raise ValueError("the judge's weights file does not match its metadata")
    return Model({b: i for i, b in enumerate(ids)}, values, float(meta["bias"]), codes,
                 tuple(float(meta["families"][c]) for c in codes), float(meta["threshold"]),
                 meta.get("trained_on", {}))


@cache
def model() -> Model | None:
    """The committed model, or None when the package carries no weights."""
    here = resources.files("compliance.judge")
    try:
        meta = json.loads(here.joinpath(METADATA).read_text(encoding="utf-8"))
        raw = here.joinpath(WEIGHTS).read_bytes()
    except FileNotFoundError:
        return None
    return unpack(raw, meta)


@dataclass(frozen=True)
class Reading:
    score: float
    family: str
    carriers: tuple[str, ...]


def read(low: str) -> Reading | None:
    """The model's reading of one normalised sentence, or None at or below its threshold."""
    m = model()
    if m is None:
        return None
    feats = features(low)
    p = m.score(feats)
    if p <= m.threshold:
        return None
    return Reading(p, m.family(feats), tuple(m.carriers(feats)))
