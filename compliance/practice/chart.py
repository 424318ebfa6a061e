"""A small deterministic inline SVG line chart of one metric's trend (no script, no fonts
fetched): the same points give the same bytes."""

from __future__ import annotations

from html import escape

WIDTH, HEIGHT, PAD = 240, 80, 14
FONT = 'font-size="8" font-family="Compliance Sans"'


def trend_svg(points: list[tuple[str, float]], limit: float | None, label: str) -> str:
    """``points``: (date, value) oldest first, at least two; ``limit``: threshold line."""
    values = [v for _d, v in points] + ([limit] if limit is not None else [])
    top = max(values) or 1.0
    span_x = WIDTH - 2 * PAD
    span_y = HEIGHT - 2 * PAD

    def xy(i: int, v: float) -> tuple[float, float]:
        x = PAD + span_x * i / (len(points) - 1)
        return round(x, 1), round(HEIGHT - PAD - span_y * v / top, 1)

    coords = [xy(i, v) for i, (_d, v) in enumerate(points)]
    line = " ".join(f"{x},{y}" for x, y in coords)
    dots = "".join(f'<circle cx="{x}" cy="{y}" r="2.5"/>' for x, y in coords)
    threshold = ""
    if limit is not None:
        ly = xy(0, limit)[1]
        threshold = (f'<line x1="{PAD}" y1="{ly}" x2="{WIDTH - PAD}" y2="{ly}" '
                     'stroke="#a10d0d" stroke-dasharray="4 3" stroke-width="1"/>')
    first, last = escape(points[0][0]), escape(points[-1][0])
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}">'
            f'<title>{escape(label)}</title>{threshold}'
            f'<polyline points="{line}" fill="none" stroke="#1f4e79" stroke-width="1.5"/>'
            f'<g fill="#1f4e79">{dots}</g>'
            f'<text x="{PAD}" y="{HEIGHT - 2}" {FONT}>{first}</text>'
            f'<text x="{WIDTH - PAD}" y="{HEIGHT - 2}" {FONT} text-anchor="end">{last}'
            '</text></svg>')
