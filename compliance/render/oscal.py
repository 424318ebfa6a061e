"""OSCAL 1.2.1 from the checked model: a component definition and assessment results.

- Component definition: the system as one component; each control as an
  implemented requirement (its claim and implementation as the description,
  layer/kind/status/limits as props, the limits' text as remarks, its evidence
  as links to back-matter resources that carry the file's sha256).
- Assessment results: one result; per control an observation (what the
  configuration checks established, by check code) and a finding whose target
  is ``satisfied`` only when the control's claim is VERIFIED (UNVERIFIED and
  REFUTED are ``not-satisfied``, with the reason); each waiver in force as a
  risk with status ``deviation-approved`` and its expiry as the deadline.

Every UUID is a UUID5 of the item's kind and id under a namespace derived from
the system's name, and every date comes from ``system.last_reviewed``, so two
exports of the same workspace are byte-identical. Like every renderer, this one
only reads the checked model and its verdicts; it judges nothing.
"""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from compliance import __version__
from compliance.model import Control, Model

OSCAL_VERSION = "1.2.1"
NS = "urn:agent-sandbox-compliance"
_TOKEN = re.compile(r"^[A-Za-z_][A-Za-z0-9._-]*$")


class Ids:
    """Deterministic UUIDs: uuid5(namespace of the system, "<kind>:<id>")."""

    def __init__(self, system_name: str) -> None:
        self.ns = uuid.uuid5(uuid.NAMESPACE_URL, f"{NS}:system:{system_name}")

    def __call__(self, kind: str, ident: str = "") -> str:
        return str(uuid.uuid5(self.ns, f"{kind}:{ident}"))


def token(ident: str) -> str:
    """A control id as an OSCAL token (NCName): ids starting with a digit get a ``c-``."""
    return ident if _TOKEN.match(ident) else f"c-{ident}"


def prop(name: str, value: str) -> dict[str, str]:
    return {"name": name, "ns": NS, "value": value}


def _metadata(model: Model, title: str) -> dict[str, Any]:
    when = f"{model.system.last_reviewed.isoformat()}T00:00:00Z"
    return {"title": title, "last-modified": when,
            "version": model.system.last_reviewed.isoformat(), "oscal-version": OSCAL_VERSION,
            "props": [prop("generator", f"agent-sandbox-compliance {__version__}")]}


def _resources(model: Model, ids: Ids) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{
        "uuid": ids("resource", "layer-model"),
        "title": "The six layers of an agent sandbox (isolation, network, credentials, git, "
                 "pipeline, logs)",
        "description": "The controls below are this workspace's own; they implement no "
                       "external catalog. Each answers one layer's question.",
    }]
    for ev in model.evidence:
        rlink: dict[str, Any] = {"href": f"evidence/{ev.path}"}
        if ev.sha256:
            rlink["hashes"] = [{"algorithm": "SHA-256", "value": ev.sha256}]
        resource: dict[str, Any] = {
            "uuid": ids("evidence", ev.id), "title": ev.id,
            "props": [prop("collected", ev.collected.isoformat()),
                      prop("max-age-days", str(ev.max_age_days))],
            "rlinks": [rlink]}
        if ev.description:
            resource["description"] = ev.description.strip()
        out.append(resource)
    return out


def _limits_remarks(model: Model, control: Control) -> str:
    texts = {lim.id: " ".join(lim.text.split()) for lim in model.limits}
    lines = [f"- {lid}: {texts.get(lid, lid)}" for lid in control.limits]
    return "Limits:\n" + "\n".join(lines) if lines else "Limits: none stated."


def _requirement(model: Model, control: Control, ids: Ids) -> dict[str, Any]:
    props = [prop("layer", control.layer.value), prop("status", control.status.value)]
    if control.kind:
        props.append(prop("kind", control.kind))
    props += [prop("limit", lid) for lid in control.limits]
    req: dict[str, Any] = {
        "uuid": ids("implemented-requirement", control.id),
        "control-id": token(control.id),
        "description": f"{' '.join(control.claim.split())}\n\n"
                       f"Implementation: {' '.join(control.implementation.split())}\n\n"
                       f"Residual risk: {' '.join(control.residual_risk.split())}",
        "props": props,
        "remarks": _limits_remarks(model, control),
    }
    links = [{"href": f"#{ids('evidence', eid)}", "rel": "evidence"}
             for eid in control.evidence]
    if links:
        req["links"] = links
    return req


def component_definition(model: Model) -> dict[str, Any]:
    ids = Ids(model.system.name)
    requirements = [_requirement(model, c, ids) for c in model.controls]
    component: dict[str, Any] = {
        "uuid": ids("component", model.system.name), "type": "this-system",
        "title": model.system.name, "description": " ".join(model.system.scope.split()),
        "props": [prop("owner", model.system.owner)],
    }
    if requirements:
        component["control-implementations"] = [{
            "uuid": ids("control-implementation", model.system.name),
            "source": f"#{ids('resource', 'layer-model')}",
            "description": "The controls of this workspace, each with its claim, evidence "
                           "and limits, as checked by `compliance check`.",
            "implemented-requirements": requirements}]
    return {"component-definition": {
        "uuid": ids("component-definition", model.system.name),
        "metadata": _metadata(model, f"{model.system.name}: agent sandbox controls"),
        "components": [component],
        "back-matter": {"resources": _resources(model, ids)},
    }}


#: A claim is satisfied only when its checks cover all of it: PARTLY VERIFIED is not.
_STATE = {"verified": ("satisfied", "pass"), "refuted": ("not-satisfied", "fail"),
          "partly-verified": ("not-satisfied", "other"),
          "unverified": ("not-satisfied", "other")}


def _observation(control: Control, verdict: dict[str, Any], ids: Ids, when: str
                 ) -> dict[str, Any]:
    checks = verdict.get("checks", {})
    lines = [f"{code}: {c['status'].upper()}: {c['message']}" for code, c in checks.items()]
    obs: dict[str, Any] = {
        "uuid": ids("observation", control.id),
        "title": f"Configuration checks of {control.id}",
        "description": "\n".join(lines) or verdict.get("message", "no configuration check "
                                                                  "applies to this claim"),
        "props": [prop("verdict", verdict["status"])],
        "methods": ["EXAMINE"] if checks else ["UNKNOWN"],
        "collected": when,
    }
    evidence = [{"href": f"#{ids('evidence', eid)}", "description": f"evidence {eid}"}
                for eid in control.evidence]
    if evidence:
        obs["relevant-evidence"] = evidence
    return obs


def _finding(control: Control, verdict: dict[str, Any], ids: Ids) -> dict[str, Any]:
    state, reason = _STATE[verdict["status"]]
    return {
        "uuid": ids("finding", control.id),
        "title": f"{control.id}: {verdict['status'].upper()}",
        "description": " ".join(str(verdict.get("message", "")).split()) or verdict["status"],
        "target": {"type": "objective-id", "target-id": token(control.id),
                   "status": {"state": state, "reason": reason}},
        "related-observations": [{"observation-uuid": ids("observation", control.id)}],
    }


def _risk(waiver: Any, ids: Ids) -> dict[str, Any]:
    key = f"{waiver.rule}:{waiver.target}:{waiver.expires.isoformat()}"
    return {
        "uuid": ids("risk", key),
        "title": f"Waiver of {waiver.rule} for {waiver.target}",
        "description": " ".join(waiver.reason.split()),
        "statement": f"Finding {waiver.rule} on {waiver.target} is accepted by {waiver.owner} "
                     f"until {waiver.expires.isoformat()}.",
        "props": [prop("owner", waiver.owner)],
        "status": "deviation-approved",
        "deadline": f"{waiver.expires.isoformat()}T00:00:00Z",
    }


def assessment_results(model: Model, verdicts: dict[str, dict[str, Any]],
                       waivers_in_force: list[Any]) -> dict[str, Any]:
    ids = Ids(model.system.name)
    when = f"{model.system.last_reviewed.isoformat()}T00:00:00Z"
    result: dict[str, Any] = {
        "uuid": ids("result", model.system.name),
        "title": "compliance check: claims versus configuration",
        "description": "Each control's claim checked against the evidence files it cites. "
                       "VERIFIED is reported as satisfied; UNVERIFIED (no file could confirm "
                       "it) and REFUTED are not-satisfied.",
        "start": when,
        "reviewed-controls": {"control-selections": [{"include-all": {}}]},
    }
    controls = [c for c in model.controls if c.id in verdicts]
    if controls:
        result["observations"] = [_observation(c, verdicts[c.id], ids, when) for c in controls]
        result["findings"] = [_finding(c, verdicts[c.id], ids) for c in controls]
    if waivers_in_force:
        result["risks"] = [_risk(w, ids) for w in waivers_in_force]
    return {"assessment-results": {
        "uuid": ids("assessment-results", model.system.name),
        "metadata": _metadata(model, f"{model.system.name}: assessment results"),
        "import-ap": {"href": f"#{ids('resource', 'assessment-plan')}"},
        "results": [result],
        "back-matter": {"resources": [*_resources(model, ids), {
            "uuid": ids("resource", "assessment-plan"),
            "title": "Assessment plan: `compliance check` (the configuration checks CFG001 "
                     "onwards, their pages printed by `compliance rules CODE`)"}]},
    }}


def dumps(document: dict[str, Any]) -> bytes:
    """Canonical bytes: sorted keys, two-space indent, UTF-8, final newline."""
    return (json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
