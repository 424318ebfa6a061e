"""Context -> text outputs: the report's HTML and the stance summary's Markdown.

A broken workspace template (syntax error, missing field, unsafe access) is
a user error with the template's name and line, not a traceback.
"""

from __future__ import annotations

from jinja2 import Environment, TemplateError, TemplateSyntaxError

from compliance.render.context import ReportContext
from compliance.render.errors import RenderError

REPORT_TEMPLATE = "report.html"
STANCE_TEMPLATE = "stance.md.j2"


def _render(env: Environment, name: str, ctx: object) -> str:
    try:
        return env.get_template(name).render(ctx=ctx)
    except TemplateSyntaxError as error:
        where = f"{error.filename or error.name}:{error.lineno}"
        raise RenderError(f"template {where}: {error.message}") from None
    except TemplateError as error:
        raise RenderError(f"template {name}: {error}") from None


def render_template(env: object, name: str, ctx: object) -> str:
    """Any packaged or workspace template over a typed context (errors as RenderError)."""
    assert isinstance(env, Environment)
    return _render(env, name, ctx)


def render_report_html(env: Environment, ctx: ReportContext) -> str:
    """The audit report: one standalone HTML file (inline CSS, no external resource).

    The same string is the PDF's input, so HTML and PDF cannot disagree.
    """
    return _render(env, REPORT_TEMPLATE, ctx)


def render_stance_md(env: Environment, ctx: ReportContext) -> str:
    """The defensible summary as Markdown, model text escaped so it stays text."""
    return _render(env, STANCE_TEMPLATE, ctx)
