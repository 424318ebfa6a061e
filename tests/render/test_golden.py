"""Golden outputs: the report HTML and the stance summary, byte for byte.

Refresh with ``pytest tests/render --update-golden`` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import Environment

from compliance.render.documents import render_report_html, render_stance_md
from tests.render.sample import sample_context

GOLDEN = Path(__file__).parent / "golden"

CASES = {
    "report.html": lambda env: render_report_html(env, sample_context()),
    "report-forced.html": lambda env: render_report_html(env, sample_context(forced=True)),
    "stance.md": lambda env: render_stance_md(env, sample_context()),
    "stance-forced.md": lambda env: render_stance_md(
        env, sample_context(forced=True, extra_text=" <img src=x> *not bold*")
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str, env: Environment, update_golden: bool) -> None:
    actual = CASES[name](env)
    path = GOLDEN / name
    if update_golden:
        path.write_text(actual, encoding="utf-8")
    assert path.is_file(), f"{path} is missing: run pytest --update-golden once and review it"
    assert actual == path.read_text(encoding="utf-8")


def test_report_html_is_standalone(env: Environment) -> None:
    html = render_report_html(env, sample_context())
    for marker in ("<link", "<script", "<img", "@import", "url(", "http://", "https://"):
        assert marker not in html
