"""What one audience may read: the one place that decides, for every output of a build.

A control is shown when its ``audience`` is the reader's or wider; a field of a
shown control when its own audience (the control's ``field_audience``, else
``field_audience`` in compliance.yaml, else public; never wider than the
control) is. The claim, status, verdict and limits of a shown control are
always shown, and the stance is built from the shown controls only, with the
limits of each; the check AUD001 makes sure no limit is narrower than a claim
it bounds. Gaps are computed from every control, so hiding a control never
invents a gap: the layer says how many controls it does not show.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from compliance.model import Control, Model
from compliance.model.audience import Audience, TieredField

#: What a withheld field says in its place.
WITHHELD = "Not shown to {audience} readers."
#: What the first page says about each audience.
AUDIENCE_NOTE = {
    Audience.PUBLIC: "public: what may be shown to anyone; detail marked nda or internal is "
                     "left out",
    Audience.NDA: "nda: for readers under a non-disclosure agreement; detail marked internal "
                  "is left out",
    Audience.INTERNAL: "internal: everything in the model; do not send outside the team",
}


@dataclass(frozen=True)
class Visibility:
    """The reader's audience over one model."""

    audience: Audience
    model: Model

    def shows_control(self, control: Control) -> bool:
        return self.audience.may_read(control.audience)

    def field_audience(self, control: Control, name: TieredField) -> Audience:
        marked = control.field_audience.get(name) or self.model.settings.field_audience.get(
            name, Audience.PUBLIC)
        return max(marked, control.audience, key=lambda a: a.rank)

    def shows_field(self, control: Control, name: TieredField) -> bool:
        return self.audience.may_read(self.field_audience(control, name))

    def withheld_fields(self, control: Control) -> tuple[str, ...]:
        return tuple(f.value for f in TieredField if not self.shows_field(control, f))

    @property
    def controls(self) -> list[Control]:
        return [c for c in self.model.controls if self.shows_control(c)]

    @property
    def control_ids(self) -> set[str]:
        return {c.id for c in self.controls}

    def evidence_ids(self) -> set[str]:
        """Evidence a shown control cites with its evidence field shown: what may be packed
        (for the team itself, every evidence item, cited or not)."""
        if self.audience is Audience.INTERNAL:
            return {e.id for e in self.model.evidence}
        return {eid for c in self.controls if self.shows_field(c, TieredField.EVIDENCE)
                for eid in c.evidence}

    def withheld_note(self) -> str:
        return WITHHELD.format(audience=self.audience.value)

    def note(self) -> str:
        return AUDIENCE_NOTE[self.audience]

    def model_data(self) -> dict[str, Any]:
        """The model as this audience may read it (model.json in the pack)."""
        data = self.model.model_dump(mode="json")
        shown = self.control_ids
        evidence = self.evidence_ids()
        controls = []
        for control, dumped in zip(self.model.controls, data["controls"], strict=True):
            if control.id not in shown:
                continue
            for name in self.withheld_fields(control):
                dumped.pop(name, None)
            controls.append(dumped)
        data["controls"] = controls
        data["evidence"] = [e for e in data["evidence"] if e["id"] in evidence]
        data["limits"] = [lim for lim, model_limit in zip(data["limits"], self.model.limits,
                                                          strict=True)
                          if self.audience.may_read(model_limit.audience)]
        data["waivers"] = [w for w in data["waivers"] if self.shows_target(w["target"])]
        data["audience"] = self.audience.value
        return data

    def shows_target(self, target: str) -> bool:
        """A waiver's or finding's target: hidden when it names a control not shown."""
        hidden = {c.id for c in self.model.controls} - self.control_ids
        return target not in hidden


def withheld_count(visibility: Visibility, controls: Iterable[Control]) -> int:
    return sum(1 for c in controls if not visibility.shows_control(c))


#: Control fields whose findings stay readable whenever the control is shown.
_ALWAYS_SHOWN = ("id", "layer", "kind", "title", "status", "claim", "stance_clause",
                 "limits", "verified_by", "audience", "field_audience")


def field_at(doc: Any, path: tuple[str | int, ...], line: int) -> str | None:
    """The field of the mapping at ``path`` whose key is the last one at or before ``line``."""
    best: tuple[int, str] | None = None
    for node_path, node in doc.positions.items():
        if len(node_path) != len(path) + 1 or tuple(node_path[:-1]) != tuple(path):
            continue
        key = node.key
        if key is not None and key.line <= line and (best is None or key.line >= best[0]):
            best = (key.line, str(node_path[-1]))
    return best[1] if best else None


@dataclass(frozen=True)
class Redaction:
    """Which findings and verdict reasons one audience may read, over one checked model.

    A finding about something the reader is not shown keeps its place, code and
    level (so the count of open findings stays exact) and loses its message.
    """

    visibility: Visibility
    checked: Any  # compliance.pipeline.Checked

    @property
    def everything(self) -> bool:
        return self.visibility.audience is Audience.INTERNAL

    def evidence_hidden(self, control_id: str) -> bool:
        control = self.visibility.model.control(control_id)
        return control is not None and not self.visibility.shows_field(
            control, TieredField.EVIDENCE)

    def finding_hidden(self, d: Any) -> bool:
        if self.everything:
            return False
        vis, ws = self.visibility, self.checked.workspace
        if d.path.startswith("disclosures/"):  # who was told what is the team's own business
            return True
        if d.path.startswith("evidence/"):
            shown = {e.path for e in vis.model.evidence if e.id in vis.evidence_ids()}
            return d.path.removeprefix("evidence/") not in shown
        owner = _owner(ws, d.path, d.line)
        if owner is None:
            return False
        section, item_id, located = owner
        if section == "evidence":
            return item_id not in vis.evidence_ids()
        if section == "limits":
            limit = next(lim for lim in vis.model.limits if lim.id == item_id)
            return not vis.audience.may_read(limit.audience)
        if section != "controls":
            return False
        control = vis.model.control(item_id)
        if control is None or not vis.shows_control(control):
            return True
        name = field_at(located.doc, located.path, d.line)
        if name in vis.withheld_fields(control):
            return True
        code = str(d.code)
        about_evidence = code.startswith(("CFG", "EVD"))
        return about_evidence and self.evidence_hidden(control.id) and name in _ALWAYS_SHOWN

    def finding(self, d: Any) -> Any:
        """``d`` as this audience reads it."""
        import dataclasses

        if not self.finding_hidden(d):
            return d
        return dataclasses.replace(
            d, message=f"A finding about detail not shown to {self.visibility.audience.value} "
            "readers.", related=())

    def verdicts(self) -> dict[str, Any]:
        """Per-control verdicts of the shown controls; a control whose evidence is withheld
        keeps its verdict without the reasons (they quote the evidence files)."""
        given = self.checked.result.verdicts
        out: dict[str, Any] = {}
        shown = self.visibility.control_ids
        for cid, verdict in given.items():
            if cid not in shown:
                continue
            if self.evidence_hidden(cid) and isinstance(verdict, dict):
                verdict = {"status": verdict.get("status")}
            out[cid] = verdict
        return out

    def checked_view(self) -> Any:
        """The Checked that findings.json is printed from, for this audience."""
        import dataclasses

        result = self.checked.result
        vis = self.visibility
        redacted = dataclasses.replace(
            result,
            findings=[self.finding(d) for d in result.findings],
            verdicts=self.verdicts(),
            waivers_in_force=[w for w in result.waivers_in_force if vis.shows_target(w.target)],
        )
        return dataclasses.replace(self.checked, result=redacted)


def _owner(ws: Any, path: str, line: int) -> tuple[str, str, Any] | None:
    """The model item a (path, line) falls in: the last item starting at or before it."""
    best: tuple[int, str, str, Any] | None = None
    for (section, item_id), located in ws.index.items():
        pos = located.pos()
        if pos.path == path and pos.line <= line and (best is None or pos.line >= best[0]):
            best = (pos.line, section, item_id, located)
    return None if best is None else best[1:]
