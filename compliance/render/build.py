"""The render stage of `compliance build`, top to bottom.

checked model -> context -> stance.md + report.html -> report.pdf (manifest
attached) -> evidence-pack.zip -> findings.json, all staged and moved into
the output folder together. Every date comes from the model's last-reviewed
date; every file read stays inside the workspace (evidence) or the package
(templates, fonts).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from compliance import __version__
from compliance.formats import format_json
from compliance.model.audience import Audience
from compliance.paths import OutsideFolder, resolve_inside
from compliance.pipeline import Checked
from compliance.render.atomic import staged_outputs, write_bytes
from compliance.render.audience import Redaction, Visibility
from compliance.render.build_context import build_context
from compliance.render.documents import render_report_html, render_stance_md
from compliance.render.env import make_env, packaged_asset_dir
from compliance.render.errors import ReportTooLarge
from compliance.render.output_folder import refuse_input_folders
from compliance.render.pack import build_pack, manifest, manifest_bytes, pack_path, sha256
from compliance.report import make_report
from compliance.sshsig import sign as sign_manifest

if TYPE_CHECKING:
    from compliance.load.workspace import Workspace

OUTPUTS = ("stance.md", "report.html", "report.pdf", "evidence-pack.zip", "findings.json")

#: The largest model and report a build renders (docs/report.md, "Size limits"). The
#: PDF renderer (WeasyPrint) lays the whole report out in memory: measured here, about
#: 0.8 MB of memory and 0.1-0.3 s per KB of report HTML (500 planned controls: 580 KB
#: of HTML, 450 MB, over 2 minutes), so a 60,000-control model would need tens of GB
#: and hours. Past these limits the build stops before rendering, with exit 2.
MAX_REPORT_CONTROLS = 1_000
MAX_REPORT_HTML_BYTES = 1024 * 1024


def refuse_too_large(controls: int, html_bytes: int | None = None) -> None:
    """Raise :class:`ReportTooLarge` for a model or report over the limits."""
    advice = ("one workspace describes one system: split a larger estate into several "
              "workspaces (each builds its own report), or shorten the longest texts")
    if controls > MAX_REPORT_CONTROLS:
        raise ReportTooLarge(
            f"the model has {controls:,} controls; a build renders at most "
            f"{MAX_REPORT_CONTROLS:,} (the PDF is laid out in memory and would take "
            f"several GB and hours); {advice}. `compliance check` has no such limit")
    if html_bytes is not None and html_bytes > MAX_REPORT_HTML_BYTES:
        raise ReportTooLarge(
            f"the report is {html_bytes:,} bytes of HTML; a build renders at most "
            f"{MAX_REPORT_HTML_BYTES:,} (about 1 GB of memory and minutes for the PDF); "
            f"{advice}")

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Built:
    """What a build wrote: output name -> bytes (also on disk under ``out``)."""

    out: Path
    files: dict[str, bytes]


def evidence_member(workspace: Workspace, path: str) -> str:
    """The pack path of the evidence file the model names ``path``: how the model spells
    it (:func:`compliance.render.pack.pack_path`, which ``compliance verify`` uses too),
    also when a link inside evidence/ leads to the file. Only where that spelling names
    another file (a ``..`` after a link: ``x/../a`` need not be ``a``) or none, the file
    is packed where it really is under evidence/, and ``verify`` says it cannot find it.
    Raises ``OutsideFolder`` or ``OSError`` when it does not resolve inside evidence/."""
    evidence_dir = workspace.evidence_dir
    real = resolve_inside(evidence_dir, path)
    named = pack_path(path)
    if named is not None and (".." not in path.split("/") or resolve_inside(
            evidence_dir, named.removeprefix("evidence/")) == real):
        return named
    return f"evidence/{real.relative_to(evidence_dir.resolve()).as_posix()}"


def evidence_files(checked: Checked, only: Collection[str] | None = None) -> dict[str, bytes]:
    """Every evidence file the model cites (or only the items ``only`` names) that reads
    inside evidence/, by pack path (:func:`evidence_member`).

    Each file is read through ``Workspace.read_evidence``, which resolves it and
    checks that it (and evidence/ itself) is inside the workspace at the moment
    its bytes are read; a file that is not is never packed (the evidence rules
    report it).
    """
    model = checked.workspace.model
    assert model is not None
    files: dict[str, bytes] = {}
    for ev in model.evidence:
        if only is not None and ev.id not in only:
            continue
        try:
            data = checked.workspace.read_evidence(ev.path)
            member = evidence_member(checked.workspace, ev.path)
        except (OutsideFolder, OSError, ValueError):
            continue  # reported by the evidence rules; never packed
        files[member] = data
    return files


def build(checked: Checked, out: Path, *, forced: bool, progress: Progress | None = None,
          audience: Audience = Audience.INTERNAL, sign_key: Path | None = None) -> Built:
    """Render every output of ``checked`` into ``out`` (all or nothing), each showing only
    what ``audience`` may read (:mod:`compliance.render.audience`).

    Raises ``OutputInInputFolder`` before rendering when ``out`` is or is inside
    controls/, evidence/ or templates/, and ``CannotWrite`` when the outputs
    cannot be put in place (the previous ones are then left as they were).
    """
    from compliance.render.pdf import PdfAttachment, render_pdf

    step = progress or (lambda _message: None)
    model = checked.workspace.model
    if model is None:
        raise ValueError("build needs a model that loaded")
    refuse_input_folders(checked.workspace.root, out)
    refuse_too_large(len(model.controls))
    reviewed: dt.date = model.system.last_reviewed
    generator = f"compliance {__version__}"

    step("context")
    vis = Visibility(audience, model)
    evidence = evidence_files(checked, vis.evidence_ids())
    ctx = build_context(checked, forced=forced, evidence=evidence, visibility=vis)
    env = make_env(checked.workspace.root)
    step("stance and report HTML")
    stance = render_stance_md(env, ctx).encode()
    findings = format_json(make_report(Redaction(vis, checked).checked_view())).encode()

    pack_files = {
        "model.json": (json.dumps(vis.model_data(), indent=2, ensure_ascii=False) + "\n")
        .encode(),
        "findings.json": findings,
        "stance.md": stance,
        **evidence,
    }
    verdicts = {cid: str(v["status"]) for cid, v in checked.result.verdicts.items()
                if cid in vis.control_ids}  # a control hidden from this audience is not named
    attached = manifest(
        pack_files, system=model.system.name, reviewed=reviewed, generator=generator,
        verdicts=verdicts,
        audience=audience.value,
    )
    attached_bytes = manifest_bytes(attached)
    # The report's first page names what an auditor re-hashes: model.json and the manifest
    # attached to the PDF (the pack itself holds the PDF, so it cannot be hashed in it).
    ctx = dataclasses.replace(ctx, summary=dataclasses.replace(
        ctx.summary, model_sha256=sha256(pack_files["model.json"]),
        manifest_sha256=sha256(attached_bytes), manifest_files=len(pack_files)))
    html = render_report_html(env, ctx, max_bytes=MAX_REPORT_HTML_BYTES)
    step("PDF")
    pdf = render_pdf(
        html,
        asset_dir=packaged_asset_dir(),
        date=reviewed,
        attachments=[
            PdfAttachment(
                "manifest.json",
                attached_bytes,
                "sha256 of the model, the findings, the stance and every evidence file",
            )
        ],
    )
    step("evidence pack")
    pack = build_pack(
        {**pack_files, "report.pdf": pdf},
        system=model.system.name,
        reviewed=reviewed,
        generator=generator,
        verdicts=verdicts,
        audience=audience.value,
        sign=None if sign_key is None else partial(sign_manifest, key=sign_key),
    )
    outputs = {
        "stance.md": stance,
        "report.html": html.encode(),
        "report.pdf": pdf,
        "evidence-pack.zip": pack,
        "findings.json": findings,
    }
    step("writing")
    with staged_outputs(out) as staging:
        for name in OUTPUTS:
            write_bytes(staging, name, outputs[name])
    return Built(out, outputs)
