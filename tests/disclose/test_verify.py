"""`build --sign KEY` and `compliance verify`: a pack an auditor can check offline."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.disclose.example import AS_OF, copy_example, invoke

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh = pytest.mark.skipif(SSH_KEYGEN is None,
                               reason="ssh-keygen is not installed: signing is untested")


def keypair(folder: Path, name: str) -> tuple[Path, Path]:
    """A fresh Ed25519 key without passphrase, and an allowed-signers file naming it."""
    assert SSH_KEYGEN is not None
    key = folder / name
    subprocess.run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", f"{name}@example.test",
                    "-f", str(key)], check=True, capture_output=True)
    public = (folder / f"{name}.pub").read_text(encoding="utf-8").strip()
    allowed = folder / f"{name}.allowed_signers"
    allowed.write_text(f'{name}@example.test namespaces="compliance-pack" {public}\n',
                       encoding="utf-8")
    return key, allowed


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if SSH_KEYGEN is None:
        pytest.skip("ssh-keygen is not installed: signing is untested")
    tmp = tmp_path_factory.mktemp("signed")
    root = copy_example(tmp / "ws")
    key, allowed = keypair(tmp, "auditor")
    _other, stranger = keypair(tmp, "stranger")
    code, stdout, stderr = invoke("build", str(root), "--out", str(tmp / "out"), "--today",
                                  AS_OF, "--sign", str(key))
    assert (code, stderr) == (0, ""), stdout
    return {"pack": tmp / "out/evidence-pack.zip", "allowed": allowed, "stranger": stranger,
            "key": key, "root": root}


def rewrite(pack: Path, dest: Path, change: Callable[[dict[str, bytes]], None]) -> Path:
    with zipfile.ZipFile(pack) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    change(files)
    with zipfile.ZipFile(dest, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return dest


def verify(pack: Path, *extra: str) -> tuple[int, str, str]:
    return invoke("verify", str(pack), *extra)


@needs_ssh
def test_stock_openssh_accepts_the_signature(signed: dict[str, Path], tmp_path: Path) -> None:
    assert SSH_KEYGEN is not None
    with zipfile.ZipFile(signed["pack"]) as archive:
        manifest = archive.read("manifest.json")
        (tmp_path / "manifest.json.sig").write_bytes(archive.read("manifest.json.sig"))
        assert "manifest.json.sig" not in [f["path"] for f in json.loads(manifest)["files"]]
    result = subprocess.run(
        [SSH_KEYGEN, "-Y", "verify", "-f", str(signed["allowed"]), "-I",
         "auditor@example.test", "-n", "compliance-pack", "-s",
         str(tmp_path / "manifest.json.sig")], input=manifest, capture_output=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().startswith(
        'Good "compliance-pack" signature for auditor@example.test with ED25519 key')
    tampered = manifest.replace(b'"audience": "internal"', b'"audience": "public"')
    assert tampered != manifest
    result = subprocess.run(
        [SSH_KEYGEN, "-Y", "verify", "-f", str(signed["allowed"]), "-I",
         "auditor@example.test", "-n", "compliance-pack", "-s",
         str(tmp_path / "manifest.json.sig")], input=tampered, capture_output=True, check=False)
    assert result.returncode != 0


@needs_ssh
def test_an_untampered_pack_verifies(signed: dict[str, Path]) -> None:
    code, stdout, stderr = verify(signed["pack"], "--allowed-signers", str(signed["allowed"]))
    assert (code, stderr) == (0, "")
    lines = stdout.splitlines()
    assert lines[0].startswith('signature: Good "compliance-pack" signature for '
                               "auditor@example.test with ED25519 key SHA256:")
    with zipfile.ZipFile(signed["pack"]) as archive:
        listed = len(json.loads(archive.read("manifest.json"))["files"])
    assert listed == len(archive.namelist()) - 2  # all but the manifest and its signature
    pins = pinned_count(signed["pack"])
    assert lines[1] == (f"{signed['pack']}: verified: {listed} files match manifest.json, "
                        f"{pins} evidence files match their sha256 pins in model.json, and "
                        "report.pdf's attached manifest matches manifest.json; the signature "
                        "is good")
    code, stdout, _ = verify(signed["pack"])
    assert code == 0
    assert stdout.splitlines()[0] == ("signature: signed, NOT CHECKED: give --allowed-signers "
                                      "FILE to check who signed it")
    assert stdout.endswith(f"{signed['pack']}: consistent, not shown to be the pack that was "
                           f"built: {listed} files match manifest.json, {pins} evidence files "
                           "match their sha256 pins in model.json, and report.pdf's attached "
                           "manifest matches manifest.json; the pack is signed, but who signed "
                           "it was not checked (give --allowed-signers FILE), so anyone who can "
                           "edit the zip could have made it consistent\n")


def pinned_count(pack: Path) -> int:
    """How many evidence items the pack's model.json pins (the example pins every one)."""
    with zipfile.ZipFile(pack) as archive:
        evidence = json.loads(archive.read("model.json"))["evidence"]
    assert evidence and all(e["sha256"] for e in evidence)
    return len(evidence)


def codeowners_changed(signed: dict[str, Path], tmp_path: Path) -> Path:
    """The signed pack with one evidence file changed after the build."""
    def change(files: dict[str, bytes]) -> None:
        files["evidence/github/CODEOWNERS"] += b"* @someone-else\n"

    return rewrite(signed["pack"], tmp_path / "t.zip", change)


@needs_ssh
def test_a_changed_file_is_named(signed: dict[str, Path], tmp_path: Path) -> None:
    pack = codeowners_changed(signed, tmp_path)
    code, stdout, _ = verify(pack, "--allowed-signers", str(signed["allowed"]))
    assert code == 1
    [problem] = [line for line in stdout.splitlines() if "CODEOWNERS" in line]
    assert problem.startswith(f"{pack}: evidence/github/CODEOWNERS: sha256 is ")
    assert problem.endswith("in manifest.json: the file was changed after the pack was built")
    assert stdout.endswith(f"{pack}: NOT verified: 1 problem(s) above\n")


@needs_ssh
def test_a_rewritten_manifest_breaks_the_signature_and_disagrees_with_the_pdf(
        signed: dict[str, Path], tmp_path: Path) -> None:
    """The attacker changes stance.md and re-hashes it in manifest.json."""
    import hashlib

    def change(files: dict[str, bytes]) -> None:
        manifest = json.loads(files["manifest.json"])
        files["stance.md"] = files["stance.md"].replace(b"## Limits", b"## Notes")
        for entry in manifest["files"]:
            if entry["path"] == "stance.md":
                entry["sha256"] = hashlib.sha256(files["stance.md"]).hexdigest()
                entry["bytes"] = len(files["stance.md"])
        files["manifest.json"] = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()

    pack = rewrite(signed["pack"], tmp_path / "t.zip", change)
    code, stdout, _ = verify(pack, "--allowed-signers", str(signed["allowed"]))
    assert code == 1
    lines = stdout.splitlines()
    assert any(line.startswith(f"{pack}: report.pdf (its attached manifest.json): stance.md "
                               "has sha256 ") for line in lines)
    assert any(line.startswith(f"{pack}: manifest.json.sig: the signature does not match "
                               "manifest.json for auditor@example.test") for line in lines)
    assert not any(line.startswith(f"{pack}: stance.md:") for line in lines)


@needs_ssh
def test_missing_extra_and_unsigned(signed: dict[str, Path], tmp_path: Path) -> None:
    def change(files: dict[str, bytes]) -> None:
        del files["findings.json"]
        del files["manifest.json.sig"]
        files["notes.txt"] = b"added later\n"

    pack = rewrite(signed["pack"], tmp_path / "t.zip", change)
    code, stdout, _ = verify(pack, "--allowed-signers", str(signed["allowed"]))
    assert code == 1
    assert stdout.splitlines()[:3] == [
        f"{pack}: findings.json: listed in manifest.json, not in the pack",
        f"{pack}: notes.txt: in the pack, not listed in manifest.json",
        f"{pack}: manifest.json.sig: the pack is not signed, and --allowed-signers asks for a "
        "signature",
    ]


@needs_ssh
def test_a_signer_not_in_the_allowed_signers_file(signed: dict[str, Path]) -> None:
    code, stdout, _ = verify(signed["pack"], "--allowed-signers", str(signed["stranger"]))
    assert code == 1
    assert f"manifest.json.sig: no signer in {signed['stranger']} has the key that made " \
        "manifest.json.sig" in stdout


def bad_hash_manifest(signed: dict[str, Path], tmp_path: Path) -> Path:
    """The signed pack whose manifest.json has a malformed sha256: the wrong shape."""
    def bad_hash(files: dict[str, bytes]) -> None:
        files["manifest.json"] = files["manifest.json"].replace(b'"sha256": "', b'"sha256": "X', 1)

    return rewrite(signed["pack"], tmp_path / "hash.zip", bad_hash)


@needs_ssh
def test_malformed_manifests(signed: dict[str, Path], tmp_path: Path) -> None:
    pack = bad_hash_manifest(signed, tmp_path)
    code, stdout, stderr = verify(pack)
    assert (code, stderr) == (1, "")
    assert stdout.startswith("hash.zip!manifest.json:")
    assert "files[0].sha256: 'X" in stdout and "expected 64 lowercase hex digits" in stdout

    def not_json(files: dict[str, bytes]) -> None:
        files["manifest.json"] = b'{"format": "compliance-evidence-pack/1", "files": [\n'

    pack = rewrite(signed["pack"], tmp_path / "syntax.zip", not_json)
    code, stdout, stderr = verify(pack)
    assert (code, stdout) == (2, "")
    assert stderr.startswith("syntax.zip!manifest.json:") and "Traceback" not in stderr


def test_unreadable_packs(tmp_path: Path) -> None:
    (tmp_path / "not.zip").write_bytes(b"PK\x03\x04 truncated")
    code, stdout, stderr = verify(tmp_path / "not.zip")
    assert (code, stdout) == (2, "")
    assert stderr == (f"error: {tmp_path / 'not.zip'}: not a zip file, so not an evidence pack "
                      "(File is not a zip file)\n")
    with zipfile.ZipFile(tmp_path / "empty.zip", "w") as archive:
        archive.writestr("stance.md", b"x")
    code, _, stderr = verify(tmp_path / "empty.zip")
    assert code == 2
    assert stderr == (f"error: {tmp_path / 'empty.zip'}: no manifest.json, so nothing says what "
                      "the pack holds\n")
    code, _, stderr = verify(tmp_path / "missing.zip")
    assert code == 2 and "cannot read the pack" in stderr
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", b"{}")
        archive.writestr("bomb.bin", b"\0" * (64 << 20))
    (tmp_path / "bomb.zip").write_bytes(buffer.getvalue())
    code, _, stderr = verify(tmp_path / "bomb.zip")
    assert code == 2 and "refusing a zip bomb" in stderr


@needs_ssh
def test_a_key_that_cannot_sign_writes_nothing(tmp_path: Path) -> None:
    root = copy_example(tmp_path / "ws")
    (tmp_path / "not-a-key").write_text("hello\n", encoding="utf-8")
    code, stdout, stderr = invoke("build", str(root), "--out", str(tmp_path / "out"),
                                  "--today", AS_OF, "--sign", str(tmp_path / "not-a-key"))
    assert code == 2
    assert stderr.startswith(f"error: cannot sign with {tmp_path / 'not-a-key'}: ssh-keygen says:")
    assert stderr.endswith("give an SSH private key (or its .pub, with the key loaded in "
                           "ssh-agent)\n")
    assert not (tmp_path / "out").exists()


# --- `compliance verify --format json` (shape: docs/report.md) ---------------------------

VERIFY_KEYS = ["tool", "findings", "summary", "pack", "ok", "verdict", "files_checked",
               "pins_checked", "problems", "signature", "built_with"]


def verify_json(pack: Path, *extra: str) -> tuple[int, dict, str]:  # type: ignore[type-arg]
    """``verify --format json``: exit code, the parsed object, and the last text line's
    verdict for the same pack and options (the two formats must agree)."""
    code, stdout, stderr = verify(pack, *extra, "--format", "json")
    assert stderr == ""
    doc = json.loads(stdout)
    assert list(doc) == VERIFY_KEYS
    text_code, text, _ = verify(pack, *extra)
    assert text_code == code
    assert text.splitlines()[-1] == f"{pack}: {doc['verdict']}"
    return code, doc, text


@needs_ssh
def test_json_of_an_untampered_pack(signed: dict[str, Path]) -> None:
    code, doc, _ = verify_json(signed["pack"], "--allowed-signers", str(signed["allowed"]))
    with zipfile.ZipFile(signed["pack"]) as archive:
        listed = len(json.loads(archive.read("manifest.json"))["files"])
    assert code == 0
    assert doc["tool"]["name"] == "compliance"
    assert (doc["findings"], doc["problems"]) == ([], [])
    assert doc["summary"] == {"error": 0, "warning": 0, "info": 0, "waived": 0}
    assert (doc["pack"], doc["ok"], doc["files_checked"]) == (str(signed["pack"]), True, listed)
    assert doc["signature"]["status"] == "good"
    assert doc["signature"]["message"].startswith('Good "compliance-pack" signature for '
                                                  "auditor@example.test")
    assert doc["pins_checked"] == pinned_count(signed["pack"])
    assert doc["verdict"].startswith("verified: ")
    assert doc["verdict"].endswith("; the signature is good")
    code, doc, _ = verify_json(signed["pack"])
    assert (code, doc["ok"], doc["signature"]["status"]) == (0, True, "not-checked")
    assert doc["verdict"].startswith("consistent, not shown to be the pack that was built: ")
    assert doc["verdict"].endswith("who signed it was not checked (give --allowed-signers "
                                   "FILE), so anyone who can edit the zip could have made it "
                                   "consistent")


@needs_ssh
def test_json_names_each_problem(signed: dict[str, Path], tmp_path: Path) -> None:
    pack = codeowners_changed(signed, tmp_path)
    code, doc, _ = verify_json(pack, "--allowed-signers", str(signed["allowed"]))
    assert (code, doc["ok"], doc["verdict"]) == (1, False, "NOT verified: 1 problem(s) above")
    [problem] = doc["problems"]
    assert problem["subject"] == "evidence/github/CODEOWNERS"
    assert problem["message"].startswith("sha256 is ")
    assert doc["signature"]["status"] == "good"  # the manifest itself was not touched


@needs_ssh
def test_json_signature_missing_or_unsigned(signed: dict[str, Path], tmp_path: Path) -> None:
    def unsign(files: dict[str, bytes]) -> None:
        del files["manifest.json.sig"]

    pack = rewrite(signed["pack"], tmp_path / "t.zip", unsign)
    code, doc, _ = verify_json(pack, "--allowed-signers", str(signed["allowed"]))
    assert (code, doc["ok"], doc["signature"]["status"]) == (1, False, "missing")
    assert doc["problems"] == [{"subject": "manifest.json.sig", "message": (
        "the pack is not signed, and --allowed-signers asks for a signature")}]
    code, doc, _ = verify_json(pack)
    assert (code, doc["ok"], doc["signature"]["status"]) == (0, True, "unsigned")
    assert doc["verdict"].startswith("consistent, not shown to be the pack that was built: ")
    assert doc["verdict"].endswith("; the pack is not signed, so anyone who can edit the zip "
                                   "could have made it consistent")
    assert "verified" not in doc["verdict"]
    assert doc["signature"]["message"] == "not signed (no manifest.json.sig)"
    code, doc, _ = verify_json(signed["pack"], "--allowed-signers", str(signed["stranger"]))
    assert (code, doc["ok"], doc["signature"]["status"]) == (1, False, "bad")


@needs_ssh
def test_json_of_a_malformed_manifest(signed: dict[str, Path], tmp_path: Path) -> None:
    pack = bad_hash_manifest(signed, tmp_path)
    code, doc, _ = verify_json(pack)
    assert (code, doc["ok"], doc["files_checked"], doc["pins_checked"]) == (1, False, 0, 0)
    assert doc["signature"] == {"status": "not-examined", "message": ""}
    assert doc["findings"] and {f["path"] for f in doc["findings"]} == {"hash.zip!manifest.json"}
    assert doc["summary"]["error"] == len(doc["findings"])
    assert doc["verdict"].endswith("nothing else was checked")


def test_json_of_an_unreadable_pack(tmp_path: Path) -> None:
    (tmp_path / "not.zip").write_bytes(b"PK\x03\x04 truncated")
    code, stdout, stderr = verify(tmp_path / "not.zip", "--format", "json")
    assert code == 2
    assert stderr.startswith(f"error: {tmp_path / 'not.zip'}: not a zip file")
    doc = json.loads(stdout)
    assert doc["ok"] is False and doc["summary"]["error"] == 1
    [finding] = doc["findings"]
    assert finding["path"] == str(tmp_path / "not.zip")
    assert finding["message"].startswith("not a zip file, so not an evidence pack")


def test_evidence_reached_through_a_link_inside_evidence_verifies(tmp_path: Path) -> None:
    """A file the model names isolation/agent-session.yaml, a link to the export it was
    copied from, was packed under the export's path while verify (and the report's hash
    column) looked for it under the model's path: "pinned, not in the pack". The pack now
    holds it under the model's path; a link out of the workspace is still never packed."""
    root = copy_example(tmp_path / "ws")
    named = root / "evidence/isolation/agent-session.yaml"
    (root / "evidence/exports").mkdir()
    named.rename(root / "evidence/exports/agent-session.yaml")
    named.symlink_to("../exports/agent-session.yaml")
    code, stdout, _ = invoke("build", str(root), "--out", str(tmp_path / "out"), "--today",
                             AS_OF)
    assert code == 0, stdout
    pack = tmp_path / "out/evidence-pack.zip"
    with zipfile.ZipFile(pack) as archive:
        names = archive.namelist()
    assert "evidence/isolation/agent-session.yaml" in names
    assert "evidence/exports/agent-session.yaml" not in names
    code, stdout, _ = verify(pack)
    assert code == 0 and stdout.splitlines()[-1].startswith(
        f"{pack}: consistent, not shown to be the pack that was built: ")
    report = (tmp_path / "out/report.html").read_text(encoding="utf-8")
    row = report.split("<td>evidence/isolation/agent-session.yaml<br>", 1)[1].split("</tr>")[0]
    assert '<td class="hash">missing</td>' not in row

    secret = tmp_path / "secret.yaml"
    secret.write_bytes(named.read_bytes())
    named.unlink()
    named.symlink_to(secret)  # out of the workspace: refused, never packed
    code, stdout, _ = invoke("build", str(root), "--out", str(tmp_path / "out2"), "--today",
                             AS_OF, "--allow-findings")
    assert code == 1 and "[EVD001]" in stdout
    with zipfile.ZipFile(tmp_path / "out2/evidence-pack.zip") as archive:
        assert not any("agent-session" in name for name in archive.namelist())


@pytest.fixture(scope="module")
def forced(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pack built with --allow-findings over a refuted claim (PIPE-01's, re-pinned)."""
    from tests.disclose.example import turn_off_workflow_approval

    tmp = tmp_path_factory.mktemp("forced")
    root = copy_example(tmp / "ws")
    turn_off_workflow_approval(root)
    code, stdout, _ = invoke("build", str(root), "--out", str(tmp / "out"), "--today", AS_OF,
                             "--allow-findings")
    assert code == 1, stdout
    return tmp / "out/evidence-pack.zip"


def test_a_pack_built_with_open_errors_says_so_in_text_and_json(forced: Path) -> None:
    """An auditor reading 'consistent' must also read that the pack was built over errors."""
    with zipfile.ZipFile(forced) as archive:
        recorded = json.loads(archive.read("findings.json"))["summary"]
    errors = recorded["error"]
    assert errors >= 1
    code, stdout, _ = verify(forced)
    assert code == 0  # the files are consistent: the exit code says only that
    assert stdout.splitlines()[-1].startswith(
        f"{forced}: consistent, not shown to be the pack that was built, and built with "
        f"{errors} open error finding{'' if errors == 1 else 's'} (build --allow-findings; "
        f"findings.json in the pack lists {'it' if errors == 1 else 'them'}): ")
    code, stdout, _ = verify(forced, "--format", "json")
    doc = json.loads(stdout)
    assert (code, doc["ok"], doc["built_with"]) == (0, True, recorded)
    assert doc["verdict"].startswith("consistent, not shown to be the pack that was built, "
                                     f"and built with {errors} open error finding")
