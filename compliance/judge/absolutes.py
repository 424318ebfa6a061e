"""Absolute predicates, found once and attached to the family whose topic they govern.

The family rules (compliance/rules/claims/) know each family's own wording. This
module knows what all overclaims share: a guarantee ("ensures", "prevents"),
universality ("every request is logged"), a safety adverb or a risk-free consequence
("runs untrusted code safely", "without risking the host") or an absolute inability
("cannot escape", "can't be bypassed"). Whether such a predicate is asserted is decided
once, for every family, with the sentence's :class:`~compliance.judge.analysis.Analysis`
(negation, hedges, mentions, conditions, requirements); the family is the one whose
topic words stand nearest the predicate in its clause.

The vocabulary is data: ``compliance/rules/claims/vocabulary.yaml`` (phrase syntax at
its top). Adding a paraphrase of a known claim is one line there plus one case in
``tests/rules/claims/cases/``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from typing import Any

from compliance.judge import lexicon as lx
from compliance.judge.analysis import MODAL_HEDGES, Analysis
from compliance.judge.lazyre import lazy
from compliance.judge.triggers import TriggerIndex

#: What each predicate class says, completing "the words ... ".
CLASS_READS = {
    "absolute": "admit no exception",
    "stays-local": "say that data never leaves",
    "guarantee": "state a guarantee",
    "universal": "claim that every case is covered",
    "relaxed-review": "make human review optional",
    "hidden": "say that a value cannot be seen at all",
    "safety": "say that the action carries no risk",
    "capability": "state an absolute inability",
    "tamper-proof": "say that no one can switch the control off or get around it",
    "unconditional": "say that it holds whatever happens",
}


@dataclass(frozen=True)
class Predicate:
    name: str
    #: "asserted" (a claim unless negated), "capability" (an inability, a claim as it
    #: stands) or "either" (absolute in both polarities: "under any circumstances")
    reads: str
    regex: re.Pattern[str]
    #: the family this class always claims, whatever its topic (None: the nearest topic's)
    family: str | None = None
    #: the family it claims when no family's topic stands near it (None: no claim)
    default: str | None = None
    #: with ``family``: only where that family's topic stands in the sentence
    needs_topic: bool = False


@dataclass(frozen=True)
class Family:
    key: str
    code: str
    topic: re.Pattern[str] | None
    #: accurate designs in this family's words: a sentence with one is not its claim
    designs: re.Pattern[str] | None = None
    #: the general family: its topics count only where no other family's stands
    fallback: bool = False


@dataclass(frozen=True)
class Vocabulary:
    predicates: tuple[Predicate, ...]
    families: tuple[Family, ...]
    honest: re.Pattern[str]
    #: sentences that are no claim of any family (see ``frames:`` in the vocabulary)
    frames: re.Pattern[str]
    #: any predicate at all: a sentence without one costs one search
    gate: re.Pattern[str]

    def family(self, key: str) -> Family:
        return next(f for f in self.families if f.key == key)

    @cached_property
    def by_topic(self) -> tuple[Family, ...]:
        """The families a predicate's nearest topic may claim (a guarantee that review
        happens is no claim that it is optional: review has a class of its own)."""
        return tuple(f for f in self.families if f.key not in _OWN_CLASS_ONLY)


@dataclass(frozen=True)
class Absolute:
    """An asserted absolute predicate: sentence-relative offsets, its family's rule code."""

    start: int
    end: int
    code: str
    predicate: str
    words: str

    @property
    def reads(self) -> str:
        """What the words do, completing 'the words "..." ...'."""
        return CLASS_READS.get(self.predicate, "state an absolute")


#: ``...``: up to six words, not across a conjunction that starts another clause; a short
#: parenthetical counts as one word ("run AI agents (Claude Code, Codex) safely")
_GAP = (r"(?:\s*,?\s+(?!(?:but|yet|so|which|because|since|although|though|while|whereas|"
        r"unless|except)\b)(?:[\w'/-]+|\([^()]{1,60}\))){0,6}?\s*")

_WORD = re.compile(r"[\w'.-]+\*?|[^\s\w]")


def _word(token: str) -> str:
    alts = []
    for alt in token.split("|"):
        stem = alt.endswith("*")
        body = re.escape(alt.rstrip("*"))
        alts.append(body.replace("_", r"\s+") + (r"[\w-]*" if stem else ""))
    return "(?:" + "|".join(alts) + ")" if len(alts) > 1 else alts[0]


def compile_phrase(phrase: str, slots: dict[str, str] | None = None) -> str:
    """A vocabulary phrase as a regex (syntax at the top of vocabulary.yaml); ``{name}``
    stands for the regex ``slots[name]``."""
    out = ""
    pending_gap = False
    for token in phrase.split():
        if token == "...":
            pending_gap = True
            continue
        if token.startswith("!") and len(token) > 1 and out:
            out += rf"(?!\s+{_word(token[1:])}\b)"  # not followed by these words
            continue
        if token == "^" and not out:
            out = r"^[\s*_>#+-]*"
            continue
        optional = token.startswith("?") and len(token) > 1
        if token.startswith("{") and token.endswith("}") and slots is not None:
            piece = f"(?:{slots[token[1:-1]]})"
            token = "a"  # a word: the separators below treat it as one
        else:
            piece = _word(token[1:] if optional else token)
        if token[-1].isalnum() or token.endswith("*"):
            piece += r"\b"
        if token[0].isalnum() or optional:
            piece = r"\b" + piece
        if not out or out.endswith("]*"):
            sep = ""
        elif pending_gap:
            sep = _GAP
        else:
            sep = r"\s*" if not token[0].isalnum() or not out.endswith("b") else r"\s+"
        out += f"(?:{sep}{piece})?" if optional else sep + piece
        pending_gap = False
    return out


def _union(phrases: list[str], slots: dict[str, str] | None = None) -> str:
    return "|".join(f"(?:{compile_phrase(p, slots)})" for p in phrases)


VOCABULARY = resources.files("compliance.rules.claims").joinpath("vocabulary.yaml")


def parse_vocabulary(text: str) -> Any:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(text)


@cache
def vocabulary() -> Vocabulary:
    """The vocabulary, compiled on first use (its YAML parsed ahead of time when
    :mod:`compliance.judge.precompiled` holds exactly this text's content)."""
    from compliance.judge import precompiled

    raw = precompiled.parsed(VOCABULARY.read_text("utf-8"), parse_vocabulary)
    harms = raw.get("harms", {})
    slots = {"harm": _union([h for phrases in harms.values() for h in phrases])}
    preds = tuple(Predicate(name, spec["reads"], lazy(_union(spec["phrases"], slots)),
                            spec.get("family"), spec.get("default"),
                            bool(spec.get("needs_topic")))
                  for name, spec in raw["predicates"].items())
    fams = tuple(Family(key, spec["code"],
                        lazy(_union(spec["topics"] + harms.get(key, [])))
                        if spec["topics"] or harms.get(key) else None,
                        lazy(_union(spec["designs"])) if spec.get("designs") else None,
                        bool(spec.get("fallback")))
                 for key, spec in raw["families"].items())
    gate = lazy("|".join(p.regex.pattern for p in preds))
    return Vocabulary(preds, fams, lazy(_union(raw["honest"])),
                      lazy(_union(raw["frames"])), gate)


def honest_design(low: str, code: str) -> bool:
    """Does this normalised sentence describe an accurate design of family ``code``, or
    stand in a frame that makes it no claim at all ("guarantees may not hold")?"""
    voc = vocabulary()
    return voc.frames.search(low) is not None or any(
        f.code == code and f.designs is not None and f.designs.search(low) is not None
        for f in voc.families)


@cache
def _gate_index() -> TriggerIndex:
    """Which predicates may match a sentence (:mod:`compliance.judge.triggers`), from
    the shipped trigger table: a sentence with none of their words costs no search."""
    from compliance.rules.claims.trigger_table import known

    return TriggerIndex([p.regex for p in vocabulary().predicates], known())


def candidates(text: str) -> list[int]:
    """Indices (in order) of the predicates that may match ``text``: the others cannot."""
    return _gate_index().candidates([text])[0]


def may_apply(low: str) -> bool:
    """Can :func:`find` find anything in this normalised sentence? (Exactly when the
    vocabulary's ``gate``, the union of the predicates, matches it.)"""
    preds = vocabulary().predicates
    return any(preds[k].regex.search(low) is not None for k in candidates(low))


#: A topic outside the predicate's clause (its complement clause, "ensures that ...")
#: counts only when no topic stands inside it.
_OTHER_CLAUSE = 10_000

#: Hedges that leave an absolute predicate absolute: "designed to safely run" still
#: promises the outcome.
_NOT_HEDGES = frozenset({"designed to", "built to", "engineered to", "architected to"})


#: A concrete object after the predicate: a path, a file, a host name, code. "Cannot read
#: ~/.ssh or .env files" states what a configuration does, not an absolute.
_SPECIFIC = re.compile(r"(?:^|[\s(,])(?:~/|/[\w.-]|\.[a-z]{2,5}\b)|`|"
                       r"\b[\w-]+\.(?:com|io|org|net|dev|sh|json|ya?ml|toml|py|md)\b")

#: Families claimed only through a predicate class of their own (``family:`` in the
#: vocabulary): review's claim is that review may be skipped.
_OWN_CLASS_ONLY = frozenset({"review"})

#: A clause that opens with its verb: an instruction ("ensure that logs are created").
_INSTRUCTION = re.compile(r"[\s,*:]*(?:in [^,]+,\s*)?ensure\b")


def _family(an: Analysis, clause: tuple[int, int], s: int, e: int,
            fams: tuple[Family, ...]) -> Family | None:
    """The family whose topic stands nearest the predicate ``s:e``, in its clause first."""
    cs, ce = clause
    # a verb ending its clause governs the next one ("ensures | that agents cannot ...")
    hi = an.clause_of(ce)[1] if ce - e <= 6 and ce < len(an.text) else ce
    best: tuple[int, Family] | None = None
    for fam in fams:
        if fam.topic is None:
            continue
        for m in fam.topic.finditer(an.text, cs, hi):
            if an.mentioned(*m.span()):
                continue
            gap = max(m.start() - e if m.start() >= e else s - m.end(), 0)
            if not (cs <= m.start() < ce):
                gap += _OTHER_CLAUSE
            if fam.fallback:
                gap += 2 * _OTHER_CLAUSE
            if best is None or gap < best[0]:
                best = (gap, fam)
    if best is None and cs > 0 and lx.CONSEQUENCE.match(an.text, cs):
        # a consequence whose topic stands in the clause before it ("the sandbox is
        # destroyed after each task, so nothing persists")
        return _family(an, (0, len(an.text)), s, e, fams)
    return best[1] if best is not None else None


def _listed(text: str, s: int, e: int) -> bool:
    """Is the predicate one item of a list of words ("prevents, stops, blocks, ...")?
    Participles coordinated after a verb ("cannot be disabled, bypassed, or modified")
    are one predicate said three ways, not a list of words."""
    if _COORDINATED.match(text, s, e):
        return False
    return (_ITEM_AFTER.match(text, e) is not None
            or _ITEM_BEFORE.search(text, max(s - 40, 0), s) is not None)


_COORDINATED = re.compile(r"(?:cannot|can't|can ?not|won't|will not|may not|must not|never) "
                          r"(?:be|get) \w+ed\b")


_ITEM_AFTER = re.compile(r"\s*,\s*[\w-]+(?:\s[\w-]+)?\s*,")
_ITEM_BEFORE = re.compile(r",\s*[\w-]+(?:\s[\w-]+)?\s*,\s*$")


def _honest(voc: Vocabulary, text: str, s: int, e: int) -> bool:
    """Does an honest phrase stand in the sentence outside the predicate ``s:e`` itself
    ("can bypass" inside "no special privileges can bypass" is the claim's own words)?"""
    return any(not (m.start() < e and s < m.end()) for m in voc.honest.finditer(text))


def _hedged(an: Analysis, clause: tuple[int, int], s: int, e: int) -> bool:
    """Does a hedge govern the predicate ``s:e`` in its clause, with no coordination
    between them ("helps prevent", "makes tampering harder"; not "reduce X and ensure Y")?
    A modal after the predicate sits in a relative clause and hedges only that."""
    cs, ce = clause
    for a, b in an.hedges:
        word = an.text[a:b]
        if not (cs <= a < ce) or an.mentioned(a, b) or word in _NOT_HEDGES:
            continue
        if a >= e and word in MODAL_HEDGES:
            continue
        between = an.text[b:s] if a < s else "" if a < e else an.text[e:a]
        if " and " not in between and "," not in between:
            return True
    return False


def find(an: Analysis) -> Absolute | None:
    """The first absolute predicate asserted in ``an`` with the family it is a claim of."""
    if an.question or an.skip:
        return None
    voc = vocabulary()
    text = an.text
    for k in candidates(text):  # (a predicate the trigger index rules out cannot match)
        pred = voc.predicates[k]
        for m in pred.regex.finditer(text):
            s, e = m.span()
            # ("even if ... compromised" is a condition by its words, asserted by its clause)
            said = (s - 1, s - 1) if s > 0 and text.startswith("even ", s) else (s, e)
            if s == e or an.mentioned(*said) or any(a <= s and e <= b for a, b in an.quotes):
                continue  # quoted words are mentioned, not said
            if _listed(text, s, e):
                continue
            clause = an.clause_of(s)
            cs, ce = clause
            if e > ce:
                ce = an.clause_of(e - 1)[1]
                clause = (cs, ce)
            if _hedged(an, clause, s, e) or _honest(voc, text, s, e):
                continue
            # a restriction anywhere ("except the model API", "; data can still leave"), a
            # requirement before it ("should be implemented ... to ensure"), an instruction
            # ("ensure that logs are created") or history make it no absolute claim
            if lx.RESTRICTOR.search(text) or lx.PAST_HABIT.search(text, cs, s):
                continue
            if lx.DEONTIC.search(text, 0, e) or lx.HISTORY.search(text, cs, ce) or (
                    lx.taken_back(text, s, ce)):
                continue
            if _INSTRUCTION.match(text, cs) and text.startswith("ensure", s):
                continue
            if pred.reads != "either" and an.negations(clause, (s, e), s, e) % 2 == 1:
                continue
            if pred.name != "safety" and _SPECIFIC.search(text, e, ce):
                continue  # a bounded statement about named files or hosts, not an absolute
            fam: Family | None
            if pred.family is not None:
                fam = voc.family(pred.family)
                if pred.needs_topic and (fam.topic is None or not fam.topic.search(text)):
                    continue
            else:
                fam = _family(an, clause, s, e, voc.by_topic)
            if fam is None and pred.default is not None:
                # claimed anyway: of the family whose topic stands anywhere in the
                # sentence, or of the class's default
                fam = (_family(an, (0, len(text)), s, e, voc.by_topic)
                       or voc.family(pred.default))
            if fam is None or (fam.designs is not None and fam.designs.search(text)):
                continue  # (an accurate design of that family: a later predicate may claim)
            return Absolute(s, e, fam.code, pred.name, text[s:e])
    return None
