"""JSON questionnaires: CSA's CAIQ dataset, Google VSAQ, and a generic list of {id, question}.

VSAQ files are JavaScript-flavoured: ``//`` comment lines and ``"a" + "b"``
string joins. :func:`relaxed_json` turns that dialect into JSON (comments
and joins only outside strings). The writer adds an ``answer`` object to
each answered item and keeps the file's leading comment lines.
"""

from __future__ import annotations

import codecs
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compliance.bounds import NumberTooLong, load_json, long_json_number
from compliance.questionnaire.safety import atomic_output, not_utf8, read_input
from compliance.questionnaire.types import Answer, Question, QuestionnaireError

VSAQ_ANSWERABLE = {"radiogroup", "checkgroup", "line", "box", "yesno", "textarea"}
_BLOCK_TAG = re.compile(r"</?(p|br|li|ul|ol|div|h\d)\b[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")
#: Deepest nesting of arrays and objects accepted (CAIQ needs 3, VSAQ about 10).
MAX_DEPTH = 100
# A string (possibly unterminated), a // comment, or one bracket.
_STRUCTURE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|//[^\n]*|[\[\]{}]')


@dataclass(slots=True)
class JsonSource:
    document: Any
    header: str  # leading comment lines, kept verbatim
    indent: int


def relaxed_json(text: str) -> str:
    """Drop ``//`` comments and join ``"a" + "b"`` outside strings; leave strings untouched."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif ch == "/" and text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif ch == "+":
            k = i + 1
            while k < n and text[k] in " \t\r\n":
                k += 1
            while out and out[-1].isspace():
                out.pop()
            if not (out and out[-1].endswith('"') and k < n and text[k] == '"'):
                raise ValueError(f"unexpected '+' at offset {i}")
            j = k + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out[-1] = out[-1][:-1] + text[k + 1 : j + 1]
            i = j + 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def too_deep(text: str) -> int | None:
    """Offset of the first ``[`` or ``{`` nested deeper than :data:`MAX_DEPTH`, else None.

    Strings and ``//`` comments are skipped. Checked before parsing: the standard
    library's parser recurses, so a file of 100,000 ``[`` would overflow it."""
    depth = 0
    for m in _STRUCTURE.finditer(text):
        token = m.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return m.start()
        elif token in ("]", "}"):
            depth = max(depth - 1, 0)
    return None


def read_json(path: Path) -> JsonSource:
    data = read_input(path)
    body = data.removeprefix(codecs.BOM_UTF8)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = not_utf8(data, exc.start + len(data) - len(body))
        raise QuestionnaireError(f"{path}:{where}; save it as UTF-8") from exc
    deep = too_deep(text)
    if deep is not None:
        raise QuestionnaireError(
            f"{path}:{_line_col(text, deep)}: nested deeper than {MAX_DEPTH} levels; refused"
        )
    try:
        header_lines = []
        for line in text.splitlines(keepends=True):
            if line.strip().startswith("//") or not line.strip():
                header_lines.append(line)
            else:
                break
        try:
            document = load_json(text)
        except json.JSONDecodeError:
            document = load_json(relaxed_json(text))
    except NumberTooLong as exc:
        located = long_json_number(text)
        at = f":{_line_col(text, located.offset)}" if located else ""
        raise QuestionnaireError(f"{path}{at}: {exc}") from None
    except ValueError as exc:
        raise QuestionnaireError(f"{path}: not a readable JSON questionnaire ({exc})") from exc
    m = re.search(r"\n([ \t]+)\S", text)
    indent = len(m.group(1).expandtabs(4)) if m else 2
    return JsonSource(document, "".join(header_lines), indent)


def _line_col(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"{line}:{column}"


def _plain(text: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", _BLOCK_TAG.sub(" ", text))).split())


def questions_from_json(path: Path, doc: Any) -> tuple[str, list[Question]]:
    """(kind, questions) for the three shapes we know; anything else is refused."""
    if isinstance(doc, dict) and isinstance(doc.get("questionnaire"), list):
        out: list[Question] = []
        _vsaq(doc["questionnaire"], ("questionnaire",), None, out)
        return "vsaq", out
    items = doc.get("questions") if isinstance(doc, dict) else doc
    if isinstance(items, list) and items and all(isinstance(i, dict) for i in items):
        base: tuple[int | str, ...] = ("questions",) if isinstance(doc, dict) else ()
        kind = "caiq-json" if isinstance(doc, dict) and "body" in items[0] else "generic-json"
        out = []
        for n, item in enumerate(items):
            text = item.get("question") or item.get("text") or item.get("body")
            if isinstance(text, str) and text.strip():
                qid = item.get("id")
                section = item.get("section") or item.get("control_id")
                out.append(
                    Question(
                        key="",
                        id=str(qid) if qid is not None else None,
                        text=" ".join(text.split()),
                        section=section,
                        json_path=(*base, n),
                    )
                )
        if out:
            return kind, out
    raise QuestionnaireError(
        f"{path}: JSON shape not recognised (expected CAIQ 'questions', VSAQ 'questionnaire', "
        "or a list of {id, question})"
    )


def _vsaq(
    items: list[Any], path: tuple[int | str, ...], section: str | None, out: list[Question]
) -> None:
    for n, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        here = (*path, n)
        kind = item.get("type")
        if kind == "block":
            _vsaq(
                item.get("items", []),
                (*here, "items"),
                _plain(item.get("text", "")) or section,
                out,
            )
        elif kind in VSAQ_ANSWERABLE and item.get("text"):
            choices = tuple(_plain(v) for c in item.get("choices", []) for v in c.values())
            out.append(
                Question(
                    key="",
                    id=str(item["id"]) if item.get("id") else None,
                    text=_plain(item["text"]),
                    section=section,
                    json_path=here,
                    style="narrative",
                    choices=choices,
                )
            )


def holds_answer(item: Any) -> bool:
    """Whether a JSON item already holds an answer. ``"answer": ""``, ``null``, whitespace
    only, ``{}`` or ``[]`` is an empty answer, as an empty cell is in a workbook or CSV: the
    question is unanswered and the writer fills it."""
    value = item.get("answer") if isinstance(item, dict) else None
    if isinstance(value, str):
        return bool(value.strip())
    return value is not None and value != {} and value != []


def answer_object(answer: Answer) -> dict[str, Any]:
    return {
        "choice": answer.choice.value if answer.choice else None,
        "narrative": answer.narrative,
        "control_ids": list(answer.control_ids),
        "evidence_sha256": list(answer.evidence_sha256),
        "limits": list(answer.limits),
    }


def write_json(src: JsonSource, answered: list[tuple[Question, Answer]], out_path: Path) -> None:
    doc = json.loads(json.dumps(src.document))  # a copy: the questionnaire stays reusable
    for question, answer in answered:
        node: Any = doc
        for step in question.json_path or ():
            node = node[step]
        node["answer"] = answer_object(answer)
    text = json.dumps(doc, indent=src.indent, ensure_ascii=False) + "\n"
    with atomic_output(out_path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(src.header + text)
