"""Evidence of any shape gets a verdict, never a traceback.

Every JSON/YAML case file is re-serialised with values swapped for values of
other types (null, strings, numbers, lists, mappings), re-parsed by its adapter
and judged by every check. A fixed seed keeps the run reproducible.
"""

from __future__ import annotations

import copy
import io
import json
import random
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from compliance.adapters import EvidenceDoc, EvidenceError, parse_text
from compliance.rules.config import CONFIG_RULES, Status

CASES = Path(__file__).resolve().parents[2] / "fixtures" / "config" / "cases"
SHAPES: list[Any] = [None, "x", 0, 1.5, True, [], {}, ["a"], {"a": 1}, [None], [{}], "*"]


def _mutate(data: Any, rnd: random.Random) -> None:
    if isinstance(data, dict) and data:
        key = rnd.choice(list(data))
        if rnd.random() < 0.5:
            data[key] = copy.deepcopy(rnd.choice(SHAPES))
        else:
            _mutate(data[key], rnd)
    elif isinstance(data, list) and data:
        i = rnd.randrange(len(data))
        if rnd.random() < 0.5:
            data[i] = copy.deepcopy(rnd.choice(SHAPES))
        else:
            _mutate(data[i], rnd)


def _reserialise(doc: EvidenceDoc, data: Any) -> EvidenceDoc | None:
    if doc.path.endswith(".json"):
        text = json.dumps(data, indent=1)
    elif doc.path.endswith((".yml", ".yaml")):
        buf = io.StringIO()
        YAML(typ="safe").dump_all(data if doc.kind == "kubernetes" else [data], buf)
        text = buf.getvalue()
    else:
        return None
    try:
        return parse_text(text, doc.path, doc.kind if doc.kind != "claude-settings" else None)
    except EvidenceError:
        return None


def _cases() -> list[list[EvidenceDoc]]:
    out = []
    for path in sorted(CASES.glob("CFG*.yml")):
        for case in YAML(typ="safe").load(path.read_text(encoding="utf-8")):
            out.append([parse_text(text, name) for name, text in case["files"].items()])
    return out


def test_checks_give_a_verdict_for_evidence_of_any_shape() -> None:
    rnd = random.Random(20261130)
    cases = _cases()
    judged = 0
    for _ in range(400):
        docs = []
        for doc in rnd.choice(cases):
            data = copy.deepcopy(doc.data)
            for _ in range(rnd.randint(1, 3)):
                _mutate(data, rnd)
            mutated = _reserialise(doc, data)
            docs.append(mutated if mutated is not None else doc)
        for rule in CONFIG_RULES.values():
            assert rule().evaluate(docs).status in set(Status)
            judged += 1
    assert judged == 400 * len(CONFIG_RULES) == 400 * 27
