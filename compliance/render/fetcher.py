"""The one URL fetcher every WeasyPrint object gets: no network, no file outside the assets.

WeasyPrint 70's default fetcher follows any scheme (it read /etc/passwd into a
PDF through a CSS ``url()`` in our measurements), and ``CSS(...)`` and
``Attachment(...)`` each build their own unless given one. This fetcher is
passed to ``HTML``, every ``CSS`` and every ``Attachment``:

- ``file:`` only for regular files inside the asset folder, after resolving
  symlinks (so ``..`` and links pointing out are refused);
- ``data:`` up to a size cap;
- every other scheme (http, https, ftp, ...) refused without opening a socket.

It is strict: WeasyPrint is told to fail on fetch errors, so a refused
reference aborts the render with :class:`RefusedReference` instead of
leaving a silent hole in the document.
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path
from urllib.parse import unquote, unquote_to_bytes, urlsplit
from urllib.request import url2pathname

from weasyprint.urls import URLFetcher, URLFetcherResponse

from compliance.render.errors import RefusedReference

#: Largest ``data:`` payload accepted, decoded (the URL itself may be 4/3 of it).
DATA_CAP = 2 * 1024 * 1024
#: Largest asset file accepted (the shipped fonts are < 1 MiB each).
FILE_CAP = 16 * 1024 * 1024

_TYPES = {
    ".css": "text/css",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".txt": "text/plain",
}


class HermeticFetcher(URLFetcher):
    """Serve ``file:`` URLs inside ``asset_dir`` and small ``data:`` URLs; refuse the rest."""

    def __init__(self, asset_dir: Path, *, data_cap: int = DATA_CAP) -> None:
        super().__init__(allowed_protocols=("file", "data"), fail_on_errors=True)
        self.asset_dir = Path(asset_dir).resolve(strict=True)
        self.data_cap = data_cap
        #: Every URL asked for, in order, and every refusal (even if WeasyPrint swallowed it).
        self.requested: list[str] = []
        self.refused: list[RefusedReference] = []

    @property
    def base_url(self) -> str:
        """The ``file:`` URL relative references are resolved against."""
        return self.asset_dir.as_uri() + "/"

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        self.requested.append(url)
        try:
            scheme = url.split(":", 1)[0].lower() if ":" in url else ""
            if scheme == "data":
                return self._data(url)
            if scheme == "file":
                return self._file(url)
            raise RefusedReference(url, f"scheme {scheme or '(none)'!r} is not allowed")
        except RefusedReference as refusal:
            self.refused.append(refusal)
            raise

    def _file(self, url: str) -> URLFetcherResponse:
        parts = urlsplit(url)
        if parts.netloc not in ("", "localhost"):
            raise RefusedReference(url, f"file URL names a host ({parts.netloc})")
        path = Path(url2pathname(parts.path))
        try:
            resolved = path.resolve(strict=True)
        except (OSError, RuntimeError) as error:
            raise RefusedReference(url, f"cannot be read ({error.__class__.__name__})") from None
        if not resolved.is_relative_to(self.asset_dir):
            raise RefusedReference(url, f"resolves outside the asset folder {self.asset_dir}")
        if not resolved.is_file():
            raise RefusedReference(url, "is not a regular file")
        if resolved.stat().st_size > FILE_CAP:
            raise RefusedReference(url, f"is larger than {FILE_CAP} bytes")
        body = resolved.read_bytes()
        content_type = _TYPES.get(resolved.suffix.lower(), "application/octet-stream")
        return URLFetcherResponse(url, body, {"Content-Type": content_type})

    def _data(self, url: str) -> URLFetcherResponse:
        if len(url) > self.data_cap * 4 // 3 + 256:
            raise RefusedReference(url, f"data URL is larger than {self.data_cap} bytes")
        header, comma, payload = url[len("data:") :].partition(",")
        if not comma:
            raise RefusedReference(url, "malformed data URL (no comma)")
        params = [part.strip() for part in header.split(";")]
        is_base64 = params[-1].lower() == "base64"
        if is_base64:
            params.pop()
        content_type = params[0] or "text/plain"
        try:
            body = (
                base64.b64decode(unquote(payload), validate=False)
                if is_base64
                else unquote_to_bytes(payload)
            )
        except (binascii.Error, ValueError):
            raise RefusedReference(url, "malformed base64 in data URL") from None
        if len(body) > self.data_cap:
            raise RefusedReference(url, f"data URL is larger than {self.data_cap} bytes")
        headers = {"Content-Type": content_type}
        for param in params[1:]:
            key, _, value = param.partition("=")
            if key.lower() == "charset" and value:
                headers["Content-Type"] = f"{content_type}; charset={value}"
        return URLFetcherResponse(url, body, headers)
