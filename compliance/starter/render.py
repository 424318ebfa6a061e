"""Write a :class:`~compliance.starter.plan.Plan` as a workspace folder, all or nothing.

Every file is built in memory first, then written into a temporary folder beside
the destination, which is renamed into place only when complete. The destination
must not exist: `compliance init` never overwrites a workspace.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import textwrap
from pathlib import Path

from compliance.atomic import CannotWrite, os_reason
from compliance.model import Layer
from compliance.rules.model.placeholders import MARKER
from compliance.schema import SCHEMAS
from compliance.schema import render as render_schema
from compliance.starter.catalog import LIMITS, SOURCES
from compliance.starter.plan import Plan, PlannedControl, gaps, reasons

RISK = f"{MARKER}: the risk that remains with this control in place, starting from its limits"
OWNER = f"{MARKER}: the team or person who runs this control"
SCOPE = f"{MARKER}: what this model covers and what it does not, in plain words"
SYSTEM_OWNER = f"{MARKER}: the team or person accountable for this model"
HEADER = ("# yaml-language-server: $schema=../.schema/controls.schema.json\n"
          "# Written by `compliance init`. Review every line; fields marked FILL IN are yours.\n")


def q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def block(text: str, indent: int) -> str:
    """A folded block scalar for prose, wrapped at 88 columns."""
    pad = " " * indent
    lines = textwrap.wrap(text, width=88 - indent, break_long_words=False,
                          break_on_hyphens=False)
    return ">\n" + "".join(f"{pad}{line}\n" for line in lines)


def _list(items: list[str] | tuple[str, ...]) -> str:
    return "[" + ", ".join(items) + "]"


def system_yaml(plan: Plan) -> str:
    name = f"{plan.root.resolve().name} coding agents"
    return (HEADER + "system:\n"
            f"  name: {q(name)}\n"
            f"  scope: {q(SCOPE)}\n"
            f"  owner: {q(SYSTEM_OWNER)}\n"
            f"  last_reviewed: {plan.today.isoformat()}\n")


def sources_yaml(plan: Plan) -> str:
    out = [HEADER, "sources:\n"]
    for sid in plan.source_ids:
        s = SOURCES[sid]
        out.append(f"  - id: {s.id}\n    title: {q(s.title)}\n    url: {q(s.url)}\n")
        if s.quote:
            out.append(f"    quote: {q(s.quote)}\n")
        out.append("\n")
    return "".join(out).rstrip("\n") + "\n"


def limits_yaml(plan: Plan) -> str:
    out = [HEADER, "# The limits each kind of control always has. Add your own.\nlimits:\n"]
    for lid in plan.limit_ids:
        lim = LIMITS[lid]
        out.append(f"  - id: {lim.id}\n    text: {block(lim.text, 6)}"
                   f"    topics: {_list(lim.topics)}\n    sources: {_list(lim.sources)}\n\n")
    return "".join(out).rstrip("\n") + "\n"


def evidence_yaml(plan: Plan) -> str:
    out = [HEADER, "# Copied from the scanned folder and pinned. After you review a changed "
                   "file, re-pin\n# it with `compliance evidence pin`.\nevidence:\n"]
    for e in plan.evidence:
        out.append(f"  - id: {e.id}\n    path: {q(e.rel)}\n    sha256: {e.sha256}\n"
                   f"    kind: {e.kind}\n"
                   f"    description: {q(f'{e.rel} as found by compliance init.')}\n"
                   f"    collected: {plan.today.isoformat()}\n    max_age_days: 90\n\n")
    return "".join(out).rstrip("\n") + "\n"


def _implementation(plan: Plan, c: PlannedControl) -> str:
    if c.refuted:
        return ("Not in place as configured: the comment above this control lists the lines "
                "of its evidence files that contradict the claim. Change the configuration, "
                "copy the new files into evidence/, re-pin them, then set status to deployed.")
    return ("Configured in the evidence files this control cites; the comment above it lists "
            "what compliance init read there. Describe here how the control is run.")


def _comment(lines: list[str]) -> str:
    """Lines as YAML comments (comments are not claims, so no judge reads them)."""
    out = ""
    for line in lines:
        wrapped = textwrap.wrap(line, width=84, break_long_words=False,
                                break_on_hyphens=False) or [""]
        out += f"  #   {wrapped[0]}\n" + "".join(f"  #     {w}\n" for w in wrapped[1:])
    return out


def control_yaml(plan: Plan, c: PlannedControl) -> str:
    a = c.aspect
    status = "planned" if c.refuted else "deployed"
    verdict = c.status.value.upper()
    comment = f"  # compliance init checked this claim with {', '.join(c.checks)}: {verdict}.\n"
    if c.refuted:
        comment += ("  # The configuration contradicts it, so it is written as planned (a target,"
                    "\n  # not a statement about today) and no output presents it as true:\n")
        comment += _comment(reasons(c, refuting=True))
    else:
        comment += "  # What the files say:\n" + _comment(reasons(c, refuting=False) or [
            "no setting that settles the claim"])
        open_ = gaps(c)
        if open_:
            comment += "  # Not settled by these files:\n" + _comment(open_)
    title = a.title if not c.refuted else f"{a.title} (not in place yet)"
    out = (comment + f"  - id: {c.id}\n    layer: {a.layer}\n    kind: {a.kind}\n"
           f"    title: {q(title)}\n    status: {status}\n    claim: {block(a.claim, 6)}")
    if not c.refuted:
        out += f"    stance_clause: {q(a.stance_clause)}\n"
    out += (f"    implementation: {block(_implementation(plan, c), 6)}"
            f"    evidence: {_list(c.evidence)}\n    verified_by: {_list(c.checks)}\n"
            f"    limits: {_list(c.limits)}\n"
            f"    residual_risk: {q(RISK)}\n"
            f"    owner: {q(OWNER)}\n")
    return out


def layer_yaml(plan: Plan, layer: Layer) -> str | None:
    controls = [c for c in plan.controls if c.aspect.layer == layer.value]
    if not controls:
        return None
    body = "\n".join(control_yaml(plan, c) for c in controls)
    return f"{HEADER}# Layer: {layer.value}. {layer.question}\ncontrols:\n{body}"


SETTINGS = ("# yaml-language-server: $schema=.schema/settings.schema.json\n"
            "# Written by `compliance init`.\n"
            "# Claims no exported file can verify are warnings; set `unverified: error` "
            "to fail on them.\nunverified: warning\n")


def files(plan: Plan) -> dict[str, bytes]:
    """Every file of the workspace: relative path -> bytes."""
    out: dict[str, bytes] = {
        "compliance.yaml": SETTINGS.encode(),
        "controls/system.yaml": system_yaml(plan).encode(),
        "controls/sources.yaml": sources_yaml(plan).encode(),
        "controls/limits.yaml": limits_yaml(plan).encode(),
        "controls/evidence.yaml": evidence_yaml(plan).encode(),
    }
    for layer in Layer:
        text = layer_yaml(plan, layer)
        if text is not None:
            out[f"controls/{layer.value}.yaml"] = text.encode()
    for e in plan.evidence:
        out[f"evidence/{e.rel}"] = e.data
    for name, model in SCHEMAS.items():  # for editors: the $schema lines above point here
        out[f".schema/{name}"] = render_schema(model).encode()
    return out


def refuse_unwritable(out: Path) -> None:
    """Raise CannotWrite when ``out`` exists or its parent folder does not: init asks before
    it scans, so the refusal is not printed after a page of analysis, and again when it
    writes."""
    if out.exists() or out.is_symlink():
        raise CannotWrite(out, "it already exists; compliance init never overwrites a "
                               "workspace (choose another --out)")
    if not out.parent.is_dir():
        raise CannotWrite(out, f"the folder {out.parent} does not exist")


def write_workspace(out: Path, content: dict[str, bytes]) -> None:
    """Create ``out`` with ``content``, complete or not at all; never over an existing path."""
    refuse_unwritable(out)
    staging: Path | None = None
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
        for rel, data in sorted(content.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        if out.exists():
            raise CannotWrite(out, "it appeared while init was writing; nothing was changed")
        os.rename(staging, out)
        staging = None
    except OSError as exc:
        raise CannotWrite(out, os_reason(exc)) from exc
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)


