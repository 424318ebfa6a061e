"""``load_questionnaire``: read any supported file into a :class:`Questionnaire`.

Stages: sniff the format -> read the cells (or JSON items) -> recognise a
known questionnaire (built-in or ``--mapping``) -> find question rows (the
mapping's layout, else detection) -> attach the mapping entry per question.
"""

from __future__ import annotations

from pathlib import Path

from compliance.questionnaire import csv_io, json_io, xlsx_read
from compliance.questionnaire.detect import (
    Columns,
    assign_keys,
    describe_layout,
    questions_in,
    resolve_columns,
    title_rows,
)
from compliance.questionnaire.formulas import formula_notes
from compliance.questionnaire.grid import Grid
from compliance.questionnaire.mapping import Mapping, builtin_mappings, load_mapping
from compliance.questionnaire.safety import refuse_ole
from compliance.questionnaire.types import (
    CellRef,
    Format,
    Overrides,
    Question,
    Questionnaire,
    QuestionnaireError,
    column_index,
)

XLSX_SUFFIXES = {".xlsx", ".xlsm", ".xltx", ".xltm"}


def sniff_format(path: Path) -> Format:
    suffix = path.suffix.lower()
    refuse_ole(path)  # legacy .xls, or an encrypted (password) .xlsx, whatever the suffix
    with path.open("rb") as handle:
        head = handle.read(64)
    if suffix in XLSX_SUFFIXES:
        return Format.XLSX
    if suffix == ".json":
        return Format.JSON
    if suffix in {".csv", ".tsv", ".txt"}:
        return Format.CSV
    if head.startswith(b"PK\x03\x04"):
        return Format.XLSX
    if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[", b"/"):
        return Format.JSON
    return Format.CSV


def load_questionnaire(path: Path, overrides: Overrides | None = None) -> Questionnaire:
    """Read ``path`` (XLSX/XLSM, CSV or JSON); errors name the file."""
    path = Path(path)
    overrides = overrides or Overrides()
    if not path.is_file():
        raise QuestionnaireError(f"{path}: no such file")
    mappings = [load_mapping(overrides.mapping)] if overrides.mapping else list(builtin_mappings())
    fmt = sniff_format(path)
    try:
        if fmt is Format.XLSX:
            q = _from_grids(path, fmt, xlsx_read.read_workbook(path), overrides, mappings)
        elif fmt is Format.CSV:
            grid, src = csv_io.read_csv(path)
            q = _from_grids(path, fmt, [grid], overrides, mappings)
            q.source = src
        else:
            q = _from_json(path, overrides, mappings)
    except OSError as exc:
        raise QuestionnaireError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    assign_keys(q.questions)
    return q


def _recognise_grid(grids: list[Grid], mappings: list[Mapping], forced: bool) -> Mapping | None:
    for mapping in mappings:
        if mapping.fallback and not forced:
            continue
        rec = mapping.recognise
        if forced and not rec.sheet and not rec.header:
            return mapping
        if rec.sheet is None and not rec.header:
            continue
        # A CSV export has no sheet names: recognise it by its header alone.
        csv = len(grids) == 1 and grids[0].part is None
        if csv and not rec.header:
            continue
        candidates = [g for g in grids if csv or rec.sheet is None or g.name == rec.sheet]
        row = mapping.layout.header_row if mapping.layout else None
        for grid in candidates:
            if not rec.header or _header_matches(grid, rec.header, row):
                return mapping
    return _fallback(mappings)


def _fallback(mappings: list[Mapping]) -> Mapping | None:
    return next((m for m in mappings if m.fallback), None)


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def _header_matches(grid: Grid, header: dict[str, str], row: int | None) -> bool:
    rows = [row] if row else grid.rows()[:40]
    return any(
        all(_norm(grid.get(r, column_index(c))) == _norm(t) for c, t in header.items())
        for r in rows
    )


def _from_grids(
    path: Path, fmt: Format, grids: list[Grid], overrides: Overrides, mappings: list[Mapping]
) -> Questionnaire:
    mapping = _recognise_grid(grids, mappings, forced=overrides.mapping is not None)
    layout = mapping.layout if mapping else None
    if fmt is Format.CSV and layout is not None:
        layout = layout.model_copy(update={"sheet": None})
    if overrides.sheet is not None:
        chosen = [g for g in grids if g.name == overrides.sheet]
        if not chosen:
            names = ", ".join(repr(g.name) for g in grids)
            raise QuestionnaireError(f"{path}: no sheet {overrides.sheet!r} (sheets: {names})")
    elif layout is not None and layout.sheet is not None:
        chosen = [g for g in grids if g.name == layout.sheet]
    else:
        chosen = [g for g in grids if g.state == "visible"]
    notes: list[str] = []
    questions: list[Question] = []
    header_cells: dict[CellRef, str] = {}
    for grid in chosen:
        cols = resolve_columns(grid, overrides, layout)
        if layout is not None and cols.header_row is not None:
            for col, text in layout.add_headers.items():
                if not grid.get(cols.header_row, column_index(col)).strip():
                    ref = CellRef(grid.name, cols.header_row, column_index(col))
                    header_cells[ref] = text
        found = questions_in(
            grid,
            cols,
            layout.first_row if layout else None,
            layout.last_row if layout else None,
        )
        titles = title_rows(grid, cols)
        for q in found:
            q.titles = (*q.titles, *titles)
        if found and layout is None:
            notes.append(describe_layout(grid, cols, found))
        if found and cols.answer is None:
            notes.append(_no_answer_note(grid, cols))
        notes.extend(formula_notes(path, grid, cols.question, found))
        questions.extend(found)
    if fmt is Format.CSV:
        for q in questions:
            q.sheet = None
    _attach(questions, mapping)
    return Questionnaire(
        path=path,
        format=fmt,
        questions=questions,
        kind=mapping.name if mapping and not mapping.fallback else "generic",
        mapping_name=mapping.name if mapping else None,
        notes=notes,
        recognised=mapping is not None and not mapping.fallback,
        header_cells=header_cells,
    )


def _no_answer_note(grid: Grid, cols: Columns) -> str:
    where = f"sheet {grid.name!r}" if grid.name else "the file"
    return (
        f"{where}: no Answer/Response column found; questions are listed for a human "
        "(pass --answer-col to say where answers go)"
    )


def _attach(questions: list[Question], mapping: Mapping | None) -> None:
    for q in questions:
        if mapping is None:
            continue
        q.mapping = mapping.match(q.id, q.text)
        if mapping.fallback:  # suggestions only: the file's own answer style stays
            continue
        if q.mapping is not None:
            q.style = q.mapping.style
        elif q.style != "narrative":
            q.style = mapping.default_style
        if not q.choices:
            q.choices = tuple(mapping.choices)


def _from_json(path: Path, overrides: Overrides, mappings: list[Mapping]) -> Questionnaire:
    src = json_io.read_json(path)
    kind, questions = json_io.questions_from_json(path, src.document)
    mapping = None
    doc = src.document
    for m in mappings:
        fields = m.recognise.json_fields
        if overrides.mapping is not None or (
            fields
            and isinstance(doc, dict)
            and all(str(doc.get(k)) == v for k, v in fields.items())
        ):
            mapping = m
            break
    mapping = mapping or _fallback(mappings)
    _attach(questions, mapping)
    title = doc.get("title") if isinstance(doc, dict) else None
    if isinstance(title, str) and title.strip():
        for q in questions:  # the document's own title, as a workbook's title row
            q.titles = (" ".join(title.split()),)
    return Questionnaire(
        path=path,
        format=Format.JSON,
        questions=questions,
        kind=mapping.name if mapping and not mapping.fallback else kind,
        mapping_name=mapping.name if mapping else None,
        source=src,
        recognised=mapping is not None and not mapping.fallback,
    )
