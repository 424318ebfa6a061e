"""`compliance lint`: exact output, positions in the linted file, exit codes 0/1/2."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from compliance.commands.lint import lint


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(lint, list(args))
    return result.exit_code, result.stdout, result.stderr


def _flagged_words(f: Path, out: str) -> list[tuple[str, str]]:
    """Each JSON finding's code and the text of ``f`` its span covers (one line)."""
    lines = f.read_text(encoding="utf-8").splitlines()
    return [(d["code"], lines[d["line"] - 1][d["column"] - 1:d["end_column"] - 1])
            for d in json.loads(out)["findings"]]


def test_clean_markdown_exits_0(tmp_path: Path) -> None:
    f = tmp_path / "ok.md"
    f.write_text("# Limits\n\nThe allowlist can be bypassed.\n", encoding="utf-8")
    code, out, err = run(str(f))
    assert (code, out, err) == (0, "1 file, 2 sentences read; no rule matched\n", "")


def test_the_summary_says_what_was_read(tmp_path: Path) -> None:
    """A clean run printed nothing, which a new user read as "not run"; it now says what it
    read and no more than that no rule matched (the text is not thereby true)."""
    ok = tmp_path / "ok.md"
    ok.write_text("# Limits\n\nThe allowlist can be bypassed.\n", encoding="utf-8")
    bad = tmp_path / "bad.md"
    bad.write_text("The sandbox is safe by default.\n", encoding="utf-8")
    code, out, _ = run(str(ok), str(bad))
    assert (code, out.splitlines()[-1]) == (1, "2 files, 3 sentences read; 1 error, 0 warnings")
    blob = tmp_path / "blob.txt"
    blob.write_bytes(b"\x00")
    code, out, err = run(str(ok), str(blob))  # the unreadable one is not counted as read
    assert (code, out) == (2, "1 file, 2 sentences read; no rule matched\n")
    assert err.startswith(f"error: {blob}:")
    code, out, _ = run(str(blob))  # nothing read: stderr says why, stdout claims nothing
    assert (code, out) == (2, "")


def test_markdown_findings_point_into_the_file(tmp_path: Path) -> None:
    f = tmp_path / "claims.md"
    f.write_text(
        "# Security\n"
        "\n"
        "Honest line: the allowlist limits egress.\n"
        "- Secrets are *hidden* from the agent.\n"
        "```\n"
        "the sandbox is bulletproof\n"
        "```\n",
        encoding="utf-8",
    )
    code, out, err = run(str(f), "--format", "json")
    assert (code, err) == (1, "")
    found = [(d["line"], d["column"], d["end_column"], d["code"])
             for d in json.loads(out)["findings"]]
    assert found == [(4, 3, 22, "CLM007")]


def test_csv_answer_column_judged_with_its_question(tmp_path: Path) -> None:
    f = tmp_path / "q.csv"
    f.write_text(
        'ID,Question,Answer,Owner\n'
        '1,Can data leave the sandbox?,No.,sec\n'
        '2,Is review required?,"Yes.\nThe logs are ""tamper-proof"" today.",sec\n'
        '3,The sandbox is bulletproof?,Yes with limits,sec\n',
        encoding="utf-8",
    )
    code, out, _ = run(str(f), "--format", "json")
    assert code == 1
    found = [(d["line"], d["column"], d["code"]) for d in json.loads(out)["findings"]]
    assert found == [(2, 31, "CLM003"), (4, 16, "CLM008")]


def test_column_override_and_missing_column(tmp_path: Path) -> None:
    f = tmp_path / "q.csv"
    f.write_text("Topic,Vendor says\nnet,Nothing leaves the VM.\n", encoding="utf-8")
    code, out, err = run(str(f), "--column", "vendor says", "--format", "json")
    assert code == 1
    assert [d["code"] for d in json.loads(out)["findings"]] == ["CLM003"]
    code, out, err = run(str(f))
    assert code == 2
    assert err.startswith(f"error: {f}: no answer column found")


def test_xlsx_findings_name_sheet_and_cell(tmp_path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Vendor"
    ws.append(["Security questionnaire"])
    ws.append(["Question", "Response"])
    ws.append(["Is the allowlist complete?", "Yes."])
    ws.append(["Describe isolation.", "Each session runs in a microVM."])
    path = tmp_path / "q.xlsx"
    wb.save(path)
    code, out, _ = run(str(path), "--format", "json")
    assert code == 1
    [d] = json.loads(out)["findings"]
    assert (d["path"], d["line"], d["column"], d["code"]) == (str(path), 3, 2, "CLM005")
    assert d["message"].startswith('Vendor!B3: "Is the allowlist complete? Yes."')


def test_yaml_block_scalar_positions(tmp_path: Path) -> None:
    f = tmp_path / "c.yaml"
    f.write_text(
        "controls:\n"
        "  - id: net\n"
        "    claim: |\n"
        "      Egress is limited to a short list.\n"
        "      The firewall cannot be bypassed.\n",
        encoding="utf-8",
    )
    code, out, _ = run(str(f), "--format", "json")
    assert code == 1
    found = [(d["line"], d["column"], d["code"]) for d in json.loads(out)["findings"]]
    assert found == [(5, 30, "CLM005")]


def test_binary_and_non_utf8_files_exit_2_naming_the_file(tmp_path: Path) -> None:
    b = tmp_path / "blob.txt"
    b.write_bytes(b"ok\x00binary")
    code, out, err = run(str(b))
    assert (code, out) == (2, "")
    assert err == f"error: {b}:1:3: binary file (NUL byte): not a text file\n"
    latin = tmp_path / "latin.md"
    latin.write_bytes("caf\xe9".encode("latin-1"))
    code, out, err = run(str(latin))
    assert (code, out) == (2, "")
    assert err == (f"error: {latin}:1:4: not valid UTF-8 (byte 0xe9); "
                   "save the file as UTF-8\n")
    bad_xlsx = tmp_path / "bad.xlsx"
    bad_xlsx.write_text("not a zip", encoding="utf-8")
    code, _, err = run(str(bad_xlsx))
    assert code == 2
    assert err.startswith(f"error: {bad_xlsx}: not a readable XLSX/XLSM workbook")


def test_missing_file_exits_2() -> None:
    code, _, err = run("/nonexistent/file.md")
    assert code == 2
    assert err == "error: /nonexistent/file.md: no such file or folder\n"


def test_yaml_alias_chain_deeper_than_recursion_limit(tmp_path: Path) -> None:
    lines = ["x0: &a0 ['The agent is fully secure.']"]
    lines += [f"x{i}: &a{i} [*a{i - 1}]" for i in range(1, 1500)]
    f = tmp_path / "deep.yaml"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(str(f))
    assert (code, err) == (1, "")
    assert out.splitlines()[0].startswith(
        f'{f}:1:24: error "The agent is fully secure." claims absolute safety '
        '(the words "fully secure").')
    assert out.count("[CLM001]") == 1  # the shared string is judged once, at its first path


def test_a_folder_means_its_text_files_in_sorted_order(tmp_path: Path) -> None:
    (tmp_path / "docs" / "sub").mkdir(parents=True)
    (tmp_path / "docs" / ".drafts").mkdir()
    (tmp_path / "docs" / "node_modules").mkdir()
    (tmp_path / "docs" / "z.md").write_text("The sandbox is safe by default.\n", encoding="utf-8")
    (tmp_path / "docs" / "sub" / "a.txt").write_text("The logs are tamper-proof.\n",
                                                     encoding="utf-8")
    (tmp_path / "docs" / "data.csv").write_text("id,value\n1,2\n", encoding="utf-8")
    (tmp_path / "docs" / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    (tmp_path / "docs" / ".drafts" / "x.md").write_text("It is bulletproof.\n", encoding="utf-8")
    (tmp_path / "docs" / "node_modules" / "y.md").write_text("It is bulletproof.\n",
                                                             encoding="utf-8")
    folder = str(tmp_path / "docs")
    code, out, err = run(folder, "--format", "json")
    assert code == 1
    found = [(Path(d["path"]).relative_to(tmp_path).as_posix(), d["code"])
             for d in json.loads(out)["findings"]]
    assert found == [("docs/sub/a.txt", "CLM008"), ("docs/z.md", "CLM001")]
    assert err == f"note: skipped 1 CSV/XLSX file(s) with no answer column: {folder}/data.csv\n"


def test_an_empty_folder_or_missing_path_cannot_be_linted(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    code, out, err = run(str(tmp_path / "empty"))
    assert (code, out) == (2, "")
    assert err.startswith(f"error: {tmp_path / 'empty'}: no files to lint in this folder")
    code, out, err = run(str(tmp_path / "missing.md"))
    missing = tmp_path / "missing.md"
    assert (code, out, err) == (2, "", f"error: {missing}: no such file or folder\n")


def test_a_named_csv_without_answer_columns_is_still_an_error(tmp_path: Path) -> None:
    f = tmp_path / "data.csv"
    f.write_text("id,value\n1,2\n", encoding="utf-8")
    code, out, err = run(str(f))
    assert (code, out) == (2, "")
    assert "no answer column found" in err


def test_json_string_values_are_judged_at_their_position(tmp_path: Path) -> None:
    f = tmp_path / "faq.json"
    f.write_text('{"faq": [\n  {"q": "Is it safe?", "a": "The sandbox is safe by default."}\n]}\n',
                 encoding="utf-8")
    code, out, _ = run(str(f), "--format", "json")
    assert code == 1
    found = [(d["line"], d["column"], d["code"]) for d in json.loads(out)["findings"]]
    assert found == [(2, 45, "CLM001")]


def test_an_unreadable_file_does_not_hide_the_others_findings(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("The sandbox is safe by default.\n", encoding="utf-8")
    (tmp_path / "b.txt").write_bytes(b"x\x00y")
    code, out, err = run(str(tmp_path))
    assert code == 2
    assert "a.md:1:16: error" in out and "[CLM001]" in out
    assert err == f"error: {tmp_path / 'b.txt'}:1:2: binary file (NUL byte): not a text file\n"
    code, out, _ = run(str(tmp_path), "--format", "json")
    report = json.loads(out)
    assert code == 2 and report["ok"] is False
    assert [(Path(d["path"]).name, d["code"]) for d in report["findings"]] == [
        ("a.md", "CLM001"), ("b.txt", "IO001")]


def test_workbooks_pass_the_same_safety_checks_as_answer(tmp_path: Path) -> None:
    """A zip bomb is refused before openpyxl inflates it (as `compliance answer` does)."""
    import zipfile

    f = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/worksheets/sheet1.xml", "<a>" + " " * 5_000_000 + "</a>")
    code, out, err = run(str(f))
    assert (code, out) == (2, "")
    assert "refused as a possible zip bomb" in err


def test_json_findings_point_through_escapes_and_skip_keys(tmp_path: Path) -> None:
    f = tmp_path / "faq.json"
    f.write_text('{"a": "x\\n The sandbox is 100% secure.",\n'
                 ' "b": "\\u00e9 \\ud83d\\ude00 It is safe by default.",\n'
                 ' "The logs are tamper-proof.": 1}\n', encoding="utf-8")
    code, out, _ = run(str(f), "--format", "json")
    assert code == 1
    found = _flagged_words(f, out)
    assert found == [("CLM001", "100% secure"), ("CLM001", "safe by default")]


def test_invalid_json_is_a_positioned_json_error(tmp_path: Path) -> None:
    f = tmp_path / "bad.json"
    f.write_text('{"a": ', encoding="utf-8")
    code, out, err = run(str(f))
    assert (code, out) == (2, "")
    assert err == f"error: {f}:1:7: JSON syntax error: Expecting value\n"


def test_every_yaml_document_is_judged(tmp_path: Path) -> None:
    f = tmp_path / "multi.yaml"
    f.write_text("a: |\n  The sandbox is 100% secure.\n---\nb: The logs are tamper-proof.\n",
                 encoding="utf-8")
    code, out, _ = run(str(f), "--format", "json")
    assert code == 1
    assert [(d["line"], d["code"]) for d in json.loads(out)["findings"]] == [
        (2, "CLM001"), (4, "CLM008")]


def test_links_to_folders_are_followed_once(tmp_path: Path) -> None:
    (tmp_path / "tree" / "sub").mkdir(parents=True)
    (tmp_path / "tree" / "real").mkdir()  # a hidden name: the walk skips it, the link not
    (tmp_path / "tree" / "real").rename(tmp_path / "tree" / ".real")
    (tmp_path / "tree" / ".real" / "x.md").write_text("The allowlist is comprehensive.\n",
                                                      encoding="utf-8")
    (tmp_path / "tree" / "sub" / "linked").symlink_to(tmp_path / "tree" / ".real")
    (tmp_path / "tree" / "sub" / "loop").symlink_to(tmp_path / "tree")
    code, out, _ = run(str(tmp_path / "tree"), "--format", "json")
    assert code == 1
    assert [Path(d["path"]).relative_to(tmp_path).as_posix()
            for d in json.loads(out)["findings"]] == ["tree/sub/linked/x.md"]


def test_a_path_that_is_not_a_regular_file_says_so(tmp_path: Path) -> None:
    import os

    pipe = tmp_path / "pipe.md"
    os.mkfifo(pipe)
    code, out, err = run(str(pipe))
    assert (code, out, err) == (2, "", f"error: {pipe}: not a regular file\n")


def test_yaml_double_quoted_findings_point_through_escapes_and_folding(tmp_path: Path) -> None:
    f = tmp_path / "dq.yaml"
    f.write_text('a: "double quoted\\n with escape: data cannot leave the sandbox."\n'
                 'b: "caf\\u00e9 \\x41 The sandbox is 100% secure."\n'
                 'c: "folded\n  line, then\n\n  The logs are tamper-proof."\n'
                 'd: "joined \\\n  The sandbox is bulletproof."\n', encoding="utf-8")
    code, out, _ = run(str(f), "--format", "json")
    assert code == 1
    found = _flagged_words(f, out)
    assert found == [("CLM003", "leave"), ("CLM001", "100% secure"),
                     ("CLM008", "tamper-proof"), ("CLM001", "bulletproof")]


def test_x14_workbook_is_read_quietly_and_truthfully(tmp_path: Path) -> None:
    """openpyxl's "Data Validation extension ... will be removed" never reaches the user (lint
    removes nothing); one line says the workbook is only read."""
    import warnings

    from tests.questionnaire.workbooks import FIXTURE, parts

    before = parts(FIXTURE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning that escapes fails the test
        code, out, err = run(str(FIXTURE))
    assert (code, out) == (0, "1 file, 1 sentence read; no rule matched\n")
    assert err == (
        "note: read only, nothing changed or removed (drop-downs, formulas and protection "
        f"included): {FIXTURE}\n"
    )
    assert parts(FIXTURE) == before


def test_html_is_read_as_the_text_of_its_elements(tmp_path: Path) -> None:
    """`lint report.html` read tags as prose (a finding quoted '</li> </ul> <table ...');
    now only what a reader reads is judged, and positions are line:col of the file."""
    f = tmp_path / "page.html"
    f.write_text(
        "<!doctype html>\n"
        "<html><head><title>Security</title>\n"
        "<style>p::after { content: 'The sandbox is bulletproof.' }</style>\n"
        "<script>var s = 'Our logs are tamper-proof.';</script></head>\n"
        '<body><p title="The sandbox is bulletproof.">Isolation depends on the host.</p>\n'
        "<ul><li>Secrets are <em>hidden</em>\n"
        "    from the agent.</li><li>Review is required.</li></ul>\n"
        "<p>The agent&#39;s sandbox is safe by default.</p>\n"
        "<pre><code>the allowlist is complete</code></pre>\n"
        "</body></html>\n",
        encoding="utf-8",
    )
    code, out, err = run(str(f), "--format", "json")
    assert (code, err) == (1, "")
    findings = json.loads(out)["findings"]
    assert [(d["line"], d["column"], d["end_line"], d["end_column"], d["code"])
            for d in findings] == [(6, 9, 6, 31, "CLM007"), (8, 31, 8, 46, "CLM001")]
    assert findings[1]["message"].startswith(
        "\"The agent's sandbox is safe by default.\" claims absolute safety")
    assert not any("<" in d["message"] for d in findings)
    code, out, _ = run(str(f))
    # Security / Isolation ... / Secrets ... / Review ... / The agent's ...
    assert out.splitlines()[-1] == "1 file, 5 sentences read; 2 errors, 0 warnings"


def test_a_folder_is_linted_without_reading_anything_outside_it(tmp_path: Path) -> None:
    """lint followed a file link out of the linted folder and judged what it found there;
    links out (to a file or a folder) are refused now, each named with where it leads
    (exit 2), and the files inside are still linted. A link inside is followed."""
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    (outside / "secret.md").write_text("Our sandbox is bulletproof.\n", encoding="utf-8")
    (outside / "sub/x.md").write_text("The logs are tamper-proof.\n", encoding="utf-8")
    docs = tmp_path / "docs"
    (docs / "real").mkdir(parents=True)
    (docs / "ok.md").write_text("The allowlist can be bypassed.\n", encoding="utf-8")
    (docs / "real/inside.md").write_text("Egress is filtered.\n", encoding="utf-8")
    (docs / "notes.md").symlink_to(outside / "secret.md")
    (docs / "linked").symlink_to(outside / "sub", target_is_directory=True)
    (docs / "same.md").symlink_to(docs / "ok.md")  # inside: read
    code, out, err = run(str(docs))
    assert (code, out) == (2, "3 files, 3 sentences read; no rule matched\n")
    assert err == (
        f"error: {docs}/linked: refusing to read it: it resolves outside docs/ (after "
        f"following '..' and links); it is a link to {outside}/sub\n"
        f"error: {docs}/notes.md: refusing to read it: it resolves outside docs/ (after "
        f"following '..' and links); it is a link to {outside}/secret.md\n")


def test_a_file_swapped_for_a_link_after_the_walk_is_refused_when_read(
        tmp_path: Path) -> None:
    """Links are resolved at every read, not once when the folder is listed."""
    from compliance.diagnostics import UserError
    from compliance.judge.sources import lint_targets, texts_of

    (tmp_path / "secret.xlsx").write_bytes(b"PK\x05\x06" + b"\x00" * 18)
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("a.md", "b.xlsx"):
        (docs / name).write_text("x\n", encoding="utf-8")
    targets = lint_targets([str(docs)])
    (docs / "a.md").unlink()
    (docs / "a.md").symlink_to(tmp_path / "secret.xlsx")
    (docs / "b.xlsx").unlink()
    (docs / "b.xlsx").symlink_to(tmp_path / "secret.xlsx")
    for t in targets:
        try:
            texts_of(t.path, t.display, (), t.root)
        except UserError as exc:
            assert exc.message == (
                f"{t.display}: refusing to read it: it resolves outside docs/ (after "
                f"following '..' and links); it is a link to {tmp_path}/secret.xlsx")
        else:
            raise AssertionError(f"{t.display} was read")


def test_an_inline_suppression_in_prose_waives_with_its_reason(tmp_path: Path) -> None:
    """In Markdown an HTML comment suppresses the findings of its line and the next, as
    `# compliance: allow` does in a model: shown as waived, with the reason, never hidden."""
    f = tmp_path / "page.md"
    f.write_text("# Platform\n\n<!-- compliance: allow CLM006 -- quoting the vendor -->\n"
                 "Our sandbox is escape-proof.\n\nOur microVM is escape-proof.\n",
                 encoding="utf-8")
    code, out, _ = run(str(f))
    assert code == 1  # the second sentence is not covered
    lines = out.splitlines()
    assert lines[0].startswith(f"{f}:4:16: error ") and lines[0].endswith(
        f"[CLM006] (waived: inline at {f}:3: quoting the vendor)")
    assert lines[1].startswith(f"{f}:6:") and "waived" not in lines[1]
    assert lines[-1] == "1 file, 3 sentences read; 1 error, 0 warnings (1 waived)"


def test_a_prose_suppression_without_a_reason_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "page.md"
    f.write_text("<!-- compliance: allow CLM006 -->\nOur sandbox is escape-proof.\n",
                 encoding="utf-8")
    code, out, _ = run(str(f), "--format", "json")
    assert code == 1
    found = {(d["code"], d["line"], d.get("waived_by")) for d in json.loads(out)["findings"]}
    assert ("SUP001", 1, None) in found and ("CLM006", 2, None) in found


def test_a_suppression_in_a_yaml_value_does_not_waive_in_lint(tmp_path: Path) -> None:
    """YAML's strings are judged as values; a comment is not part of them (lint reads no
    suppressions there: a model's are `compliance check`'s)."""
    f = tmp_path / "a.yaml"
    f.write_text("text: Our sandbox is escape-proof.  # compliance: allow CLM006 -- no\n",
                 encoding="utf-8")
    code, out, _ = run(str(f))
    assert code == 1 and "waived" not in out
