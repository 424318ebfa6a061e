"""GitHub Actions workflows, including Copilot's ``copilot-setup-steps.yml``.

Facts, each with its line:
- ``trigger``: each event under ``on:`` (string, list or mapping form);
- ``secret``: each ``secrets.NAME`` reference, value ``(job, NAME)``;
- ``pr-head-checkout``: a step that checks out pull-request head code
  (``actions/checkout`` with a ``ref``/``repository`` from the PR or
  ``workflow_run`` head, ``gh pr checkout``, ``git fetch … pull/``, or, under
  ``workflow_run``, a ``download-artifact`` of the triggering run), value ``(job, step)``;
- ``run-after-checkout``: a ``run:`` or local-action step after such a checkout;
- ``action-input``: each ``with:`` input of a ``uses:`` step, value
  ``(job, step, action, input, value)``;
- ``environment``: each job's ``environment:`` name;
- ``copilot-ignored`` (copilot-setup-steps only): what Copilot does not honour: a job
  other than ``copilot-setup-steps``, a job key outside ``steps``, ``permissions``,
  ``runs-on``, ``services``, ``snapshot``, ``timeout-minutes``, or a timeout over 59.
"""

from __future__ import annotations

import re
from typing import Any

from compliance.adapters.base import EvidenceDoc, as_dict, as_list
from compliance.adapters.yamlpos import parse_yaml

WORKFLOW_KIND = "gha-workflow"
COPILOT_KIND = "copilot-setup-steps"
COPILOT_JOB = "copilot-setup-steps"
COPILOT_HONOURED = frozenset({"steps", "permissions", "runs-on", "services", "snapshot",
                              "timeout-minutes"})

PRIVILEGED_TRIGGERS = frozenset({"pull_request_target", "workflow_run"})
_SECRET = re.compile(r"secrets\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)|secrets\[\s*'([^']+)'\s*\]")
_PR_HEAD = re.compile(
    r"(pull_request\.head\.|workflow_run\.head_|github\.head_ref|refs/pull/|"
    r"event\.pull_request\.number|merge_commit_sha)"
)
_ARTIFACT = re.compile(r"download-artifact")
_RUN_CHECKOUT = re.compile(r"gh\s+pr\s+checkout|git\s+fetch\b[^\n]*pull/|git\s+checkout\b[^\n]*pr")


def looks_like(data: Any) -> bool:
    return isinstance(data, dict) and "jobs" in data and ("on" in data or True in data)


def is_copilot(data: Any) -> bool:
    return looks_like(data) and COPILOT_JOB in (data.get("jobs") or {})


def parse(text: str, display_path: str, kind: str = WORKFLOW_KIND) -> EvidenceDoc:
    data, positions = parse_yaml(text, display_path)
    doc = EvidenceDoc(kind, display_path, data, positions, text=text)
    if not isinstance(data, dict):
        return doc
    _triggers(doc)
    jobs: dict[str, Any] = data["jobs"] if isinstance(data.get("jobs"), dict) else {}
    for job, body in jobs.items():
        if not isinstance(body, dict):
            continue
        env = doc.at("jobs", job, "environment")
        if env is not None:
            name = env.value.get("name") if isinstance(env.value, dict) else env.value
            name = name if isinstance(name, str) else str(name)
            doc.add("environment", (job, name), env.line, env.column, env.key)
        _steps(doc, job, body)
    _secrets(doc, list(jobs))
    if kind == COPILOT_KIND:
        _copilot_ignored(doc, jobs)
    return doc


def _copilot_ignored(doc: EvidenceDoc, jobs: dict[str, Any]) -> None:
    for job, body in jobs.items():
        if job != COPILOT_JOB:
            doc.add_at("copilot-ignored", f"job {job} (only {COPILOT_JOB} runs)", "jobs", job)
            continue
        for key in body if isinstance(body, dict) else {}:
            if key not in COPILOT_HONOURED:
                doc.add_at("copilot-ignored", f"{key} is not honoured", "jobs", job, key)
        timeout = body.get("timeout-minutes") if isinstance(body, dict) else None
        if isinstance(timeout, int) and timeout > 59:
            doc.add_at("copilot-ignored", f"timeout-minutes {timeout} is over the maximum of 59",
                       "jobs", job, "timeout-minutes")


def _triggers(doc: EvidenceDoc) -> None:
    key = "on" if "on" in doc.data else True
    on = doc.data.get(key)
    if isinstance(on, str):
        doc.add_at("trigger", on, "on")
    elif isinstance(on, list):
        for fact in doc.items("on"):
            if isinstance(fact.value, str):
                doc.add("trigger", fact.value, fact.line, fact.column, fact.key)
    elif isinstance(on, dict):
        for name in on:
            doc.add_at("trigger", str(name), "on", name)


def _steps(doc: EvidenceDoc, job: str, body: dict[str, Any]) -> None:
    checked_out = False
    for i, step in enumerate(as_list(body.get("steps"))):
        if not isinstance(step, dict):
            continue
        here = ("jobs", job, "steps", i)
        uses = str(step.get("uses") or "")
        with_: dict[str, Any] = as_dict(step.get("with"))
        for name, value in with_.items():
            doc.add_at("action-input", (job, i, uses, name, value), *here, "with", name)
        run = str(step.get("run") or "")
        is_checkout = uses.startswith("actions/checkout") and any(
            _PR_HEAD.search(str(with_.get(k, ""))) for k in ("ref", "repository")
        )
        # An artifact from the triggering run is PR-controlled content too (workflow_run).
        is_checkout = is_checkout or (_ARTIFACT.search(uses) is not None
                                      and "workflow_run" in _trigger_names(doc))
        if is_checkout or _RUN_CHECKOUT.search(run):
            doc.add_at("pr-head-checkout", (job, i), *here)
            checked_out = True
            if run and not is_checkout:
                continue
        elif checked_out and (run or uses.startswith("./")):
            doc.add_at("run-after-checkout", (job, i), *here)


def _trigger_names(doc: EvidenceDoc) -> set[str]:
    return {str(f.value) for f in doc.fact_list("trigger")}


def _secrets(doc: EvidenceDoc, jobs: list[str]) -> None:
    """Scan the text for ``secrets.X`` and attribute each to the job whose block holds it."""
    starts = sorted((doc.line("jobs", j), j) for j in jobs)
    top = sorted(doc.line(k) for k in doc.data if isinstance(k, str))
    for lineno, line in enumerate(doc.text.splitlines(), start=1):
        stripped = line.lstrip()
        if stripped.startswith("#"):
            continue
        for m in _SECRET.finditer(line):
            job = None
            for start, name in starts:
                if start <= lineno:
                    job = name
            after_jobs = [t for t in top if t > doc.line("jobs")]
            if job is not None and after_jobs and lineno >= after_jobs[0]:
                job = None
            name = m.group(1) or m.group(2)
            doc.add("secret", (job, name), lineno, m.start() + 1, f"secrets.{name}")


def job_permissions(doc: EvidenceDoc, job: str) -> tuple[Any, bool]:
    """The permissions a job's token gets, and whether they were declared at all."""
    if doc.has("jobs", job, "permissions"):
        return doc.get("jobs", job, "permissions"), True
    if doc.has("permissions"):
        return doc.get("permissions"), True
    return None, False


def grants_write(perms: Any, scopes: tuple[str, ...] = ()) -> bool:
    """True when a permissions value grants write (to the given scopes, or to any)."""
    if perms == "write-all":
        return True
    if isinstance(perms, dict):
        return any(v == "write" and (not scopes or k in scopes) for k, v in perms.items())
    return False
