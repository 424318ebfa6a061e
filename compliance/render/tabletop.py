"""Tabletop worksheets (Markdown, HTML) from traces the check stage computed.

The report's own tabletop section uses the same partial (``tabletop.html``);
here it is wrapped in a standalone worksheet with the discussion questions.
"""

from __future__ import annotations

from dataclasses import dataclass

from compliance import __version__
from compliance.practice.worksheet import PracticeView, TraceView
from compliance.render.documents import render_template

WORKSHEET_TEMPLATES = {"md": "tabletop.md.j2", "html": "tabletop-worksheet.html"}


@dataclass(frozen=True)
class WorksheetContext:
    title: str
    system: str
    reviewed: str
    generator: str
    tabletop: tuple[TraceView, ...]
    practice: PracticeView
    lang: str = "en"


def worksheet_context(system: str, reviewed: str, views: tuple[TraceView, ...],
                      practice: PracticeView) -> WorksheetContext:
    name = views[0].title if len(views) == 1 else "all scenarios"
    return WorksheetContext(f"{system}: tabletop worksheet, {name}", system, reviewed,
                            f"compliance {__version__}", views, practice)


def render_worksheet(env: object, ctx: WorksheetContext, fmt: str) -> str:
    return render_template(env, WORKSHEET_TEMPLATES[fmt], ctx)
