"""The answer library: approved answers reused on the next questionnaire, while still true.

A library is a plain JSON file a team keeps in git (format in
docs/questionnaires.md). ``compliance library add`` fills it from an
answered questionnaire a human has reviewed (its cells are the final text, its
review file ``<out>.review.json`` next to it the provenance) or a review file
alone, with human-final answers only: those a reviewer changed from the
tool's draft, and drafts left as they were only when a reviewer approves them
as they stand (``--approve-unedited``). Each entry keeps the question, the approved choice and
narrative, the controls and evidence sha256 it rests on, and a fingerprint
of each control (status, claim, limits) as the model stood when it was added.

``compliance answer --library FILE`` reuses an entry for the same or a
similar question, but only while every control it names still exists, is
deployed, has a VERIFIED claim and the same fingerprint, and the evidence it
rests on has the same sha256. Otherwise the entry is *stale*: it is not
reused, and the review lists it for re-review with what changed.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compliance.questionnaire.types import Answer, Choice, Format, Question, QuestionnaireError
from compliance.questionnaire.write import cell_values

FORMAT = "compliance answer library"
#: Two questions are "similar" when their content words overlap this much (Dice: twice the
#: shared words over both counts): "Do you keep audit logs of AI agent activity?" and "Do you
#: maintain ..." are (0.8); "retained for 1 year" and "retained for 90 days" are not (0.75).
SIMILAR = 0.8
_STOP_WORDS = (
    "the and for are you your does have with that this from any all its their there which "
    "what when where who how our has been being into per such than then them they will can "
    "please describe provide explain"
)
_STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True, slots=True)
class Entry:
    question: str
    narrative: str
    choice: str | None
    control_ids: tuple[str, ...]
    evidence_sha256: tuple[str, ...]
    controls: dict[str, str]  # control id -> fingerprint when added
    source: str  # the file it was added from


@dataclass(slots=True)
class Library:
    path: Path
    entries: list[Entry] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Reuse:
    """What the library says about one question: an answer to reuse, or why it cannot."""

    entry: Entry
    similarity: float
    answer: Answer | None = None  # None: stale
    stale: str = ""


def fingerprint(control: Any) -> str:
    """Status, claim and limits of a control: what an approved answer rests on."""
    status = getattr(control.status, "value", control.status)
    text = "\0".join([str(status), " ".join(control.claim.split()), *sorted(control.limits)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def words(text: str) -> frozenset[str]:
    return frozenset(
        w for w in re.findall(r"[a-z0-9]+", text.casefold()) if len(w) > 2 and w not in _STOP
    )


def similarity(a: str, b: str) -> float:
    if " ".join(a.casefold().split()) == " ".join(b.casefold().split()):
        return 1.0
    wa, wb = words(a), words(b)
    if not wa or not wb:
        return 0.0
    return round(2 * len(wa & wb) / (len(wa) + len(wb)), 2)


def read_library(path: Path) -> Library:
    """Read a library; a missing file is an empty library (``library add`` creates it)."""
    if not path.exists():
        return Library(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise QuestionnaireError(f"{path}: cannot read the answer library ({exc})") from None
    except json.JSONDecodeError as exc:
        raise QuestionnaireError(f"{path}:{exc.lineno}:{exc.colno}: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise QuestionnaireError(f'{path}: not an answer library (no "format": "{FORMAT}")')
    entries = []
    for i, item in enumerate(data.get("answers", [])):
        try:
            entries.append(
                Entry(
                    question=str(item["question"]),
                    narrative=str(item["narrative"]),
                    choice=item.get("choice"),
                    control_ids=tuple(item["control_ids"]),
                    evidence_sha256=tuple(item["evidence_sha256"]),
                    controls=dict(item["controls"]),
                    source=str(item.get("source", "")),
                )
            )
        except (KeyError, TypeError) as exc:
            raise QuestionnaireError(f"{path}: answers[{i}] is missing {exc}") from None
    return Library(path, entries)


def library_json(library: Library) -> str:
    """The library as stable JSON: entries sorted by question, keys in a fixed order."""
    answers = [
        {
            "question": e.question,
            "choice": e.choice,
            "narrative": e.narrative,
            "control_ids": list(e.control_ids),
            "evidence_sha256": list(e.evidence_sha256),
            "controls": dict(sorted(e.controls.items())),
            "source": e.source,
        }
        for e in sorted(library.entries, key=lambda e: (e.question.casefold(), e.source))
    ]
    return json.dumps({"format": FORMAT, "answers": answers}, indent=2, ensure_ascii=False) + "\n"


def best_entry(library: Library, question: str) -> tuple[Entry, float] | None:
    best: tuple[Entry, float] | None = None
    for e in library.entries:
        s = similarity(question, e.question)
        if s >= SIMILAR and (best is None or s > best[1]):
            best = (e, s)
    return best


def reuse(
    library: Library,
    question: str,
    model: Any,
    verdicts: dict[str, str],
    shas: dict[str, str],
    choice_allowed: bool,
) -> Reuse | None:
    """The library's answer for ``question`` if it still rests on the same verified controls
    and evidence; a stale :class:`Reuse` (answer None) saying what changed; or None."""
    found = best_entry(library, question)
    if found is None:
        return None
    entry, score = found
    controls = {c.id: c for c in model.controls}
    changed = []
    for cid in entry.control_ids:
        c = controls.get(cid)
        if c is None:
            changed.append(f"{cid} is no longer in the model")
        elif fingerprint(c) != entry.controls.get(cid):
            changed.append(f"{cid} changed (status, claim or limits)")
        elif getattr(c.status, "value", c.status) != "deployed" or verdicts.get(cid) != "verified":
            changed.append(f"{cid} is no longer deployed and VERIFIED")
    now = sorted(
        {
            shas[e]
            for cid in entry.control_ids
            if cid in controls
            for e in controls[cid].evidence
            if e in shas
        }
    )
    if not changed and now != sorted(entry.evidence_sha256):
        changed.append("the evidence it rests on changed (sha256)")
    if changed:
        return Reuse(entry, score, stale="; ".join(changed))
    choice = Choice(entry.choice) if entry.choice in {c.value for c in Choice} else None
    limits = {limit.id: limit for limit in model.limits}
    limit_ids = dict.fromkeys(lid for cid in entry.control_ids for lid in controls[cid].limits)
    answer = Answer(
        choice=choice if choice_allowed else None,
        narrative=entry.narrative,
        control_ids=entry.control_ids,
        evidence_sha256=entry.evidence_sha256,
        limits=tuple(" ".join(limits[lid].text.split()) for lid in limit_ids if lid in limits),
        match_score=score,
        library=f"reused from {entry.source or 'the library'} (similarity {score:.2f})",
    )
    return Reuse(entry, score, answer=answer)


@dataclass(slots=True)
class Reviewed:
    """What ``library add`` found in a review: the human-final entries (edited by a
    reviewer, or drafts a reviewer approved as they stand), the unreviewed drafts it left
    out, and one line per other item left out."""

    entries: list[Entry] = field(default_factory=list)
    edited: int = 0
    approved_as_drafted: int = 0
    unreviewed: list[str] = field(default_factory=list)  # keys
    skipped: list[str] = field(default_factory=list)


def entries_from_review(
    review: Path,
    answered: Path | None,
    model: Any,
    shas: dict[str, str],
    approve_unedited: bool = False,
) -> Reviewed:
    """Entries from a review file, with the human-final text from ``answered`` when given
    (its notes cell, else its answer cell; a JSON item's ``answer``). Only an answer a
    reviewer changed from the tool's draft is human-final; a draft left as the tool wrote
    it (and every draft of a review file read alone) is added only with
    ``approve_unedited``, a reviewer's say-so that the drafts as they stand are approved."""
    try:
        data = json.loads(review.read_text(encoding="utf-8"))
        items = data["items"]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise QuestionnaireError(
            f"{review}: not a review file of compliance answer ({exc})"
        ) from None
    questions: dict[str, Question] = {}
    document: Any = None
    if answered is not None:
        from compliance.questionnaire.load import load_questionnaire

        read = load_questionnaire(answered)
        questions = read.by_key()
        document = read.source.document if read.format is Format.JSON else None
    controls = {c.id: c for c in model.controls}
    out = Reviewed()
    source = (answered or review).name
    for item in items:
        key, ids = item.get("key"), tuple(item.get("control_ids") or ())
        draft = _drafted(item)
        choice: Any = draft.choice.value if draft.choice else None
        narrative, edited = draft.narrative, False
        if answered is not None:
            q = questions.get(key)
            if q is None:
                continue
            choice, narrative = _final(q, document)
            edited = _edited(q, draft, document)
        if not narrative.strip():
            continue
        if item.get("status") == "left for a human" and answered is None:
            continue
        if not edited and not approve_unedited:
            out.unreviewed.append(str(key))
            continue
        if not ids or any(c not in controls for c in ids):
            out.skipped.append(f"{key}: no controls in the model back it; not added")
            continue
        now = sorted({shas[e] for c in ids for e in controls[c].evidence if e in shas})
        if now != sorted(item.get("evidence_sha256") or ()):
            out.skipped.append(
                f"{key}: its evidence changed since the review; draft it again first"
            )
            continue
        out.entries.append(
            Entry(
                question=item.get("question") or "",
                narrative=narrative.strip(),
                choice=choice or None,
                control_ids=ids,
                evidence_sha256=tuple(now),
                controls={c: fingerprint(controls[c]) for c in ids},
                source=source,
            )
        )
        if edited:
            out.edited += 1
        else:
            out.approved_as_drafted += 1
    return out


def _drafted(item: dict[str, Any]) -> Answer:
    """The answer the tool drafted for one review item (empty when it drafted none)."""
    if item.get("status") == "left for a human":
        return Answer()
    choice = item.get("choice")
    return Answer(
        choice=Choice(choice) if choice in {c.value for c in Choice} else None,
        narrative=item.get("narrative") or "",
    )


def _final(q: Question, document: Any) -> tuple[str | None, str]:
    """(choice, text) as the answered file holds them now: a JSON item's ``answer``; the
    choice and notes cells; or, without a notes cell, the answer cell's text."""
    if document is not None:
        node = document
        for step in q.json_path or ():
            node = node[step]
        answer = node.get("answer") if isinstance(node, dict) else None
        if not isinstance(answer, dict):
            return None, answer if isinstance(answer, str) else ""
        choice = answer.get("choice")
        return (choice if isinstance(choice, str) else None), str(answer.get("narrative") or "")
    if q.notes_ref is not None:
        return q.existing, q.existing_notes or ""
    return None, q.existing or ""


def _edited(q: Question, draft: Answer, document: Any) -> bool:
    """Whether the answered file says something else for ``q`` than the tool wrote there
    (white space aside): a reviewer's edit, a filled choice, or an answer where the tool
    left the question blank."""
    if document is not None:
        choice, text = _final(q, document)
        drafted = draft.choice.value if draft.choice else None
        return (_fold(choice), _fold(text)) != (_fold(drafted), _fold(draft.narrative))
    wrote = cell_values(q, draft) if draft.answered else {}
    now = {q.answer_ref: q.existing, q.notes_ref: q.existing_notes}
    return any(_fold(now[ref]) != _fold(wrote.get(ref)) for ref in now if ref is not None)


def _fold(text: str | None) -> str:
    return " ".join((text or "").split())


def add_entries(library: Library, new: list[Entry]) -> int:
    """Add ``new`` to ``library``; an entry for the same question replaces the old one."""
    for e in new:
        library.entries = [
            x for x in library.entries if similarity(x.question, e.question) < 1.0
        ] + [e]
    return len(new)
