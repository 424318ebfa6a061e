"""Hermetic, reproducible HTML -> PDF/A-3u with WeasyPrint 70.

One :class:`~compliance.render.fetcher.HermeticFetcher` is handed to the
``HTML``, to every ``CSS`` and to every ``Attachment``, so nothing is read
from outside the asset folder and nothing leaves the machine. Any WeasyPrint
error (a refused reference, a broken stylesheet) aborts the render.

Reproducibility, as measured with WeasyPrint 70.0 / fontTools 4.x:

- fontTools stamps the current time into each subset font's ``head`` table
  unless ``SOURCE_DATE_EPOCH`` is set: we set it to the input date for the
  duration of the render only (under a lock) and restore it after;
- attachment dates default to now: we pass the input date;
- document dates come only from ``<meta name=dcterms.created/modified>`` in the HTML;
- the file identifier is the md5 of the content (``pdf_identifier=True``, PDF/A default);
- an ``Attachment`` can be written once, so a fresh one is made per render.
"""

from __future__ import annotations

import calendar
import contextlib
import datetime as dt
import logging
import os
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compliance.render.errors import RefusedReference, RenderError

#: Options for every PDF we write (WeasyPrint 70 names). PDF/A-3 allows attachments.
PDF_OPTIONS: dict[str, Any] = {
    "pdf_variant": "pdf/a-3u",
    "pdf_tags": True,
    "pdf_identifier": True,
}
#: Stylesheets inside the asset folder applied to every PDF (fonts only).
DEFAULT_STYLESHEETS = ("fonts.css",)

_EPOCH_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class PdfAttachment:
    """A file embedded in the PDF (PDF/A-3 associated file)."""

    name: str
    data: bytes
    description: str = ""
    relationship: str = "Data"


@contextlib.contextmanager
def source_date_epoch(date: dt.date) -> Iterator[None]:
    """Set ``SOURCE_DATE_EPOCH`` to ``date`` (midnight UTC) for the block, then restore it."""
    epoch = calendar.timegm(date.timetuple()[:3] + (0, 0, 0))
    with _EPOCH_LOCK:
        previous = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
        try:
            yield
        finally:
            if previous is None:
                del os.environ["SOURCE_DATE_EPOCH"]
            else:
                os.environ["SOURCE_DATE_EPOCH"] = previous


class _ErrorCollector(logging.Handler):
    """Collect WeasyPrint's ERROR records: in strict mode each one fails the render."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _remove_font_files(font_config: object) -> None:
    """Remove the folder of font copies WeasyPrint made in the temporary folder.

    WeasyPrint removes it only when the FontConfiguration is garbage-collected, which
    in a long-lived process (a test run, a library caller) may be much later: a build
    would leave ``weasyprint-*`` folders in TMPDIR. Its ``_folder`` is private API of
    the pinned WeasyPrint 70; without it there is nothing to remove."""
    import shutil

    folder = getattr(font_config, "_folder", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        font_config._folder = None  # type: ignore[attr-defined]


def render_pdf(
    html: str,
    *,
    asset_dir: Path,
    date: dt.date,
    attachments: Sequence[PdfAttachment] = (),
    stylesheets: Sequence[str] = DEFAULT_STYLESHEETS,
) -> bytes:
    """Render ``html`` to PDF/A-3u bytes; references resolve inside ``asset_dir`` only.

    ``stylesheets`` are paths relative to ``asset_dir``. Raises
    :class:`RefusedReference` when anything points outside, and
    :class:`RenderError` for any other WeasyPrint error.
    """
    from weasyprint import CSS, HTML, Attachment
    from weasyprint.logger import LOGGER
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import FatalURLFetchingError

    from compliance.render.fetcher import HermeticFetcher

    fetcher = HermeticFetcher(asset_dir)
    stamp = dt.datetime(date.year, date.month, date.day)
    collector = _ErrorCollector()
    LOGGER.addHandler(collector)
    font_config = FontConfiguration()
    try:
        with source_date_epoch(date):
            css = [
                CSS(
                    url=fetcher.base_url + name,
                    url_fetcher=fetcher,
                    font_config=font_config,
                )
                for name in stylesheets
            ]
            files = [
                Attachment(
                    string=item.data,
                    name=item.name,
                    description=item.description or None,
                    relationship=item.relationship,
                    created=stamp,
                    modified=stamp,
                    url_fetcher=fetcher,
                )
                for item in attachments
            ]
            document = HTML(string=html, base_url=fetcher.base_url, url_fetcher=fetcher)
            pdf = document.write_pdf(
                stylesheets=css, attachments=files, font_config=font_config, **PDF_OPTIONS
            )
    except FatalURLFetchingError as error:
        cause = error.__cause__
        if isinstance(cause, RefusedReference):
            raise cause from None
        raise RenderError(f"PDF render failed: {error}") from error
    finally:
        LOGGER.removeHandler(collector)
        _remove_font_files(font_config)
    if fetcher.refused:
        raise fetcher.refused[0]
    if collector.messages:
        raise RenderError("PDF render failed: " + "; ".join(collector.messages))
    if not isinstance(pdf, bytes):  # pragma: no cover - write_pdf(None) returns bytes
        raise RenderError("PDF render produced no bytes")
    return pdf
