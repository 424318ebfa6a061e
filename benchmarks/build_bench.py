"""`compliance build` vs a raw WeasyPrint render of the same final HTML, same options, same run.

The raw side renders the exact HTML string the build wrote (report.html),
with the same stylesheet, attachment and PDF options, but with WeasyPrint's
default fetcher and no checks, context, Markdown, zip or staging. The ratio
is what everything we add around WeasyPrint costs.

    python benchmarks/build_bench.py [WORKSPACE] [--rounds N]

Target: ratio <= 1.15. Prints medians; asserts nothing (no timing in tests).
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

Timing = tuple[float, float]  # (wall seconds, CPU seconds of this process)


def _now() -> Timing:
    return time.perf_counter(), time.process_time()


def _since(start: Timing) -> Timing:
    wall, cpu = _now()
    return wall - start[0], cpu - start[1]


def time_build(workspace: Path, out: Path) -> Timing:
    from compliance.cli import cli

    start = _now()
    result = CliRunner().invoke(cli, ["build", str(workspace), "--out", str(out)])
    elapsed = _since(start)
    if result.exit_code != 0:
        sys.exit(f"build failed ({result.exit_code}):\n{result.output}")
    return elapsed


def time_raw(html: str, date: dt.date, manifest: bytes) -> Timing:
    from weasyprint import CSS, HTML, Attachment
    from weasyprint.text.fonts import FontConfiguration

    from compliance.render.env import packaged_asset_dir
    from compliance.render.pdf import PDF_OPTIONS

    assets = packaged_asset_dir()
    stamp = dt.datetime(date.year, date.month, date.day)
    start = _now()
    fonts = FontConfiguration()
    css = CSS(filename=str(assets / "fonts.css"), font_config=fonts)
    attachment = Attachment(
        string=manifest, name="manifest.json", relationship="Data", created=stamp, modified=stamp
    )
    HTML(string=html, base_url=str(assets) + "/").write_pdf(
        stylesheets=[css], attachments=[attachment], font_config=fonts, **PDF_OPTIONS
    )
    return _since(start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", nargs="?", default=".")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    workspace = Path(args.workspace)

    import weasyprint  # noqa: F401 - import cost paid once, outside both timings

    from compliance.pipeline import load_and_check

    model = load_and_check(workspace).workspace.model
    if model is None:
        sys.exit("the workspace does not load")
    builds: list[Timing] = []
    raws: list[Timing] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        time_build(workspace, out)  # warm-up: imports, font caches
        html = (out / "report.html").read_text(encoding="utf-8")
        import io
        import zipfile

        with zipfile.ZipFile(io.BytesIO((out / "evidence-pack.zip").read_bytes())) as pack:
            manifest = pack.read("manifest.json")
        time_raw(html, model.system.last_reviewed, manifest)
        for n in range(args.rounds):  # ABBA order, so drift and load hit both sides
            if n % 2 == 0:
                builds.append(time_build(workspace, out))
                raws.append(time_raw(html, model.system.last_reviewed, manifest))
            else:
                raws.append(time_raw(html, model.system.last_reviewed, manifest))
                builds.append(time_build(workspace, out))
    print(f"rounds: {args.rounds} (ABBA order; target ratio <= 1.15x)")
    for index, clock in ((0, "wall"), (1, "CPU")):
        build_t = [t[index] for t in builds]
        raw_t = [t[index] for t in raws]
        build_s, raw_s = statistics.median(build_t), statistics.median(raw_t)
        print(
            f"{clock:>4}: build median {build_s:.3f}s min {min(build_t):.3f}s | "
            f"raw median {raw_s:.3f}s min {min(raw_t):.3f}s | "
            f"ratio medians {build_s / raw_s:.3f}x, minimums {min(build_t) / min(raw_t):.3f}x"
        )


if __name__ == "__main__":
    main()
