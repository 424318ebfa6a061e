"""Render fixtures: the packaged environment, a sample context, one rendered PDF per session."""

from __future__ import annotations

import datetime as dt

import pytest
from jinja2 import Environment

from compliance.render.documents import render_report_html
from compliance.render.env import make_env, packaged_asset_dir
from compliance.render.pdf import PdfAttachment, render_pdf
from tests.render.sample import sample_context

REVIEWED = dt.date(2026, 11, 2)
MANIFEST = b'{"files": []}\n'


def render_sample(**kwargs: object) -> bytes:
    html = render_report_html(make_env(None), sample_context(**kwargs))  # type: ignore[arg-type]
    return render_pdf(
        html,
        asset_dir=packaged_asset_dir(),
        date=REVIEWED,
        attachments=[PdfAttachment("manifest.json", MANIFEST, "Evidence manifest")],
    )


@pytest.fixture
def env() -> Environment:
    return make_env(None)


@pytest.fixture(scope="session")
def sample_pdf() -> bytes:
    return render_sample()


@pytest.fixture(scope="session")
def forced_pdf() -> bytes:
    return render_sample(forced=True)
