"""Helpers to look inside rendered PDFs with pypdf."""

from __future__ import annotations

import io
from typing import Any

import pypdf
from pypdf.generic import IndirectObject, StreamObject


def reader(pdf: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(pdf))


def text(pdf: bytes) -> str:
    """All pages' text, whitespace collapsed so wrapped lines still match."""
    return " ".join(" ".join(page.extract_text().split()) for page in reader(pdf).pages)


def every_byte(pdf: bytes) -> bytes:
    """The raw file plus every stream decoded (fonts, attachments, pages)."""
    r = reader(pdf)
    chunks = [pdf]
    for number in range(1, len(r.xref_objStm) + max(r.trailer["/Size"], 1)):
        try:
            obj = r.get_object(IndirectObject(number, 0, r))
        except Exception:  # noqa: BLE001 - free or missing object numbers
            continue
        if isinstance(obj, StreamObject):
            chunks.append(obj.get_data())
    return b"\n".join(chunks)


def outline(pdf: bytes) -> list[Any]:
    """Bookmarks as nested lists of titles."""

    def walk(items: list[Any]) -> list[Any]:
        return [walk(item) if isinstance(item, list) else item.title for item in items]

    return walk(reader(pdf).outline)


def lowest_line(page: Any, *, bottom: float = 60, top: float = 780) -> tuple[float, str] | None:
    """The lowest line of body text on ``page`` (its y in points from the bottom, and its
    text), between the running footer (below ``bottom``) and header (above ``top``)."""
    items: list[tuple[float, str]] = []

    def visit(text: str, cm: list[float], tm: list[float], _font: Any, _size: Any) -> None:
        if text.strip():
            items.append((tm[5] * cm[3] + cm[5], text.strip()))

    page.extract_text(visitor_text=visit)
    body = [(y, t) for y, t in items if bottom < y < top]
    if not body:
        return None
    low = min(y for y, _ in body)
    return low, " ".join(t for y, t in body if abs(y - low) < 2)
