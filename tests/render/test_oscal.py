"""`compliance export oscal`: valid OSCAL 1.2.1, loadable by compliance-trestle, reproducible.

The NIST schemas are read from ../shared/data/schemas/oscal-1.2.1 (skipped
visibly when absent). Their patterns use \\p{L} classes, which Python's `re`
lacks, so patterns are checked with the `regex` module.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
import regex
from click.testing import CliRunner
from jsonschema import Draft7Validator, ValidationError, validators

from compliance.cli import cli
from compliance.render.oscal import NS
from tests.workspaces import copy_example

TODAY = "2026-12-01"
SCHEMAS = {"component-definition.json": "oscal_component_schema.json",
           "assessment-results.json": "oscal_assessment-results_schema.json"}


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    if validator.is_type(instance, "string") and not regex.search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


OscalValidator = validators.extend(Draft7Validator, {"pattern": _pattern})


def export(workspace: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["export", "oscal", str(workspace), "--out", str(out),
                                      "--today", TODAY, *extra])
    return result.exit_code, result.stdout, result.stderr


def example_copy(repo: Path, tmp_path: Path) -> Path:
    return copy_example(repo, tmp_path / "ws")


@pytest.fixture
def exported(repo: Path, tmp_path: Path) -> Path:
    ws = example_copy(repo, tmp_path)
    (ws / "waivers.yaml").write_text(
        "waivers:\n  - rule: CFG003\n    target: ISO-02\n    reason: Managed settings rollout"
        " is in progress.\n    owner: sec@acme.example\n    expires: 2027-01-15\n",
        encoding="utf-8")
    code, out, err = export(ws, tmp_path / "oscal")
    assert code == 0, out + err
    return tmp_path / "oscal"


def _validator(shared_data: Path, name: str) -> Any:
    schema = json.loads((shared_data / "schemas/oscal-1.2.1" / SCHEMAS[name]).read_text())
    return OscalValidator(schema)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_exports_validate_against_the_nist_schemas(shared_data: Path, exported: Path,
                                                   name: str) -> None:
    doc = json.loads((exported / name).read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}"
              for e in _validator(shared_data, name).iter_errors(doc)]
    assert errors == []


def test_the_validator_rejects_what_the_schema_forbids(shared_data: Path,
                                                       exported: Path) -> None:
    doc = json.loads((exported / "assessment-results.json").read_text(encoding="utf-8"))
    finding = doc["assessment-results"]["results"][0]["findings"][0]
    finding["target"]["target-id"] = "1 not a token"
    finding["uuid"] = "not-a-uuid"
    messages = sorted(e.message for e in _validator(shared_data, "assessment-results.json")
                      .iter_errors(doc))
    assert len(messages) == 2
    assert all("does not match" in m for m in messages)


def test_trestle_loads_both_files(exported: Path) -> None:
    pytest.importorskip("trestle", reason="compliance-trestle is a test dependency: "
                                          "pip install -e '.[test]'")
    from trestle.oscal.assessment_results import AssessmentResults
    from trestle.oscal.component import ComponentDefinition

    comp = ComponentDefinition.oscal_read(exported / "component-definition.json")
    results = AssessmentResults.oscal_read(exported / "assessment-results.json")
    assert comp is not None and results is not None
    [component] = comp.components
    reqs = component.control_implementations[0].implemented_requirements
    assert [r.control_id for r in reqs][:3] == ["CRED-01", "CRED-02", "GIT-01"]
    [result] = results.results
    assert len(result.findings) == len(reqs)
    [risk] = result.risks
    assert risk.status.root.root == "deviation-approved"
    assert str(risk.deadline.date()) == "2027-01-15"


def test_verdicts_map_to_satisfied_only_when_verified(exported: Path, repo: Path) -> None:
    from compliance.pipeline import load_and_check

    verdicts = load_and_check(repo, today=None).result.verdicts
    doc = json.loads((exported / "assessment-results.json").read_text(encoding="utf-8"))
    states = {f["target"]["target-id"]: f["target"]["status"]
              for f in doc["assessment-results"]["results"][0]["findings"]}
    assert states["ISO-01"] == {"state": "satisfied", "reason": "pass"}
    assert verdicts["GIT-03"]["status"] == "unverified"
    assert states["GIT-03"] == {"state": "not-satisfied", "reason": "other"}
    for cid, verdict in verdicts.items():
        assert (states[cid]["state"] == "satisfied") == (verdict["status"] == "verified")


def test_evidence_is_back_matter_with_its_sha256(exported: Path, repo: Path) -> None:
    doc = json.loads((exported / "component-definition.json").read_text(encoding="utf-8"))
    resources = {r["title"]: r for r in doc["component-definition"]["back-matter"]["resources"]}
    firewall = resources["firewall-script"]
    assert firewall["rlinks"] == [{"href": "evidence/devcontainer/init-firewall.sh", "hashes": [
        {"algorithm": "SHA-256",
         "value": "99151f25e3cb79d2027e86fbf2e1e245153aced962b1f68d471d32ecbd88528b"}]}]
    req = next(r for r in doc["component-definition"]["components"][0]
               ["control-implementations"][0]["implemented-requirements"]
               if r["control-id"] == "NET-01")
    assert {"href": f"#{firewall['uuid']}", "rel": "evidence"} in req["links"]
    assert {"name": "limit", "ns": NS, "value": "model-channel-open"} in req["props"]
    assert req["remarks"].startswith("Limits:\n- model-channel-open: The connection to the model")


def test_uuids_are_derived_from_ids_and_two_exports_are_identical(
        repo: Path, tmp_path: Path) -> None:
    ws = example_copy(repo, tmp_path)
    assert export(ws, tmp_path / "a")[0] == 0
    assert export(ws, tmp_path / "b")[0] == 0
    for name in SCHEMAS:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    doc = json.loads((tmp_path / "a" / "assessment-results.json").read_text(encoding="utf-8"))
    ns = uuid.uuid5(uuid.NAMESPACE_URL, f"{NS}:system:Acme coding agents (hosted sessions)")
    finding = doc["assessment-results"]["results"][0]["findings"][0]
    assert finding["uuid"] == str(uuid.uuid5(ns, f"finding:{finding['target']['target-id']}"))


def test_errors_write_nothing_unless_allowed(repo: Path, tmp_path: Path) -> None:
    ws = example_copy(repo, tmp_path)
    (ws / "controls" / "stance.yaml").write_text(
        "stance: Our agents are 100% safe and cannot leak anything.\n", encoding="utf-8")
    code, out, _ = export(ws, tmp_path / "oscal")
    assert code == 1
    assert out.endswith("nothing written: fix the errors above or use --allow-findings\n")
    assert not (tmp_path / "oscal").exists()
    code, _, _ = export(ws, tmp_path / "oscal", "--allow-findings")
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "oscal").iterdir()) == sorted(SCHEMAS)


def test_an_unwritable_out_is_one_line_and_exit_2(repo: Path, tmp_path: Path) -> None:
    ws = example_copy(repo, tmp_path)
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    code, _out, err = export(ws, blocker / "oscal")
    assert code == 2
    assert err.startswith(f"error: cannot write {blocker / 'oscal'}: ")


def test_the_export_passes_the_tools_own_lint(exported: Path) -> None:
    """A team that lints what it sends out got two errors on text the tool wrote: a
    residual risk ("a session that stops sending creates a gap", read as "no gaps") and a
    rule's name after its code ("CFG017 (codeowners-review-not-required)")."""
    result = CliRunner().invoke(cli, ["lint", str(exported)])
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines()[-1].endswith("; no rule matched")
