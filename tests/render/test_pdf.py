"""The PDF: text, bookmarks, attachment, PDF/A metadata, tags, links, header and footer."""

from __future__ import annotations

import re
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf.generic import BooleanObject, NameObject

from compliance.render.context import FindingView
from compliance.render.documents import render_report_html
from compliance.render.env import make_env, packaged_asset_dir
from compliance.render.pdf import render_pdf
from tests.render.conftest import MANIFEST, REVIEWED
from tests.render.pdfutil import outline, reader, text
from tests.render.sample import QUESTIONS, sample_context


def test_text_has_every_question_control_and_limit(sample_pdf: bytes) -> None:
    content = text(sample_pdf)
    ctx = sample_context()
    for question in QUESTIONS.values():
        assert question in content
    for control in ctx.controls:
        assert f"{control.id}: {control.title}" in content
        assert control.claim in content
        assert control.verdict.value in content
        for limit in control.limits:
            assert limit.text in content
            assert f"Source: {limit.source}" in content
        for evidence in control.evidence:
            assert evidence.sha256 in content


def test_gap_layers_are_named(sample_pdf: bytes) -> None:
    assert text(sample_pdf).count("Gap: no control in place covers this layer.") == 3


def test_bookmarks_per_layer_and_control(sample_pdf: bytes) -> None:
    assert outline(sample_pdf) == [
        "Audit summary",
        "Stance",
        "Controls by layer",
        "Isolation",
        "Network",
        ["NET-01: Default-deny egress with an allowlist"],
        "Credentials",
        ["CRED-01: No standing credentials in the sandbox",
         "CRED-02: Credential files denied to the sandbox"],
        "Git",
        "Pipeline",
        "Logs",
        ["LOG-01: Session logs shipped to the SIEM"],
        "Layer metrics",
        "Layer drills",
        "Tabletop scenarios",
        "Other findings and waivers",
    ]


def test_manifest_attached_as_data(sample_pdf: bytes) -> None:
    r = reader(sample_pdf)
    assert r.attachments == {"manifest.json": [MANIFEST]}
    root = r.trailer["/Root"]
    specs = [ref.get_object() for ref in root["/AF"]]
    relations = {spec["/AFRelationship"] for spec in specs if "/AFRelationship" in spec}
    assert relations == {NameObject("/Data")}
    names = {spec["/F"] for spec in specs if "/F" in spec}
    assert names == {"manifest.json"}


def test_pdfa_3u_metadata_title_language_and_dates(sample_pdf: bytes) -> None:
    r = reader(sample_pdf)
    xmp = r.xmp_metadata.stream.get_data().decode()  # type: ignore[union-attr]
    assert 'pdfaid:part="3"' in xmp
    assert 'pdfaid:conformance="U"' in xmp
    assert "<xmp:CreateDate>2026-11-02</xmp:CreateDate>" in xmp
    assert r.metadata is not None
    assert r.metadata["/Title"] == "Agent sandbox audit report"
    assert r.metadata["/CreationDate"] == "D:20261102"
    assert r.metadata["/ModDate"] == "D:20261102"
    root = r.trailer["/Root"]
    assert root["/Lang"] == "en"
    assert "/StructTreeRoot" in root
    assert root["/MarkInfo"]["/Marked"] == BooleanObject(True)
    assert sample_pdf.startswith(b"%PDF-1.7")
    assert root["/OutputIntents"][0].get_object()["/S"] == "/GTS_PDFA1"


def test_page_x_of_y_and_running_layer_header(sample_pdf: bytes) -> None:
    r = reader(sample_pdf)
    total = len(r.pages)
    pages = [" ".join(page.extract_text().split()) for page in r.pages]
    for number, page in enumerate(pages, start=1):
        assert f"Page {number} of {total}" in page
    network = next(page for page in pages if QUESTIONS["network"] in page)
    assert re.search(rf"Network Agent sandbox audit report Page \d+ of {total}$", network)
    assert "Agent sandbox audit report Page 1" not in pages[0]


def test_internal_links_from_summary_to_details(sample_pdf: bytes) -> None:
    r = reader(sample_pdf)
    dests = set(r.named_destinations)
    assert {"control-net-01", "control-cred-01", "control-log-01", "layer-isolation"} <= dests
    # The overview table follows the first page (the audit summary and sign-off).
    overview = next(page for page in r.pages if "Controls by layer" in page.extract_text())
    targets = [
        annot.get_object().get("/Dest") or annot.get_object()["/A"].get("/D")
        for annot in overview.get("/Annots", [])
        if annot.get_object()["/Subtype"] == "/Link"
    ]
    assert "control-net-01" in targets
    assert "layer-isolation" in targets


def test_table_headers_repeat_across_pages() -> None:
    ctx = sample_context(forced=True)
    findings = tuple(
        FindingView(f"T{n:03d}", "long-table", "error", "A finding.", f"controls/x.yaml:{n}:1")
        for n in range(80)
    )
    html = render_report_html(make_env(None), replace(ctx, open_findings=findings))
    pdf = render_pdf(html, asset_dir=packaged_asset_dir(), date=REVIEWED)
    pages = [" ".join(page.extract_text().split()) for page in reader(pdf).pages]
    spread = [page for page in pages if "long-table" in page]
    assert len(spread) >= 2
    for page in spread:
        assert page.count("Level Rule Where Message") == 1


def test_nothing_is_left_in_the_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by tests/fuzz: WeasyPrint's copies of the report fonts (``weasyprint-*``)
    stayed in TMPDIR until the garbage collector ran."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    html = render_report_html(make_env(None), sample_context(forced=False))
    render_pdf(html, asset_dir=packaged_asset_dir(), date=REVIEWED)
    assert list(tmp_path.iterdir()) == []


def test_forced_build_states_open_findings_on_first_page(forced_pdf: bytes) -> None:
    first = " ".join(reader(forced_pdf).pages[0].extract_text().split())
    assert "Open findings: this build was forced" in first
    assert "error LIM001" in first
    assert outline(forced_pdf)[0] == "Open findings: this build was forced"


def test_model_text_is_escaped_not_markup() -> None:
    from tests.render.conftest import render_sample

    pdf = render_sample(extra_text=" <b>bold</b> &amp;")
    assert "Agents reach only allowlisted hosts. <b>bold</b> &amp;" in text(pdf)


def test_running_header_names_the_section_on_the_page() -> None:
    """Pages of the metrics and drills sections are headed with their own title, not the
    last layer's ("Logs" used to run on to the end of the report)."""
    from compliance.practice.worksheet import MetricView
    from tests.render.sample import DRILLS

    metric = MetricView("MET-X", "a metric", "Logs", "1", "at most 2", "within",
                        ("2026-11-01 evidence/x.json: 1",), "", "")
    ctx = replace(sample_context(), metrics=tuple(replace(metric, id=f"MET-{i}")
                                                  for i in range(60)),
                  drills=replace(DRILLS, rows=DRILLS.rows * 20))
    pdf = render_pdf(render_report_html(make_env(None), ctx), asset_dir=packaged_asset_dir(),
                     date=REVIEWED, attachments=[])
    pages = [" ".join(page.extract_text().split()) for page in reader(pdf).pages]
    titles = ("Stance", "Logs", "Layer metrics", "Layer drills", "Tabletop scenarios",
              "Other findings and waivers")
    head = re.compile(rf"({'|'.join(titles)}) Agent sandbox audit report Page \d+ of \d+$")

    def headed(start: str) -> list[tuple[str, str]]:
        """(header, body) of the pages that begin inside the section whose table starts so."""
        found = [(m.group(1), p[: m.start()]) for p in pages
                 if p.startswith(start) and (m := head.search(p))]
        assert found, start
        return found

    # a page is headed with its own section, or with one that starts on it
    for start, title in (("Metric Layer Value", "Layer metrics"),
                         ("Date Drill Layer", "Layer drills")):
        for header, body in headed(start):
            assert header == title or header in body, (header, body[:80])
    assert [h for h, _body in headed("Date Drill Layer")].count("Layer drills") >= 2
    assert [h for h, _body in headed("Metric Layer Value")].count("Layer metrics") >= 1
    assert [h for h, _body in headed("Stance ")] == ["Stance"]
