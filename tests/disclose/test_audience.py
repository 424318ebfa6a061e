"""Audience tiers: `build --audience` shows each reader only what is marked for them, and
never a claim without its limits."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from compliance.model.audience import Audience
from compliance.pipeline import load_and_check
from compliance.render.audience import Redaction, Visibility
from compliance.render.build_context import build_context
from tests.disclose.example import AS_OF, copy_example, invoke
from tests.render.pdfutil import reader, text

TODAY = dt.date.fromisoformat(AS_OF)


def squash(value: str) -> str:
    """Text without any whitespace: PDF extraction breaks lines (and after hyphens)."""
    return re.sub(r"\s+", "", value)


def set_field(root: Path, control: str, line: str) -> None:
    """Add ``line`` (a control field, e.g. 'audience: nda') to one control of the example."""
    for file in sorted((root / "controls").glob("*.yaml")):
        text_ = file.read_text(encoding="utf-8")
        marker = f"  - id: {control}\n"
        if marker in text_:
            file.write_text(text_.replace(marker, f"{marker}    {line}\n"), encoding="utf-8")
            return
    raise AssertionError(control)


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, bytes]]:
    """The example built for public readers and for the team: output name -> bytes, and
    every file of each pack as 'pack:NAME'."""
    root = copy_example(tmp_path_factory.mktemp("example"))
    out: dict[str, dict[str, bytes]] = {}
    for audience in ("public", "internal"):
        dest = root / f"out-{audience}"
        code, _stdout, stderr = invoke("build", str(root), "--out", str(dest), "--today", AS_OF,
                                       "--audience", audience)
        assert (code, stderr) == (0, "")
        files = {p.name: p.read_bytes() for p in dest.iterdir()}
        with zipfile.ZipFile(io.BytesIO(files["evidence-pack.zip"])) as pack:
            files.update({f"pack:{name}": pack.read(name) for name in pack.namelist()})
        out[audience] = files
    out["model"] = {"root": str(root).encode()}
    return out


def nda_texts(root: Path) -> list[str]:
    """Every implementation and residual_risk text of the example (nda by default)."""
    model = load_and_check(root, TODAY).workspace.model
    assert model is not None
    return [t for c in model.controls for t in (c.implementation, c.residual_risk)]


def strings(value: object) -> list[str]:
    """Every string (keys and values) in decoded JSON."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return [value] if isinstance(value, str) else []


def readable(files: dict[str, bytes]) -> dict[str, str]:
    """Each output and pack file as text, squashed: the PDF's extracted text, JSON's strings
    decoded, HTML with entities decoded."""
    import html

    out = {}
    for name, data in files.items():
        if name.startswith("pack:evidence/"):  # the evidence files themselves, as they are
            out[name] = squash(data.decode("utf-8"))
        elif name.endswith("report.pdf"):
            out[name] = squash(text(data))
        elif name.endswith(".json"):
            out[name] = squash(" ".join(strings(json.loads(data))))
        elif name.endswith(".html"):
            out[name] = squash(html.unescape(data.decode("utf-8")))
        elif name.endswith(".md"):
            out[name] = squash(data.decode("utf-8").replace("\\", ""))
    return out


def test_a_public_build_contains_no_nda_field_anywhere(builds: dict) -> None:
    needles = nda_texts(Path(builds["model"]["root"].decode()))
    assert len(needles) == 28  # 14 controls
    public = readable(builds["public"])
    assert {"report.pdf", "pack:report.pdf", "report.html", "stance.md", "pack:model.json",
            "pack:findings.json", "findings.json", "pack:stance.md"} <= set(public)
    for name, body in public.items():
        leaked = [n[:60] for n in needles if squash(n) in body]
        assert leaked == [], name
    # The same texts are in the team's own build, so the search can find them.
    internal = readable(builds["internal"])
    assert all(squash(n) in internal["report.pdf"] for n in needles)
    assert all(squash(n) in internal["pack:model.json"] for n in needles)


def test_the_public_build_says_so_on_its_first_page_and_in_both_manifests(builds: dict) -> None:
    pdf = builds["public"]["report.pdf"]
    first = " ".join(reader(pdf).pages[0].extract_text().split())
    assert ("Audience public: what may be shown to anyone; detail marked nda or internal is "
            "left out") in first
    manifest = json.loads(builds["public"]["pack:manifest.json"])
    attached = json.loads(reader(pdf).attachments["manifest.json"][0])
    assert manifest["audience"] == attached["audience"] == "public"
    assert json.loads(builds["internal"]["pack:manifest.json"])["audience"] == "internal"
    assert builds["public"]["stance.md"].decode().splitlines()[3] == (
        "Audience: public: what may be shown to anyone; detail marked nda or internal is left "
        "out.")


def test_the_stance_and_every_limit_stay_for_public_readers(builds: dict) -> None:
    root = Path(builds["model"]["root"].decode())
    model = load_and_check(root, TODAY).workspace.model
    assert model is not None
    public = readable(builds["public"])
    for limit in model.limits:
        if any(limit.id in c.limits for c in model.controls if c.status.value != "planned"):
            assert squash(limit.text) in public["stance.md"], limit.id
            assert squash(limit.text) in public["report.pdf"], limit.id
    internal = builds["internal"]["stance.md"].decode().split("## Limits", 1)
    assert builds["public"]["stance.md"].decode().split("## Limits", 1)[1] == internal[1]
    for c in model.controls:
        assert squash(c.claim) in public["report.pdf"], c.id  # every claim is public here


def test_a_control_marked_nda_is_not_shown_to_public_readers(tmp_path: Path) -> None:
    root = copy_example(tmp_path / "ws")
    set_field(root, "NET-02", "audience: nda")
    checked = load_and_check(root, TODAY)
    model = checked.workspace.model
    assert model is not None
    vis = Visibility(Audience.PUBLIC, model)
    ctx = build_context(checked, visibility=vis)
    network = next(layer for layer in ctx.layers if layer.key == "network")
    assert [c.id for c in network.controls] == ["NET-01"] and network.withheld == 1
    assert not network.gap
    assert "reach only an allowlist of package registries directly" not in ctx.stance.summary
    assert ctx.stance.relied_on[-1] == ("1 more control(s) in place are not shown to this "
                                        "audience; nothing above rests on them.")
    [net01] = network.controls
    assert net01.implementation == "Not shown to public readers."
    assert net01.claim == model.control("NET-01").claim.strip()
    data = vis.model_data()
    assert [c["id"] for c in data["controls"]] == [c.id for c in model.controls
                                                  if c.id != "NET-02"]
    assert all("implementation" not in c and "residual_risk" not in c for c in data["controls"])
    nda = build_context(checked, visibility=Visibility(Audience.NDA, model))
    shown = next(layer for layer in nda.layers if layer.key == "network").controls
    assert [c.id for c in shown] == ["NET-01", "NET-02"]
    assert shown[1].implementation == model.control("NET-02").implementation.strip()


def test_evidence_marked_internal_is_neither_listed_nor_packed(tmp_path: Path) -> None:
    root = copy_example(tmp_path / "ws")
    with (root / "compliance.yaml").open("a", encoding="utf-8") as handle:
        handle.write("field_audience: {evidence: internal}\n")
    checked = load_and_check(root, TODAY)
    model = checked.workspace.model
    assert model is not None
    vis = Visibility(Audience.NDA, model)
    assert vis.evidence_ids() == set()
    ctx = build_context(checked, visibility=vis)
    assert all(c.evidence == () and c.evidence_withheld for c in ctx.controls)
    verdicts = Redaction(vis, checked).checked_view().result.verdicts
    assert verdicts["PIPE-01"] == {"status": "verified"}  # reasons quote the evidence files
    assert next(c for c in ctx.controls if c.id == "PIPE-01").verdict_reason == (
        "The configuration checks over its evidence files verified the claim.")
    assert vis.model_data()["evidence"] == []


def test_a_limit_hidden_from_a_reader_of_its_claim_is_an_error(tmp_path: Path) -> None:
    root = copy_example(tmp_path / "ws")
    limits = root / "controls/limits.yaml"
    body = limits.read_text(encoding="utf-8")
    assert "  - id: model-channel-open\n" in body
    limits.write_text(body.replace("  - id: model-channel-open\n",
                                   "  - id: model-channel-open\n    audience: nda\n"),
                      encoding="utf-8")
    code, stdout, _ = invoke("check", str(root), "--today", AS_OF, "--format", "json")
    assert code == 1
    [finding] = [f for f in json.loads(stdout)["findings"] if f["code"] == "AUD001"]
    lines = limits.read_text(encoding="utf-8").splitlines()
    assert lines[finding["line"] - 1] == "    audience: nda"
    assert finding["message"].startswith(
        "limit model-channel-open is marked nda, but NET-01 (public)")
    assert finding["message"].endswith(
        "a reader shown the claim must be shown its limits; mark the limit public or narrow "
        "the control(s) to nda")
    code, stdout, _ = invoke("build", str(root), "--out", str(tmp_path / "out"),
                             "--today", AS_OF, "--audience", "public")
    assert code == 1 and not (tmp_path / "out").exists()


@pytest.mark.parametrize(("line", "message"), [
    ("audience: secret", "audience: 'secret' is not one of public, nda, internal"),
    ("field_audience: {claim: nda}", "field_audience.claim"),
])
def test_a_wrong_audience_is_a_positioned_error(tmp_path: Path, line: str, message: str) -> None:
    root = copy_example(tmp_path / "ws")
    set_field(root, "NET-01", line)
    code, stdout, _ = invoke("check", str(root), "--today", AS_OF)
    assert code == 1
    assert message in stdout and "controls/network.yaml:" in stdout


def test_findings_about_customers_are_the_team_s_own(tmp_path: Path) -> None:
    from compliance.diagnostics import Diagnostic, Level

    root = copy_example(tmp_path / "ws")
    checked = load_and_check(root, TODAY)
    model = checked.workspace.model
    assert model is not None
    d = Diagnostic("disclosures/acme-bank.yaml", 9, 5, "DSC001", "disclosure-out-of-date",
                   Level.WARNING, "disclosure 'acme-bank' is out of date")
    public = Redaction(Visibility(Audience.PUBLIC, model), checked)
    team = Redaction(Visibility(Audience.INTERNAL, model), checked)
    assert public.finding(d).message == "A finding about detail not shown to public readers."
    assert (public.finding(d).code, public.finding(d).line) == ("DSC001", 9)
    assert team.finding(d) is d


def test_a_public_build_record_is_compared_with_what_public_readers_would_see(
        tmp_path: Path) -> None:
    from compliance.disclose.make import build_record
    from compliance.disclose.records import write_record

    root = copy_example(tmp_path / "ws")
    set_field(root, "NET-02", "audience: nda")
    code, stdout, _ = invoke("build", str(root), "--out", str(tmp_path / "out"), "--today",
                             AS_OF, "--audience", "public", "--record", "pub")
    assert code == 0, stdout
    code, stdout, _ = invoke("diff", str(root), "--since", "pub", "--format", "json",
                             "--today", AS_OF)
    [record] = json.loads(stdout)["disclosures"]
    assert (code, record["audience"], record["changes"]) == (0, "public", [])
    checked = load_and_check(root, TODAY)
    model = checked.workspace.model
    assert model is not None
    sent = build_record(checked, "pub2", audience=Audience.PUBLIC,
                        controls=Visibility(Audience.PUBLIC, model).control_ids)
    assert "NET-02" not in [c.control for c in sent.claims]
    write_record(root, sent, replace=False)
    # Narrowing a control the customer was shown takes it away from them: owed an update.
    set_field(root, "NET-01", "audience: nda")
    code, stdout, _ = invoke("diff", str(root), "--since", "pub2", "--format", "json",
                             "--today", AS_OF)
    [record] = json.loads(stdout)["disclosures"]
    assert code == 1
    assert record["changes"][0]["message"] == (
        "NET-01 (Default-deny egress firewall in every session) is no longer shown to this "
        "audience")
