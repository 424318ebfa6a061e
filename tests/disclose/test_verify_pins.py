"""`compliance verify` on an unsigned pack: evidence against model.json's pins, and a verdict
that says "consistent", not "verified" (finding F5 of the new-user report)."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

import pypdf
import pytest

from tests.disclose.example import AS_OF, copy_example, invoke
from tests.disclose.test_verify import rewrite, verify

FIREWALL = "evidence/devcontainer/init-firewall.sh"


@pytest.fixture(scope="module")
def unsigned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("unsigned")
    root = copy_example(tmp / "ws")
    code, stdout, stderr = invoke("build", str(root), "--out", str(tmp / "out"), "--today",
                                  AS_OF)
    assert (code, stderr) == (0, ""), stdout
    return tmp / "out/evidence-pack.zip"


def replace_attached_manifest(pdf: bytes, data: bytes) -> bytes:
    """report.pdf with its attached manifest.json's bytes replaced by ``data``."""
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(pdf)))
    names = writer._root_object["/Names"]["/EmbeddedFiles"]["/Names"]
    assert names[0] == "manifest.json" and len(names) == 2
    names[1].get_object()["/EF"]["/F"].get_object().set_data(data)
    out = io.BytesIO()
    writer.write(out)
    assert pypdf.PdfReader(io.BytesIO(out.getvalue())).attachments["manifest.json"] == [data]
    return out.getvalue()


def rehash(manifest: bytes, files: dict[str, bytes], *paths: str) -> bytes:
    """``manifest`` (pack or PDF) with the size and sha256 of ``paths`` recomputed and every
    path missing from ``files`` dropped, written as the build writes it."""
    data = json.loads(manifest)
    data["files"] = [entry for entry in data["files"]
                     if entry["path"] in files or entry["path"] == "report.pdf"]
    for entry in data["files"]:
        if entry["path"] in paths:
            entry["sha256"] = hashlib.sha256(files[entry["path"]]).hexdigest()
            entry["bytes"] = len(files[entry["path"]])
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()


def forge(files: dict[str, bytes], *changed: str) -> None:
    """Re-hash ``changed`` in the PDF's attached manifest, then in manifest.json (the PDF
    too): every hash the pack holds agrees again, except model.json's pins."""
    pdf = files["report.pdf"]
    attached = pypdf.PdfReader(io.BytesIO(pdf)).attachments["manifest.json"][0]
    files["report.pdf"] = replace_attached_manifest(pdf, rehash(attached, files, *changed))
    files["manifest.json"] = rehash(files["manifest.json"], files, *changed, "report.pdf")


def pinned(pack: Path, path: str) -> str:
    with zipfile.ZipFile(pack) as archive:
        evidence = json.loads(archive.read("model.json"))["evidence"]
    [item] = [e for e in evidence if f"evidence/{e['path']}" == path]
    return str(item["sha256"])


def test_a_consistent_unsigned_pack_is_not_called_verified(unsigned: Path) -> None:
    code, stdout, stderr = verify(unsigned)
    assert (code, stderr) == (0, "")
    assert stdout.splitlines()[0] == "signature: not signed (no manifest.json.sig)"
    [verdict] = stdout.splitlines()[1:]
    assert verdict.startswith(f"{unsigned}: consistent, not shown to be the pack that was "
                              "built: ")
    assert " evidence files match their sha256 pins in model.json" in verdict
    assert verdict.endswith("; the pack is not signed, so anyone who can edit the zip could "
                            "have made it consistent")
    assert "verified" not in verdict


def test_a_firewall_edit_rehashed_everywhere_but_the_model_is_named(
        unsigned: Path, tmp_path: Path) -> None:
    """F5: DROP -> ACCEPT in the firewall script, its sha256 recomputed in manifest.json and
    in the manifest attached to report.pdf; only model.json still pins the old file."""
    def change(files: dict[str, bytes]) -> None:
        assert b" DROP" in files[FIREWALL]
        files[FIREWALL] = files[FIREWALL].replace(b" DROP", b" ACCEPT")
        forge(files, FIREWALL)

    forged = rewrite(unsigned, tmp_path / "forged.zip", change)
    with zipfile.ZipFile(forged) as archive:
        now = hashlib.sha256(archive.read(FIREWALL)).hexdigest()
    old = pinned(unsigned, FIREWALL)
    assert now != old
    code, stdout, stderr = verify(forged)
    assert (code, stderr) == (1, "")
    assert stdout.splitlines() == [
        f"{forged}: {FIREWALL}: sha256 is {now} in the pack and in manifest.json, but "
        f"model.json pins evidence firewall-script at {old}: the file was changed after it "
        "was pinned, either after the pack was built or in a build with --allow-findings",
        "signature: not signed (no manifest.json.sig)",
        f"{forged}: NOT verified: 1 problem(s) above",
    ]
    code, stdout, _ = verify(forged, "--format", "json")
    doc = json.loads(stdout)
    assert (code, doc["ok"], doc["verdict"]) == (1, False, "NOT verified: 1 problem(s) above")
    assert [p["subject"] for p in doc["problems"]] == [FIREWALL]


def test_a_pinned_file_dropped_from_the_pack_is_named(unsigned: Path, tmp_path: Path) -> None:
    def change(files: dict[str, bytes]) -> None:
        del files[FIREWALL]
        forge(files)

    forged = rewrite(unsigned, tmp_path / "dropped.zip", change)
    code, stdout, _ = verify(forged)
    assert code == 1
    assert stdout.splitlines()[0] == (
        f"{forged}: {FIREWALL}: model.json pins it (evidence firewall-script, sha256 "
        f"{pinned(unsigned, FIREWALL)[:16]}...), not in the pack")
    assert stdout.endswith("NOT verified: 1 problem(s) above\n")


def test_a_model_without_an_evidence_list_is_a_problem(unsigned: Path, tmp_path: Path) -> None:
    def change(files: dict[str, bytes]) -> None:
        model = json.loads(files["model.json"])
        del model["evidence"]
        files["model.json"] = json.dumps(model).encode()
        forge(files, "model.json")

    forged = rewrite(unsigned, tmp_path / "model.zip", change)
    code, stdout, _ = verify(forged)
    assert code == 1
    assert stdout.splitlines()[0] == (
        f"{forged}: model.json: its evidence list cannot be read (KeyError: 'evidence'), so no "
        "evidence file was compared with its sha256 pin")


def test_a_duplicated_name_is_named_once(unsigned: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(unsigned) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    dup = tmp_path / "dup.zip"
    with zipfile.ZipFile(dup, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        with pytest.warns(UserWarning, match="Duplicate name"):
            archive.writestr("stance.md", b"a second stance\n")
    code, stdout, _ = verify(dup)
    assert code == 1
    assert stdout.splitlines() == [
        f"{dup}: stance.md: appears more than once in the zip",
        "signature: not signed (no manifest.json.sig)",
        f"{dup}: NOT verified: 1 problem(s) above",
    ]


def test_a_malformed_attached_manifest_says_what_was_still_checked(
        unsigned: Path, tmp_path: Path) -> None:
    """Only report.pdf's attached manifest malformed: verify said "nothing else was checked"
    although every file and pin had been checked; it says what was and was not now."""
    def change(files: dict[str, bytes]) -> None:
        pdf = files["report.pdf"]
        attached = pypdf.PdfReader(io.BytesIO(pdf)).attachments["manifest.json"][0]
        files["report.pdf"] = replace_attached_manifest(
            pdf, attached.replace(b'"sha256": "', b'"sha256": "X', 1))
        files["manifest.json"] = rehash(files["manifest.json"], files, "report.pdf")

    forged = rewrite(unsigned, tmp_path / "attached.zip", change)
    before = json.loads(verify(unsigned, "--format", "json")[1])
    files, pins = before["files_checked"], before["pins_checked"]
    code, stdout, stderr = verify(forged)
    assert (code, stderr) == (1, "")
    lines = stdout.splitlines()
    assert lines[0].startswith("attached.zip!report.pdf!manifest.json:7:17: error files[0]"
                               ".sha256: 'X")
    assert lines[1:] == [
        "signature: not signed (no manifest.json.sig)",
        f"{forged}: NOT verified: report.pdf's attached manifest.json does not have the form "
        f"of a pack manifest, so it was not compared with manifest.json; {files} files match "
        f"manifest.json and {pins} evidence files match their sha256 pins in model.json"]
    code, stdout, _ = verify(forged, "--format", "json")
    doc = json.loads(stdout)
    assert (code, doc["ok"], doc["files_checked"], doc["pins_checked"]) == (1, False, files,
                                                                              pins)
    assert doc["signature"]["status"] == "unsigned"
    assert "nothing else was checked" not in doc["verdict"]
