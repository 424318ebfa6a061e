"""`compliance lint PATH...`: judge free text for overclaims, exit 0/1/2."""

from __future__ import annotations

import sys
import warnings

import click

from compliance.commands.options import EXIT_FINDINGS, EXIT_OK, color_for, output_options


@click.command("lint")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--column", "columns", multiple=True, metavar="NAME",
              help="CSV/XLSX: judge this column (repeatable) instead of the detected answer "
                   "columns (headers like Answer, Response, Comments, Notes).")
@output_options
def lint(paths: tuple[str, ...], columns: tuple[str, ...], fmt: str, strict: bool) -> None:
    """Flag overclaims in Markdown, text, YAML, and CSV/XLSX answer columns.

    PATHS are files or folders; a folder means its .md, .markdown, .txt, .rst, .yaml,
    .yml, .json, .csv, .tsv, .xlsx and .xlsm files (hidden names and node_modules
    skipped; CSV/XLSX files with no answer column skipped with a note; a link
    that leads out of the folder is refused, exit 2: nothing outside it is read).
    YAML and JSON files: their string values are judged; HTML files (.html, .htm,
    .xhtml, named as PATHS): the text of their elements, never tags or scripts.

    Each finding names the claim family (CLM001...), what was claimed, why it
    overreaches and what honest wording looks like. Negated, hedged, quoted or
    merely asked statements are left alone; "No" to "Can data leave?" is not.

    \b
    Exit codes: 0 no overclaims; 1 overclaims found (or warnings with --strict);
                2 a file cannot be read (binary, not UTF-8, not a workbook); the
                other files are still linted and their findings printed.
    \b
    Examples:
      compliance lint docs/security.md
      compliance lint docs/
      compliance lint answers.xlsx --column "Vendor comment"
      compliance lint README.md --format github
    """

    from compliance.commands.options import (
        EXIT_UNREADABLE,
        fail_unreadable,
        print_unreadable,
    )
    from compliance.diagnostics import UserError, has_failures, sort_unique
    from compliance.formats import Report, RuleInfo, emit, unreadable_report
    from compliance.judge.lint import lint_texts, what_was_read
    from compliance.judge.sources import (
        NoAnswerColumns,
        Text,
        is_prose,
        lint_targets,
        texts_of,
    )
    from compliance.rules.claims import CLAIM_RULES

    texts: list[Text] = []
    skipped: list[str] = []
    unreadable: list[UserError] = []
    try:
        targets = lint_targets(paths)
    except UserError as exc:
        fail_unreadable(exc.message)
        return
    workbooks: list[str] = []
    prose: list[str] = []  # files whose inline suppressions count (see lint_texts)
    files_read = 0
    for t in targets:  # a file that cannot be read does not hide the others' findings
        if t.refused is not None:  # a link out of the folder: never read
            unreadable.append(t.refused)
            continue
        try:
            with warnings.catch_warnings():
                # openpyxl says it "will remove" x14 drop-downs: true of its copy in memory,
                # never of the file, which lint only reads. Said once, truthfully, below.
                warnings.filterwarnings("ignore", category=UserWarning, module=r"openpyxl\.")
                texts.extend(texts_of(t.path, t.display, columns, t.root))
            files_read += 1
            if is_prose(t.path):
                prose.append(t.display)
            if t.path.suffix.lower() in (".xlsx", ".xlsm", ".xltx", ".xltm"):
                workbooks.append(t.display)
        except NoAnswerColumns as exc:
            if t.found:
                skipped.append(t.display)  # a data file met in a folder, not a questionnaire
            else:
                unreadable.append(exc)
        except UserError as exc:
            unreadable.append(exc)
    if workbooks:
        sys.stderr.write(f"note: read only, nothing changed or removed (drop-downs, formulas and "
                         f"protection included): {', '.join(workbooks)}\n")
    if skipped:
        sys.stderr.write(f"note: skipped {len(skipped)} CSV/XLSX file(s) with no answer "
                         f"column: {', '.join(skipped)}\n")
    found, sentences = lint_texts(texts, frozenset(prose))
    findings = sort_unique(found)
    read = what_was_read(files_read, sentences) if files_read else ""  # none: stderr says why
    used = {d.code for d in findings}
    rules = {code: RuleInfo(code, r.name, r.level, r.summary(), r.page())
             for code, r in CLAIM_RULES.items() if code in used}
    if "SUP001" in used:
        from compliance.rules.model.waivers import SuppressionWithoutReason as sup

        rules["SUP001"] = RuleInfo(sup.code, sup.name, sup.level, sup.summary(), sup.page())
    out = sys.stdout
    for u in unreadable:  # findings as usual, then the files that could not be read: exit 2
        print_unreadable(u.message, u.diagnostics)
    if unreadable and fmt != "text":  # the machine formats carry both in one report
        errors = [d for u in unreadable
                  for d in unreadable_report(u.message, u.diagnostics).findings]
        report = unreadable_report("", errors)
        emit(Report(sort_unique([*findings, *errors]), {**rules, **report.rules}, report.extra),
             fmt, out)
    else:
        emit(Report(findings, rules, read=read), fmt, out, color=color_for(out))
    if unreadable:
        sys.exit(EXIT_UNREADABLE)
    sys.exit(EXIT_FINDINGS if has_failures(findings, strict) else EXIT_OK)
