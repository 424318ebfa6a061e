"""The report HTML carries a Content-Security-Policy that no custom template can remove.

Issue 11, row 7: a workspace template with an iframe, a video poster, an audio
source and a meta refresh pointing at a local listener built with exit 0, and
opening report.html made those requests. Now the renderer puts a policy that
forbids every fetch first in <head> (a browser applies it to everything after it),
and refuses what a policy cannot stop: a meta refresh, another http-equiv, <base>,
<link>.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import tinyhtml5
from click.testing import CliRunner

from compliance.cli import cli
from compliance.render.csp import POLICY, with_policy
from compliance.render.env import packaged_templates_dir
from compliance.render.errors import RenderError
from tests.workspaces import minimal

XHTML = "{http://www.w3.org/1999/xhtml}"
LISTENER = "http://127.0.0.1:9"
FETCHING = (f'<iframe src="{LISTENER}/frame"></iframe>'
            f'<video poster="{LISTENER}/poster.png"></video>'
            f'<audio><source src="{LISTENER}/a.mp3"></audio>')


def build(ws: Path, out: Path) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["build", str(ws), "--out", str(out)])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.stderr


def with_template(tmp_path: Path, body_extra: str, head_extra: str = "") -> Path:
    base = (packaged_templates_dir() / "base.html").read_text(encoding="utf-8")
    base = base.replace("<head>", f"<head>{head_extra}").replace(
        "{% block body %}", f"{body_extra}{{% block body %}}")
    return minimal(tmp_path / "ws", **{"templates/base.html": base})


def policy_first(html: str) -> list[str]:
    """The head's first element, as a browser parses the file, and every fetching
    element's position after it."""
    root = tinyhtml5.parse(html)
    head = root.find(f"{XHTML}head")
    assert head is not None
    first = head[0]
    assert (first.get("http-equiv"), first.get("content")) == ("Content-Security-Policy",
                                                               POLICY)
    return [str(el.tag).removeprefix(XHTML) for el in root.iter()
            if str(el.tag).removeprefix(XHTML) in ("iframe", "video", "source", "img", "object")]


def test_a_template_that_fetches_gets_the_policy_first(tmp_path: Path) -> None:
    ws = with_template(tmp_path, FETCHING)
    out = tmp_path / "out"
    code, err = build(ws, out)
    assert code == 0, err
    html = (out / "report.html").read_text(encoding="utf-8")
    assert policy_first(html) == ["iframe", "video", "source"]
    assert "default-src 'none'" in POLICY and "http" not in POLICY and "file" not in POLICY
    assert html.index("Content-Security-Policy") < html.index("<iframe")


@pytest.mark.parametrize(("head", "named"), [
    (f'<meta http-equiv="refresh" content="0; url={LISTENER}/r">', 'http-equiv="refresh"'),
    (f'<META HTTP-EQUIV=Refresh CONTENT="1;URL={LISTENER}">', 'http-equiv="Refresh"'),
    ('<meta http-equiv="Content-Security-Policy" content="default-src *">',
     'http-equiv="Content-Security-Policy"'),
    (f'<base href="{LISTENER}/">', "<base>"),
    (f'<link rel="dns-prefetch" href="{LISTENER}">', "<link>"),
])
def test_what_a_policy_cannot_stop_is_refused(tmp_path: Path, head: str, named: str) -> None:
    ws = with_template(tmp_path, "", head)
    out = tmp_path / "out"
    code, err = build(ws, out)
    assert code == 2
    assert err.startswith("error: template report.html: ") and named in err, err
    assert not out.exists()  # nothing written


def test_content_before_the_doctype_cannot_come_before_the_policy() -> None:
    html = f'<img src="{LISTENER}/early"><!DOCTYPE html><html><head></head><body></body></html>'
    assert policy_first(with_policy(html, "t.html")) == ["img"]
    tricky = f'<!--><img src="{LISTENER}/x">--><!DOCTYPE html><p>x</p>'
    assert with_policy(tricky, "t.html").startswith('<meta http-equiv="Content-Security-Policy"')


def test_html_without_the_policy_first_is_refused() -> None:
    from compliance.render.csp import refuse_unsafe_elements

    with pytest.raises(RenderError, match="could not be placed first"):
        refuse_unsafe_elements("<!DOCTYPE html><html><head><title>x</title></head></html>",
                               "t.html")
