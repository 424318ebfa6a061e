"""Judge a list of located texts and return positioned findings (the core of `lint`)."""

from __future__ import annotations

from dataclasses import replace

from compliance.diagnostics import Diagnostic
from compliance.judge.sources import Text


def lint_texts(texts: list[Text], prose: frozenset[str] = frozenset()
               ) -> tuple[list[Diagnostic], int]:
    """Run every claim rule over each text; positions come from each text's locator.

    ``prose``: the files (as displayed) whose texts are their own prose (Markdown, text):
    there an inline suppression (``<!-- compliance: allow CLM010 -- reason -->``) marks
    the findings on its line and the next as waived, as in a model, and one without a
    reason is an error (SUP001). Returns the findings and how many sentences were read."""
    from compliance.rules.claims import CLAIM_RULES
    from compliance.rules.claims.driver import judge_text_read

    out: list[Diagnostic] = []
    read = 0
    for t in texts:
        found, sentences = judge_text_read(t.text, question=t.question)
        read += sentences
        findings = []
        for o in found:
            start = t.locate(o.start)
            end = t.locate(max(o.end - 1, o.start))
            pos = replace(start, end_line=end.line, end_column=end.column + 1)
            findings.append(CLAIM_RULES[o.code].diagnostic(pos, t.label + o.message))
        if "compliance:" in t.text and t.locate(0).path in prose:
            findings = _suppressed(t, findings)
        out.extend(findings)
    return out, read


def _suppressed(t: Text, findings: list[Diagnostic]) -> list[Diagnostic]:
    """``findings`` with those an inline suppression in ``t`` covers marked waived, and a
    SUP001 error for each suppression that gives no reason."""
    from compliance.diagnostics import Level
    from compliance.suppression import INLINE, PROSE_SUPPRESSION, SUP_CODE, SUP_NAME, codes_of

    out: list[Diagnostic] = []
    sups = []
    for m in PROSE_SUPPRESSION.finditer(t.text):
        at = t.locate(m.start())
        if m["reason"]:
            sups.append((at.line, codes_of(m), m["reason"]))
        else:
            out.append(Diagnostic(at.path, at.line, at.column, SUP_CODE, SUP_NAME, Level.ERROR,
                                  f"suppression of {', '.join(codes_of(m))} has no reason; "
                                  "write `<!-- compliance: allow CODE -- why this is "
                                  "acceptable -->`"))
    for d in findings:
        by = next((f"{INLINE}{d.path}:{line}: {reason}" for line, codes, reason in sups
                   if line in (d.line, d.line - 1) and (d.code in codes or d.name in codes)),
                  None)
        out.append(d.waived(by) if by else d)
    return out


def what_was_read(files: int, sentences: int) -> str:
    """``2 files, 40 sentences read``: the summary of a run (never more than that)."""
    return (f"{files} file{'' if files == 1 else 's'}, "
            f"{sentences} sentence{'' if sentences == 1 else 's'} read")
