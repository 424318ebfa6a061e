"""Judge a list of located texts and return positioned findings (the core of `lint`)."""

from __future__ import annotations

from dataclasses import replace

from compliance.diagnostics import Diagnostic
from compliance.judge.sources import Text


def lint_texts(texts: list[Text]) -> list[Diagnostic]:
    """Run every claim rule over each text; positions come from each text's locator."""
    from compliance.rules.claims import CLAIM_RULES, judge_text

    out: list[Diagnostic] = []
    for t in texts:
        for o in judge_text(t.text, question=t.question):
            start = t.locate(o.start)
            end = t.locate(max(o.end - 1, o.start))
            pos = replace(start, end_line=end.line, end_column=end.column + 1)
            out.append(CLAIM_RULES[o.code].diagnostic(pos, t.label + o.message))
    return out
