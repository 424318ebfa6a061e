"""The claims judge: segment prose once, analyse each sentence once, let rules ask.

Stages, top to bottom: :func:`~compliance.judge.segment.sentences` (Markdown-aware
sentence spans with offsets) -> :func:`~compliance.judge.analysis.analyse`
(negators, hedges, clauses, quotes, mention regions, questions and answers)
-> :func:`~compliance.judge.engine.find` (is a family's claim pattern asserted?).
The claim rules in compliance/rules/claims/ hold each family's patterns; the
driver there pairs questions with their answers and builds findings.
"""

from __future__ import annotations

from compliance.judge.analysis import Analysis, analyse
from compliance.judge.engine import Pattern, find, pattern
from compliance.judge.overclaim import Overclaim
from compliance.judge.segment import Sentence, line_col, line_starts, sentences

__all__ = [
    "Analysis",
    "Overclaim",
    "Pattern",
    "Sentence",
    "analyse",
    "find",
    "line_col",
    "line_starts",
    "pattern",
    "sentences",
]
