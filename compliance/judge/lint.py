"""Judge a list of located texts and return positioned findings (the core of `lint`)."""

from __future__ import annotations

from dataclasses import replace

from compliance.diagnostics import Diagnostic
from compliance.judge.sources import Text


def lint_texts(texts: list[Text]) -> tuple[list[Diagnostic], int]:
    """Run every claim rule over each text; positions come from each text's locator.

    Returns the findings and how many sentences were read (what a clean run covered)."""
    from compliance.rules.claims import CLAIM_RULES
    from compliance.rules.claims.driver import judge_text_read

    out: list[Diagnostic] = []
    read = 0
    for t in texts:
        found, sentences = judge_text_read(t.text, question=t.question)
        read += sentences
        for o in found:
            start = t.locate(o.start)
            end = t.locate(max(o.end - 1, o.start))
            pos = replace(start, end_line=end.line, end_column=end.column + 1)
            out.append(CLAIM_RULES[o.code].diagnostic(pos, t.label + o.message))
    return out, read


def what_was_read(files: int, sentences: int) -> str:
    """``2 files, 40 sentences read``: the summary of a run (never more than that)."""
    return (f"{files} file{'' if files == 1 else 's'}, "
            f"{sentences} sentence{'' if sentences == 1 else 's'} read")
