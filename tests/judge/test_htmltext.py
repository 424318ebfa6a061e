"""compliance/judge/htmltext.py: the text of an HTML file's elements, located in the file."""

from __future__ import annotations

from compliance.judge.htmltext import html_text


def located(source: str, word: str) -> str:
    """The file's characters at the offsets of ``word`` in the text (as many as it has)."""
    text, offsets = html_text(source)
    at = text.index(word)
    return source[offsets[at]:offsets[at + len(word) - 1] + 1]


def test_text_only_blocks_broken_references_decoded() -> None:
    text, offsets = html_text('<p class="x">One <b>two</b>.</p><p>AT&T &amp; co&#x27;s</p>')
    assert text == "One two.\n\nAT&T & co's\n\n"  # no break before the first block
    assert len(offsets) == len(text)


def test_offsets_point_into_the_file_through_crlf_and_references() -> None:
    source = "<html>\r\n<body>\r\n<p>a&nbsp;b\r\n  the word</p></body></html>"
    assert located(source, "the word") == "the word"
    assert located(source, "a\xa0b") == "a&nbsp;b"


def test_a_head_left_open_does_not_hide_the_body() -> None:
    text, _ = html_text("<html><head><title>T</title><meta charset=utf-8><body><p>Body</p>")
    assert text.split() == ["T", "Body"]


def test_scripts_styles_code_and_comments_are_not_text() -> None:
    text, _ = html_text("<script>if (a < b) { x() }</script><style>p{}</style>"
                        "<!-- note --><p>Kept <code>x = 1</code> <pre>y</pre></p>")
    assert text.split() == ["Kept"]
