"""Output formats: SARIF validates against the OASIS 2.1.0 schema and carries regions."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from compliance.diagnostics import Diagnostic, Level, Position
from compliance.formats import Report, RuleInfo, format_github, format_sarif, format_text

FINDINGS = [
    Diagnostic("controls/net.yaml", 7, 12, "LIM002", "kind-limit-missing", Level.ERROR,
               "control NET-01 lacks 'model-channel-open'", 7, 30,
               related=(Position("evidence/fw.sh", 12, 1),)),
    Diagnostic("controls/git.yaml", 3, 5, "GAP001", "layer-without-control", Level.WARNING,
               "layer 'logs' has no control", waived_by="waiver GAP001 on logs by sec"),
]
RULES = {"LIM002": RuleInfo("LIM002", "kind-limit-missing", Level.ERROR, "Kind limit missing.",
                            "page")}


def test_sarif_is_valid_and_positioned(shared_data: Path) -> None:
    schema = json.loads((shared_data / "schemas/sarif-2.1.0/sarif-schema-2.1.0.json")
                        .read_text())
    doc = json.loads(format_sarif(Report(FINDINGS, RULES)))
    jsonschema.validate(doc, schema)
    run = doc["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["GAP001", "LIM002"]
    lim, gap = run["results"]
    assert (lim["ruleId"], lim["ruleIndex"], gap["ruleId"], gap["ruleIndex"]) == (
        "LIM002", 1, "GAP001", 0)
    assert gap["suppressions"][0]["status"] == "accepted" and "suppressions" not in lim
    assert lim["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == 12
    region = lim["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 7, "startColumn": 12, "endLine": 7, "endColumn": 30}


def test_sarif_of_no_findings_is_valid(shared_data: Path) -> None:
    schema = json.loads((shared_data / "schemas/sarif-2.1.0/sarif-schema-2.1.0.json")
                        .read_text())
    jsonschema.validate(json.loads(format_sarif(Report([]))), schema)


def test_text_shows_waived_and_related() -> None:
    assert format_text(Report(FINDINGS)) == (
        "controls/net.yaml:7:12: error control NET-01 lacks 'model-channel-open' [LIM002]\n"
        "    see evidence/fw.sh:12:1\n"
        "controls/git.yaml:3:5: warning layer 'logs' has no control [GAP001] "
        "(waived: waiver GAP001 on logs by sec)\n"
        "1 error, 0 warnings (1 waived)\n")


def test_github_escapes_properties_and_newlines() -> None:
    d = Diagnostic("a,b:c.yaml", 1, 2, "X1", "n", Level.WARNING, "50%\nnext")
    assert format_github(Report([d])) == (
        "::warning file=a%2Cb%3Ac.yaml,line=1,col=2,title=X1 n::50%25%0Anext\n")


def test_ci_formats_prefix_the_base_and_stay_valid(
        shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    schema = json.loads((shared_data / "schemas/sarif-2.1.0/sarif-schema-2.1.0.json")
                        .read_text())
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in").mkdir()
    outside = str(tmp_path.parent / "elsewhere")
    cases = {"my ws": ({"uri": "my%20ws/controls/net.yaml", "uriBaseId": "%SRCROOT%"},
                       "my ws/controls/net.yaml"),
             str(tmp_path / "in"): ({"uri": "in/controls/net.yaml", "uriBaseId": "%SRCROOT%"},
                                    "in/controls/net.yaml"),
             outside: ({"uri": (Path(outside) / "controls/net.yaml").as_uri()},
                       f"{outside}/controls/net.yaml")}
    for base, (location, file) in cases.items():
        report = Report(FINDINGS[:1], RULES, base=base)
        doc = json.loads(format_sarif(report))
        jsonschema.validate(doc, schema)
        result = doc["runs"][0]["results"][0]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"] == location
        related = result["relatedLocations"][0]["physicalLocation"]["artifactLocation"]
        assert related["uri"] == location["uri"].replace("controls/net.yaml", "evidence/fw.sh")
        assert format_github(report).startswith(f"::error file={file},line=7,")
        assert format_text(report).startswith("controls/net.yaml:7:12: ")  # as it was
