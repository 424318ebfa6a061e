"""`compliance lint PATH...`: judge free text for overclaims, exit 0/1/2."""

from __future__ import annotations

import sys

import click

from compliance.commands.options import EXIT_FINDINGS, EXIT_OK, color_for, output_options


@click.command("lint")
@click.argument("paths", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--column", "columns", multiple=True, metavar="NAME",
              help="CSV/XLSX: judge this column (repeatable) instead of the detected answer "
                   "columns (headers like Answer, Response, Comments, Notes).")
@output_options
def lint(paths: tuple[str, ...], columns: tuple[str, ...], fmt: str, strict: bool) -> None:
    """Flag overclaims in Markdown, text, YAML, and CSV/XLSX answer columns.

    Each finding names the claim family (CLM001...), what was claimed, why it
    overreaches and what honest wording looks like. Negated, hedged, quoted or
    merely asked statements are left alone; "No" to "Can data leave?" is not.

    \b
    Exit codes: 0 no overclaims; 1 overclaims found (or warnings with --strict);
                2 a file cannot be read (binary, not UTF-8, not a workbook).
    \b
    Examples:
      compliance lint docs/security.md
      compliance lint answers.xlsx --column "Vendor comment"
      compliance lint README.md --format github
    """
    from pathlib import Path

    from compliance.commands.options import fail_unreadable
    from compliance.diagnostics import UserError, has_failures, sort_unique
    from compliance.formats import Report, RuleInfo, emit
    from compliance.judge.lint import lint_texts
    from compliance.judge.sources import texts_of
    from compliance.rules.claims import CLAIM_RULES

    texts = []
    for p in paths:
        try:
            texts.extend(texts_of(Path(p), p, columns))
        except UserError as exc:
            fail_unreadable(exc.message, exc.diagnostics)
            return
    findings = sort_unique(lint_texts(texts))
    used = {d.code for d in findings}
    rules = {code: RuleInfo(code, r.name, r.level, r.summary(), r.page())
             for code, r in CLAIM_RULES.items() if code in used}
    out = sys.stdout
    emit(Report(findings, rules), fmt, out, color=color_for(out))
    sys.exit(EXIT_FINDINGS if has_failures(findings, strict) else EXIT_OK)
