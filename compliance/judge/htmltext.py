"""HTML -> the text of its elements, every character located in the file.

``compliance lint report.html`` judges what a reader of the page reads: the text
of its elements, with character references decoded ("&#39;" is an apostrophe),
never tags, attributes, comments, scripts, styles or code. Block elements
(paragraphs, list items, table cells, headings, ``<br>``) end a sentence, as a
blank line does in Markdown. Each character of the text keeps the offset it has in
the file (a decoded reference: the offset of its ``&``), so a finding points at
line:col of the HTML file. Read with the standard library's ``html.parser``, which
accepts any input (no tag soup is an error), so this reader never refuses a file.
"""

from __future__ import annotations

import html
from html.parser import HTMLParser

#: Elements whose content is not prose a reader reads as text.
SKIPPED = frozenset({"script", "style", "template", "pre", "code", "kbd", "samp", "svg",
                     "math", "head"})
#: Elements inside a skipped one that are prose again (``<title>`` inside ``<head>``).
KEPT_INSIDE = frozenset({"title"})
#: Elements that start and end a block of text: a sentence never runs across them.
BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "body", "br", "caption", "dd", "details",
    "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1",
    "h2", "h3", "h4", "h5", "h6", "header", "hr", "html", "li", "main", "nav", "ol", "option",
    "p", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr",
    "ul",
})
_BREAK = "\n\n"


class _Text(HTMLParser):
    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=False)
        self.source = source
        self.line_offsets = [0]
        self.line_offsets.extend(i + 1 for i, ch in enumerate(source) if ch == "\n")
        self.chars: list[str] = []
        self.offsets: list[int] = []
        self.skipping: list[str] = []  # the open skipped elements, innermost last

    def _here(self) -> int:
        line, col = self.getpos()  # html.parser counts lines by "\n" only, as line_offsets
        return self.line_offsets[line - 1] + col

    def _reading(self) -> bool:
        return not self.skipping or self.skipping[-1] in KEPT_INSIDE

    def _add(self, text: str, at: int, step: int) -> None:
        self.chars.append(text)
        self.offsets.extend(at + i * step for i in range(len(text)))

    def _break(self) -> None:
        if self.chars and self.chars[-1] != _BREAK:
            self._add(_BREAK, self._here(), 0)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body" and "head" in self.skipping:  # </head> may be left out
            del self.skipping[self.skipping.index("head"):]
        if tag in SKIPPED or (tag in KEPT_INSIDE and self.skipping):
            self.skipping.append(tag)
        if tag in BLOCKS:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag in self.skipping:  # close it and whatever was left open inside it
            del self.skipping[len(self.skipping) - 1 - self.skipping[::-1].index(tag):]
        if tag in BLOCKS:
            self._break()

    def handle_data(self, data: str) -> None:
        if self._reading():
            self._add(data, self._here(), 1)  # data is the file's own characters

    def _reference(self, raw: str) -> None:
        if not self._reading():
            return
        at = self._here()
        if self.source.startswith(";", at + len(raw)):
            raw += ";"
        decoded = html.unescape(raw)
        if decoded == raw:  # not a reference after all ("AT&T"): the characters as written
            self._add(raw, at, 1)
        else:
            self._add(decoded, at, 0)

    def handle_entityref(self, name: str) -> None:
        self._reference(f"&{name}")

    def handle_charref(self, name: str) -> None:
        self._reference(f"&#{name}")


def html_text(source: str) -> tuple[str, list[int]]:
    """The text of ``source``'s elements and, per character, its offset in ``source``."""
    parser = _Text(source)
    parser.feed(source)
    parser.close()
    return "".join(parser.chars), parser.offsets
