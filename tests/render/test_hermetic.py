"""No fetch leaves the asset folder: not to the network, not to a secret file, not via a link.

A real socket listens on 127.0.0.1 for the whole test; references to it and to
a secret file outside the asset folder are planted in model text (which must
come out as inert text) and in workspace templates (which must abort the build
with RefusedReference, never render with a silent hole).
"""

from __future__ import annotations

import shutil
import socket
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from compliance.render.documents import render_report_html
from compliance.render.env import make_env, packaged_asset_dir
from compliance.render.errors import RefusedReference, RenderError
from compliance.render.pdf import PdfAttachment, render_pdf
from tests.render.conftest import REVIEWED
from tests.render.pdfutil import every_byte, text
from tests.render.sample import sample_context


@dataclass
class Trap:
    port: int
    server: socket.socket
    secret: bytes
    secret_url: str
    assets: Path

    def connections(self) -> int:
        """Connections that completed a handshake (they wait in the accept queue)."""
        count = 0
        while True:
            try:
                conn, _ = self.server.accept()
            except BlockingIOError:
                return count
            conn.close()
            count += 1


@pytest.fixture
def trap(tmp_path: Path) -> Iterator[Trap]:
    secret = f"SECRET-{uuid.uuid4().hex}".encode()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(secret)
    assets = tmp_path / "assets"
    shutil.copytree(packaged_asset_dir(), assets)
    (assets / "leak.css").symlink_to(outside / "secret.txt")
    (assets / "leak.png").symlink_to(outside / "secret.txt")
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    server.setblocking(False)
    try:
        yield Trap(
            port=server.getsockname()[1],
            server=server,
            secret=secret,
            secret_url=(outside / "secret.txt").as_uri(),
            assets=assets,
        )
    finally:
        server.close()


def planted(trap: Trap) -> str:
    http = f"http://127.0.0.1:{trap.port}"
    return (
        f' <img src="{http}/img.png"><img src="{trap.secret_url}">'
        f'<link rel="attachment" href="{trap.secret_url}">'
        f'<link rel="stylesheet" href="{http}/x.css">'
        f"<style>@import url({http}/i.css); html {{ background: url({trap.secret_url}) }}"
        f" @font-face {{ font-family: X; src: url({http}/f.ttf) }}</style>"
        f'<img src="leak.png"><a rel="attachment" href="../outside/secret.txt">x</a>'
    )


def test_model_text_references_stay_text(trap: Trap) -> None:
    payload = planted(trap)
    html = render_report_html(make_env(None), sample_context(forced=True, extra_text=payload))
    assert "<img" not in html.split("<body>", 1)[1].replace("&lt;img", "")
    pdf = render_pdf(
        html,
        asset_dir=trap.assets,
        date=REVIEWED,
        attachments=[PdfAttachment("manifest.json", b"{}", "manifest")],
    )
    assert trap.connections() == 0
    assert trap.secret not in every_byte(pdf)
    assert f"127.0.0.1:{trap.port}/img.png" in text(pdf)


def _template_cases(trap: Trap) -> dict[str, tuple[str, str]]:
    http = f"http://127.0.0.1:{trap.port}"
    return {
        "css url() http": ("report.css", f"html {{ background: url({http}/bg.png) }}"),
        "css url() file": ("report.css", f"html {{ background: url({trap.secret_url}) }}"),
        "css url() symlink": ("report.css", "html { background: url(leak.png) }"),
        "css url() dotdot": ("report.css", "html { background: url(../outside/secret.txt) }"),
        "@import http": ("report.css", f"@import url({http}/i.css);"),
        "@import symlink": ("report.css", "@import url(leak.css);"),
        "@font-face http": (
            "report.css",
            f"@font-face {{ font-family: X; src: url({http}/f.ttf) }} html {{ font-family: X }}",
        ),
        "@font-face file": (
            "report.css",
            f"@font-face {{ font-family: X; src: url({trap.secret_url}) }}"
            " html { font-family: X }",
        ),
        "img src http": ("findings.html", f'<img src="{http}/i.png">'),
        "img src file": ("findings.html", f'<img src="{trap.secret_url}">'),
        "link attachment http": ("findings.html", f'<link rel="attachment" href="{http}/a">'),
        "link attachment file": (
            "findings.html",
            f'<link rel="attachment" href="{trap.secret_url}">',
        ),
        "a attachment symlink": ("findings.html", '<a rel="attachment" href="leak.css">x</a>'),
        "link stylesheet http": ("findings.html", f'<link rel="stylesheet" href="{http}/s.css">'),
        "ftp": ("findings.html", '<img src="ftp://127.0.0.1/x.png">'),
        "data too big": (
            "findings.html",
            '<img src="data:image/png;base64,' + "A" * (4 * 1024 * 1024) + '">',
        ),
    }


CASES = [
    "css url() http",
    "css url() file",
    "css url() symlink",
    "css url() dotdot",
    "@import http",
    "@import symlink",
    "@font-face http",
    "@font-face file",
    "img src http",
    "img src file",
    "link attachment http",
    "link attachment file",
    "a attachment symlink",
    "link stylesheet http",
    "ftp",
    "data too big",
]


@pytest.mark.parametrize("case", CASES)
def test_template_references_abort_the_build(trap: Trap, tmp_path: Path, case: str) -> None:
    name, content = _template_cases(trap)[case]
    workspace = tmp_path / "ws"
    (workspace / "templates").mkdir(parents=True)
    packaged = packaged_asset_dir().parent
    original = (packaged / name).read_text(encoding="utf-8")
    # @import only counts at the top of a stylesheet; everything else goes last.
    text = f"{content}\n{original}" if "@import" in content else f"{original}\n{content}\n"
    (workspace / "templates" / name).write_text(text, encoding="utf-8")
    if "<link" in content:  # refused when the HTML is made (compliance.render.csp)
        with pytest.raises(RenderError, match="<link> is not allowed in the report"):
            render_report_html(make_env(workspace), sample_context(forced=True))
        return
    html = render_report_html(make_env(workspace), sample_context(forced=True))
    with pytest.raises(RefusedReference) as raised:
        render_pdf(html, asset_dir=trap.assets, date=REVIEWED)
    assert str(raised.value).startswith("refused to fetch '")
    assert trap.connections() == 0


def test_refusal_message_names_the_url_and_the_reason(trap: Trap) -> None:
    html = (
        f'<html lang="en"><body><img alt="" src="http://127.0.0.1:{trap.port}/x.png"></body></html>'
    )
    with pytest.raises(RefusedReference) as raised:
        render_pdf(html, asset_dir=trap.assets, date=REVIEWED)
    assert str(raised.value) == (
        f"refused to fetch 'http://127.0.0.1:{trap.port}/x.png': scheme 'http' is not allowed"
    )
    assert trap.connections() == 0


def test_symlink_refusal_names_the_asset_folder(trap: Trap) -> None:
    html = '<html lang="en"><body><img alt="" src="leak.png"></body></html>'
    with pytest.raises(RefusedReference) as raised:
        render_pdf(html, asset_dir=trap.assets, date=REVIEWED)
    assert raised.value.reason == f"resolves outside the asset folder {trap.assets.resolve()}"


def test_fonts_from_assets_and_small_data_url_render(trap: Trap) -> None:
    png = (
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAE"
        "hQGAhKmMIQAAAABJRU5ErkJggg=="
    )
    html = (
        '<html lang="en" style="font-family: \'Compliance Sans\'"><body><p>ok</p>'
        f'<img alt="dot" src="data:image/png;base64,{png}"></body></html>'
    )
    pdf = render_pdf(html, asset_dir=trap.assets, date=REVIEWED)
    assert pdf.startswith(b"%PDF-1.7")
    assert b"+Compliance-Sans" in every_byte(pdf)
    assert trap.connections() == 0
