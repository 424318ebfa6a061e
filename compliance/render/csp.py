"""The report HTML fetches nothing when opened: a Content-Security-Policy no template can undo.

A workspace may replace every template, so the policy is not in a template: it
is inserted by the renderer into the rendered HTML, as the first element of the
document (right after the doctype), before anything that could fetch. The
policy forbids every fetch (``default-src 'none'``: no image, frame, media,
font, script, style sheet or connection, from the network or from ``file:``);
only the report's own inline CSS is allowed. A policy in a ``<meta>`` only
restricts further what an earlier one allows, so a template cannot weaken it.

What a policy cannot stop is refused before the file is written: a
``<meta http-equiv>`` (a refresh navigates to any URL; a second policy or other
header is not the template's to set), a ``<base>`` (re-points every relative
URL) and a ``<link>`` (DNS prefetch and preconnect are outside the policy; the
report is one standalone file and needs none). The rendered HTML is read with
the same HTML5 parsing algorithm a browser uses (tinyhtml5, WeasyPrint's own
parser), so what is refused is what a browser would see.
"""

from __future__ import annotations

import re

from compliance.render.errors import RenderError

#: Every fetch forbidden; the report's inline <style> and style="" allowed.
POLICY = ("default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
          "form-action 'none'")
HEAD = (f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">\n'
        '<meta http-equiv="X-DNS-Prefetch-Control" content="off">\n')
_XHTML = "{http://www.w3.org/1999/xhtml}"
# What may come before the policy: ASCII blanks (which a browser skips) and the doctype.
# Not comments: browsers end "<!-->" at once, so a comment could hide a fetch.
_PREAMBLE = re.compile(r"\ufeff?(?:[\t\n\f\r ]+|<!doctype[^>]*>)*", re.I)
_TAG_REST = r"""(?:[^>"']|"[^"]*"|'[^']*')*>"""
_OPENING = re.compile(rf"<html\b{_TAG_REST}[\t\n\f\r ]*<head\b{_TAG_REST}", re.I)


def with_policy(html: str, template: str) -> str:
    """``html`` with the policy inserted first; :class:`RenderError` naming ``template``
    when it holds a ``<meta http-equiv>``, ``<base>`` or ``<link>``."""
    at = _PREAMBLE.match(html).end()  # type: ignore[union-attr]  # matches the empty string
    opening = _OPENING.match(html, at)  # <html ...><head ...>: the policy goes right in
    if opening:
        at = opening.end()
    policy = HEAD.rstrip("\n")
    out = html[:at] + (f"\n{policy}" if at else f"{policy}\n") + html[at:]
    refuse_unsafe_elements(out, template)
    return out


def refuse_unsafe_elements(html: str, template: str) -> None:
    """Check, as a browser parses ``html``, that the policy is the head's first element and
    that nothing a policy cannot govern is in the document."""
    import tinyhtml5

    root = tinyhtml5.parse(html)
    head = root.find(f"{_XHTML}head")
    first = [el for el in (head if head is not None else [])][:2]
    ours = [(el.get("http-equiv"), el.get("content")) for el in first]
    if ours != [("Content-Security-Policy", POLICY), ("X-DNS-Prefetch-Control", "off")]:
        raise RenderError(f"template {template}: the report's security policy could not be "
                          "placed first in <head>; start the template with <!DOCTYPE html>")
    for el in root.iter():
        if any(el is mine for mine in first):
            continue
        tag = str(el.tag).removeprefix(_XHTML)
        equiv = next((v for k, v in el.attrib.items() if k.lower() == "http-equiv"), None)
        if tag == "meta" and equiv is not None:
            why = ("a refresh opens another URL as soon as the report is opened"
                   if "refresh" in equiv.lower() else
                   "the report's security policy and headers are set by compliance")
            raise RenderError(f"template {template}: <meta http-equiv=\"{equiv}\"> is not "
                              f"allowed in the report ({why}); remove it")
        if tag == "html" and "manifest" in el.attrib:
            raise RenderError(f"template {template}: <html manifest> is not allowed in the "
                              "report: it fetches a file when the report is opened")
        if tag in ("base", "link"):
            raise RenderError(
                f"template {template}: <{tag}> is not allowed in the report: it is one "
                "standalone file that fetches nothing when opened (inline the CSS instead)")
