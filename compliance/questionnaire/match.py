"""Match a question no mapping covers to what the model speaks to: layers, concepts, topics.

The vocabulary (``vocabulary.yaml``) is data; this module is the engine. A
question is scored on what it *says*, never on its id or its position:

- a concept's strong term (``egress``, ``pull request``, ``audit log``) gives
  0.6, each further distinct term of the same concept 0.1 (up to 0.2 more);
- a concept with only weak terms (``network``, ``review``, ``log``) gives
  0.2 per distinct term, at most 0.4;
- a word saying the question is about AI agents (``agent``, ``LLM``,
  ``AI``) adds 0.25, a second concept at 0.5 or more adds 0.1;
- each topic the model never covers (encryption, MFA, ...) takes 0.2 off.

The score is clamped to 0..1 and compared with ``--min-confidence``. A
question about something the model never describes (offices, HR, insurance,
physical security, corporate SIEM, written policies, ...) is reported as
``elsewhere`` and is not drafted, unless it also has a strong term and an AI
word (then the answer says which part it covers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from compliance.load.yamlpos import YamlLoadError, parse_yaml
from compliance.questionnaire.mapping import LAYERS
from compliance.questionnaire.types import QuestionnaireError

STRONG, EXTRA, EXTRA_MAX, WEAK, WEAK_MAX = 0.6, 0.1, 0.2, 0.2, 0.4
CONTEXT, SECOND_CONCEPT, UNCOVERED = 0.25, 0.1, 0.2
#: Default for ``--min-confidence``; docs/questionnaires.md reports the measurement behind it.
DEFAULT_MIN_CONFIDENCE = 0.55


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Concept(_Strict):
    id: str
    layer: str
    label: str
    strong: list[str]
    weak: list[str] = Field(default_factory=list)
    control: list[str]


class Topic(_Strict):
    id: str
    label: str
    terms: list[str]


class Vocabulary(_Strict):
    concepts: list[Concept]
    context: list[str]
    elsewhere: list[Topic]
    uncovered: list[Topic]


def term_pattern(term: str) -> re.Pattern[str]:
    """Terms of up to three letters match whole words (plural allowed); longer ones match at
    the start of a word; a space or hyphen inside a term matches spaces or hyphens."""
    body = r"[\s\-]+".join(re.escape(part) for part in re.split(r"[\s\-]+", term.casefold()))
    return re.compile(rf"\b{body}s?\b" if len(term) <= 3 else rf"(?<![\w]){body}")


@dataclass(frozen=True, slots=True)
class Hit:
    term: str
    words: str  # the question's own words that matched


@dataclass(frozen=True, slots=True)
class ConceptHit:
    concept: Concept
    strong: tuple[Hit, ...]
    weak: tuple[Hit, ...]

    @property
    def score(self) -> float:
        if self.strong:
            extra = len({h.words for h in self.strong + self.weak}) - 1
            return STRONG + min(EXTRA_MAX, EXTRA * extra)
        return min(WEAK_MAX, WEAK * len({h.words for h in self.weak}))


@dataclass(frozen=True, slots=True)
class Match:
    """What a question says, in the model's terms."""

    concepts: tuple[ConceptHit, ...]
    context: tuple[Hit, ...]
    elsewhere: tuple[tuple[Topic, tuple[Hit, ...]], ...]
    uncovered: tuple[tuple[Topic, tuple[Hit, ...]], ...]
    score: float

    @property
    def layers(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.concept.layer for c in self.concepts))

    @property
    def has_strong(self) -> bool:
        return any(c.strong for c in self.concepts)

    @property
    def words(self) -> tuple[str, ...]:
        """The question's words that matched, concepts first, then the AI words."""
        hits = [h for c in self.concepts for h in c.strong + c.weak] + list(self.context)
        return tuple(dict.fromkeys(h.words for h in hits))

    @property
    def off_topic(self) -> Topic | None:
        """The topic elsewhere that keeps the question from being drafted, if any."""
        if not self.elsewhere or (self.has_strong and self.context):
            return None
        return self.elsewhere[0][0]


class Matcher:
    """Compiled vocabulary: :meth:`match` scores one question's text."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self._concepts = [
            (c, _compile(c.strong), _compile(c.weak), _compile(c.control))
            for c in vocabulary.concepts
        ]
        self._context = _compile(vocabulary.context)
        self._elsewhere = [(t, _compile(t.terms)) for t in vocabulary.elsewhere]
        self._uncovered = [(t, _compile(t.terms)) for t in vocabulary.uncovered]

    def match(self, text: str) -> Match:
        folded = " ".join(text.split()).casefold()
        concepts = []
        for concept, strong, weak, _control in self._concepts:
            s, w = _hits(strong, folded), _hits(weak, folded)
            w = tuple(h for h in w if not any(h.words in x.words for x in s))
            if s or w:
                concepts.append(ConceptHit(concept, s, w))
        concepts.sort(key=lambda c: -c.score)
        context = _hits(self._context, folded)
        elsewhere = tuple((t, h) for t, pats in self._elsewhere if (h := _hits(pats, folded)))
        uncovered = tuple((t, h) for t, pats in self._uncovered if (h := _hits(pats, folded)))
        score = 0.0
        if concepts:
            score = concepts[0].score
            if len(concepts) > 1 and concepts[1].score >= 0.5:
                score += SECOND_CONCEPT
            if context:
                score += CONTEXT
            score -= UNCOVERED * len(uncovered)
        score = round(min(1.0, max(0.0, score)), 2)
        return Match(tuple(concepts), context, elsewhere, uncovered, score)

    def control_mentions(self, concept: Concept, control_text: str) -> bool:
        """Whether a control's own words name the concept (its ``control`` terms)."""
        for c, _s, _w, pats in self._concepts:
            if c.id == concept.id:
                return bool(_hits(pats, control_text.casefold()))
        return False


def _compile(terms: list[str]) -> list[tuple[str, re.Pattern[str]]]:
    return [(t, term_pattern(t)) for t in terms]


def _hits(patterns: list[tuple[str, re.Pattern[str]]], folded: str) -> tuple[Hit, ...]:
    out: dict[str, Hit] = {}
    for term, pattern in patterns:
        m = pattern.search(folded)
        if m and term not in out:
            end = m.end()
            while end < len(folded) and (folded[end].isalnum() or folded[end] == "-"):
                end += 1  # the whole word: "isolat" shows as "isolated"
            out[term] = Hit(term, folded[m.start() : end])
    # A term inside a longer hit of the same list ("log" in "audit log") adds nothing.
    words = [h.words for h in out.values()]
    return tuple(h for h in out.values() if not any(h.words != w and h.words in w for w in words))


@cache
def builtin_matcher() -> Matcher:
    """The matcher over the packaged ``vocabulary.yaml``."""
    where = "builtin:vocabulary.yaml"
    text = (resources.files("compliance.questionnaire") / "vocabulary.yaml").read_text("utf-8")
    try:
        doc = parse_yaml(text, where)
        vocabulary = Vocabulary.model_validate(doc.data)
    except (YamlLoadError, ValidationError) as exc:  # a packaging bug, said plainly
        raise QuestionnaireError(f"{where}: cannot be read ({exc})") from None
    unknown = [c.layer for c in vocabulary.concepts if c.layer not in LAYERS]
    if unknown:
        raise QuestionnaireError(f"{where}: unknown layer {unknown[0]!r}")
    return Matcher(vocabulary)
