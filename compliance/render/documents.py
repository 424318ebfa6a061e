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
    """Any packaged or workspace template over a typed context (errors as RenderError).
    An HTML one gets the report's Content-Security-Policy (:mod:`compliance.render.csp`)."""
    assert isinstance(env, Environment)
    out = _render(env, name, ctx)
    if name.endswith((".html", ".htm")):
        from compliance.render.csp import with_policy

        out = with_policy(out, name)
    return out


def render_report_html(env: Environment, ctx: ReportContext,
                       max_bytes: int | None = None) -> str:
    """The audit report: one standalone HTML file (inline CSS, no external resource).

    ``max_bytes``: refuse (``ReportTooLarge``) a larger report before anything parses
    it. The renderer, not the template, puts a Content-Security-Policy that forbids every
    fetch first in the document, and refuses what a policy cannot stop (a meta refresh,
    ``<base>``, ``<link>``): see :mod:`compliance.render.csp`. The same string is the
    PDF's input, so HTML and PDF cannot disagree.
    """
    from compliance.render.csp import with_policy

    html = _render(env, REPORT_TEMPLATE, ctx)
    if max_bytes is not None and len(html.encode()) > max_bytes:  # before parsing it
        from compliance.render.build import refuse_too_large

        refuse_too_large(0, len(html.encode()))
    return with_policy(html, REPORT_TEMPLATE)


def render_stance_md(env: Environment, ctx: ReportContext) -> str:
    """The defensible summary as Markdown, model text escaped so it stays text."""
    return _render(env, STANCE_TEMPLATE, ctx)
