"""Context -> text outputs: the report's HTML and the stance summary's Markdown."""

from __future__ import annotations

from jinja2 import Environment

from compliance.render.context import ReportContext

REPORT_TEMPLATE = "report.html"
STANCE_TEMPLATE = "stance.md.j2"


def render_report_html(env: Environment, ctx: ReportContext) -> str:
    """The audit report: one standalone HTML file (inline CSS, no external resource).

    The same string is the PDF's input, so HTML and PDF cannot disagree.
    """
    return env.get_template(REPORT_TEMPLATE).render(ctx=ctx)


def render_stance_md(env: Environment, ctx: ReportContext) -> str:
    """The defensible summary as Markdown, model text escaped so it stays text."""
    return env.get_template(STANCE_TEMPLATE).render(ctx=ctx)
