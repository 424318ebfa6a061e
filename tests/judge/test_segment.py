"""Sentence segmentation: offsets into the original, abbreviations, Markdown, code."""

from __future__ import annotations

from compliance.judge import line_col, line_starts, sentences


def spans(text: str) -> list[str]:
    return [text[s.start:s.end] for s in sentences(text)]


def test_abbreviations_and_versions_do_not_end_sentences() -> None:
    text = ("Controls (e.g. the proxy, i.e. Squid) run in the U.S. region on v1.2 hosts. "
            "We review them etc. and more. Next sentence.")
    assert spans(text) == [
        "Controls (e.g. the proxy, i.e. Squid) run in the U.S. region on v1.2 hosts.",
        "We review them etc. and more.",
        "Next sentence.",
    ]


def test_no_as_an_answer_ends_a_sentence_but_no_5_does_not() -> None:
    assert spans("Can data leave? No. The agent is offline.") == [
        "Can data leave?", "No.", "The agent is offline."]
    assert spans("See control No. 5 for details.") == ["See control No. 5 for details."]


def test_markdown_structure_breaks_sentences_and_markup_is_masked() -> None:
    text = (
        "# Network controls\n"
        "\n"
        "The proxy runs\n"
        "on every host.\n"
        "- first item without a stop\n"
        "- second item\n"
        "> quoted line\n"
        "| cell one | cell two |\n"
        "|---|---|\n"
    )
    got = sentences(text)
    assert [text[s.start:s.end] for s in got] == [
        "Network controls",
        "The proxy runs\non every host.",
        "first item without a stop",
        "second item",
        "quoted line",
        "cell one",
        "cell two",
    ]


def test_code_is_not_prose() -> None:
    text = (
        "Run `the sandbox is bulletproof` now.\n"
        "```\n"
        "Nothing leaves. This is code.\n"
        "```\n"
        "After the fence.\n"
    )
    got = sentences(text)
    assert [text[s.start:s.end] for s in got] == [
        "Run `the sandbox is bulletproof` now.", "After the fence."]
    assert "bulletproof" not in got[0].prose
    assert got[0].prose.startswith("Run ") and len(got[0].prose) == len(
        "Run `the sandbox is bulletproof` now.")


def test_link_text_is_prose_and_target_is_not() -> None:
    text = "See [the limits](https://example.com/a.b) page."
    [s] = sentences(text)
    assert s.prose.split() == ["See", "the", "limits", "page."]


def test_line_col_is_one_based_and_handles_crlf() -> None:
    text = "ab\r\ncd\nef"
    starts = line_starts(text)
    assert line_col(starts, 0) == (1, 1)
    assert line_col(starts, 4) == (2, 1)
    assert line_col(starts, 8) == (3, 2)


def test_terminators_inside_a_quotation_or_before_lower_case_do_not_split() -> None:
    text = 'The phrase "No data leaves. Ever." is banned. He said "no." Then he left.'
    assert spans(text) == [
        'The phrase "No data leaves. Ever." is banned.', 'He said "no."', "Then he left."]
    assert spans('"Can the agent reach the internet?" "No."') == [
        '"Can the agent reach the internet?"', '"No."']
