"""Output formats: small functions over a list of diagnostics.

``text`` (``path:line:col: level message [code]``, colour on a terminal),
``json`` (a stable contract CI and other tools read), ``sarif`` (OASIS SARIF
2.1.0, for code-scanning uploads) and ``github`` (workflow annotations).
Waived findings are never hidden: every format shows them and their waiver.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, TextIO
from urllib.parse import quote

from compliance import __version__
from compliance.diagnostics import Diagnostic, Level

FORMATS = ("text", "json", "sarif", "github")
TOOL_NAME = "compliance"
TOOL_URI = "https://github.com/agent-sandbox-compliance/compliance"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass(frozen=True)
class RuleInfo:
    """What formats need to know about a rule: its code, name, level and page."""

    code: str
    name: str
    level: Level
    summary: str
    page: str = ""


@dataclass
class Report:
    """What one run found: findings plus optional extra sections for the JSON output."""

    findings: Sequence[Diagnostic]
    rules: Mapping[str, RuleInfo] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    #: Text format: print the summary line even when nothing was found, plus the claim
    #: verdict counts (``check`` and ``build`` want it; ``lint`` stays silent when clean).
    always_summary: bool = False
    #: The folder the findings' paths are relative to, as the command was given it
    #: (``check``: its workspace; ``lint``: "", its paths are the ones given). The CI
    #: formats (github, sarif) name files from the current folder, see :func:`ci_path`;
    #: text and JSON keep the paths as they are.
    base: str = ""
    #: Text format: what the run read (``lint``: "2 files, 40 sentences read"), said in
    #: the summary line, which is then printed when nothing was found too ("...; no rule
    #: matched": a clean run names what it covered, and claims no more).
    read: str = ""

    def counts(self) -> dict[str, int]:
        active = [d for d in self.findings if d.waived_by is None]
        return {
            "error": sum(d.level is Level.ERROR for d in active),
            "warning": sum(d.level is Level.WARNING for d in active),
            "info": sum(d.level is Level.INFO for d in active),
            "waived": sum(d.waived_by is not None for d in self.findings),
        }


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


_COLOURS = {Level.ERROR: "\x1b[31m", Level.WARNING: "\x1b[33m", Level.INFO: "\x1b[36m"}


def format_text(report: Report, color: bool = False) -> str:
    lines = []
    for d in report.findings:
        level = d.level.value
        if color:
            level = f"{_COLOURS[d.level]}{level}\x1b[0m"
        waived = f" (waived: {d.waived_by})" if d.waived_by else ""
        lines.append(f"{d.path}:{d.line}:{d.column}: {level} {d.message} [{d.code}]{waived}")
        lines.extend(f"    see {r}" for r in d.related)
    lines.extend(report.extra.get("_metric_lines") or [])
    c = report.counts()
    if report.read and not report.findings:
        lines.append(f"{report.read}; no rule matched")
    elif report.findings or report.always_summary:
        summary = f"{_plural(c['error'], 'error')}, {_plural(c['warning'], 'warning')}"
        if c["waived"]:
            summary += f" ({c['waived']} waived)"
        verdicts = report.extra.get("verdicts") or {}
        if report.always_summary and verdicts:
            tally = {s: sum(v["status"] == s for v in verdicts.values())
                     for s in ("verified", "partly-verified", "unverified", "refuted")}
            summary += (f"; claims: {tally['verified']} verified, "
                        + (f"{tally['partly-verified']} partly verified, "
                           if tally["partly-verified"] else "")
                        + f"{tally['unverified']} unverified, {tally['refuted']} refuted")
        lines.append(f"{report.read}; {summary}" if report.read else summary)
    return "\n".join(lines) + ("\n" if lines else "")


def finding_dict(d: Diagnostic) -> dict[str, Any]:
    """One finding in the JSON contract (keys are stable; new keys may be added)."""
    out: dict[str, Any] = {
        "path": d.path, "line": d.line, "column": d.column,
        "end_line": d.end_line, "end_column": d.end_column,
        "code": d.code, "name": d.name, "level": d.level.value, "message": d.message,
    }
    if d.related:
        out["related"] = [{"path": r.path, "line": r.line, "column": r.column}
                          for r in d.related]
    if d.waived_by:
        out["waived_by"] = d.waived_by
    return out


def format_json(report: Report) -> str:
    doc: dict[str, Any] = {
        "tool": {"name": TOOL_NAME, "version": __version__},
        "findings": [finding_dict(d) for d in report.findings],
        "summary": report.counts(),
    }
    doc.update({k: v for k, v in report.extra.items() if not k.startswith("_")})
    return json.dumps(doc, indent=2, sort_keys=False, default=str) + "\n"


def ci_path(path: str, base: str = "") -> str:
    """``path`` (relative to ``base``) named from the current folder, ``/``-separated.

    What a CI job resolves: the GitHub action runs ``compliance check WORKSPACE`` from the
    repository root, so ``controls/x.yaml`` of workspace ``ws`` is ``ws/controls/x.yaml``.
    A relative result is normalised (``./ws/x`` is ``ws/x``); an absolute one inside the
    current folder is made relative to it, one outside it stays absolute.
    """
    joined = os.path.normpath(os.path.join(base, path))
    if os.path.isabs(joined):
        here = os.getcwd()
        for file, folder in ((joined, here), (os.path.realpath(joined), os.path.realpath(here))):
            try:
                rel = os.path.relpath(file, folder)
            except ValueError:  # another drive (Windows)
                break
            if rel != os.pardir and not rel.startswith(os.pardir + os.sep):
                return PurePath(rel).as_posix()
    return PurePath(joined).as_posix()


def _artifact(path: str, base: str) -> dict[str, str]:
    """A SARIF artifactLocation: relative to %SRCROOT% (the current folder), or absolute."""
    where = ci_path(path, base)
    if os.path.isabs(where):
        return {"uri": PurePath(where).as_uri()}
    return {"uri": quote(where, safe="/"), "uriBaseId": "%SRCROOT%"}


_SARIF_LEVEL = {Level.ERROR: "error", Level.WARNING: "warning", Level.INFO: "note"}


def _region(d: Diagnostic) -> dict[str, int]:
    region = {"startLine": d.line, "startColumn": d.column}
    if d.end_line is not None:
        region["endLine"] = d.end_line
    if d.end_column is not None:
        region["endColumn"] = d.end_column
    return region


def sarif_dict(report: Report) -> dict[str, Any]:
    codes = sorted({d.code for d in report.findings} | set(report.rules))
    rules = []
    for code in codes:
        info = report.rules.get(code)
        rule: dict[str, Any] = {"id": code}
        if info is not None:
            rule.update({
                "name": info.name,
                "shortDescription": {"text": info.summary},
                "fullDescription": {"text": info.summary},
                "help": {"text": info.page or info.summary},
                "defaultConfiguration": {"level": _SARIF_LEVEL[info.level]},
            })
        rules.append(rule)
    index = {code: i for i, code in enumerate(codes)}
    results = []
    for d in report.findings:
        result: dict[str, Any] = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": _SARIF_LEVEL[d.level],
            "message": {"text": d.message},
            "locations": [{"physicalLocation": {
                "artifactLocation": _artifact(d.path, report.base),
                "region": _region(d),
            }}],
        }
        if d.related:
            result["relatedLocations"] = [
                {"id": i, "physicalLocation": {
                    "artifactLocation": _artifact(r.path, report.base),
                    "region": {"startLine": r.line, "startColumn": r.column}}}
                for i, r in enumerate(d.related)]
        if d.waived_by:
            result["suppressions"] = [{"kind": "external", "status": "accepted",
                                       "justification": d.waived_by}]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": TOOL_NAME, "version": __version__,
                                "informationUri": TOOL_URI, "rules": rules}},
            # Left without a uri on purpose: an absolute path of this machine would make
            # the log differ from folder to folder; code scanning takes the checkout.
            "originalUriBaseIds": {"%SRCROOT%": {"description": {
                "text": "The folder compliance ran in (the repository root in CI); "
                        "relative uris are relative to it."}}},
            "results": results,
        }],
    }


def format_sarif(report: Report) -> str:
    return json.dumps(sarif_dict(report), indent=2) + "\n"


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


_GH_LEVEL = {Level.ERROR: "error", Level.WARNING: "warning", Level.INFO: "notice"}


def format_github(report: Report) -> str:
    lines = []
    for d in report.findings:
        level = "notice" if d.waived_by else _GH_LEVEL[d.level]
        file = ci_path(d.path, report.base)
        props = [f"file={_gh_escape(file, True)}", f"line={d.line}", f"col={d.column}"]
        if d.end_line is not None:
            props.append(f"endLine={d.end_line}")
        if d.end_column is not None:
            props.append(f"endColumn={d.end_column}")
        props.append(f"title={_gh_escape(f'{d.code} {d.name}', True)}")
        msg = d.message + (f" (waived: {d.waived_by})" if d.waived_by else "")
        lines.append(f"::{level} {','.join(props)}::{_gh_escape(msg)}")
    return "\n".join(lines) + ("\n" if lines else "")


#: An input that cannot be read and has no position of its own (no such folder, ...).
INPUT_CODE, INPUT_NAME = "IO001", "unreadable-input"
#: ``path: message`` or ``path:line:col: message``, the shapes of UserError messages.
_WHERE = re.compile(r"(?P<path>[^\n]+?)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<msg>.*)", re.S)


def unreadable_report(message: str, diagnostics: Sequence[Diagnostic] | None = None,
                      base: str = "") -> Report:
    """What a run that could not read its input found, for the machine-readable formats.

    Positioned diagnostics are used as they are, their paths relative to ``base`` (the
    workspace, for ``check``); a bare message becomes one finding at line 1 of the path
    it names (``"path: what is wrong"``, named as given). ``ok`` is false.
    """
    from compliance.rules.registry import LOADER_CODES

    found = list(diagnostics or [])
    if not found:
        m = _WHERE.match(message)
        path, line, col, text = (m["path"], int(m["line"] or 1), int(m["col"] or 1), m["msg"]) \
            if m else (".", 1, 1, message)
        found = [Diagnostic(path, line, col, INPUT_CODE, INPUT_NAME, Level.ERROR, text)]
    rules = {d.code: RuleInfo(d.code, LOADER_CODES[d.code][0], Level.ERROR,
                              LOADER_CODES[d.code][1])
             for d in found if d.code in LOADER_CODES}
    return Report(found, rules, {"ok": False}, base=base if diagnostics else "")


FORMATTERS: dict[str, Callable[[Report], str]] = {
    "json": format_json,
    "sarif": format_sarif,
    "github": format_github,
}


def emit(report: Report | Sequence[Diagnostic], fmt: str, stream: TextIO,
         color: bool = False) -> None:
    """Write ``report`` (or bare diagnostics) to ``stream`` in ``fmt`` (see :data:`FORMATS`)."""
    if not isinstance(report, Report):
        report = Report(list(report))
    if fmt == "text":
        stream.write(format_text(report, color=color))
    else:
        stream.write(FORMATTERS[fmt](report))
