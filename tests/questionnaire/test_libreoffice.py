"""The answered CAIQ opens in a real spreadsheet program with its drop-downs and protection.

LibreOffice (Debian's libreoffice-calc-nogui) converts both the blank and the
answered workbook to ODS; the validations, validated cells and protected sheets
it sees must be the same. Skips visibly when LibreOffice or ../shared/data is absent.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli

REPO = Path(__file__).resolve().parents[2]


def _spreadsheet_view(xlsx: Path, out: Path) -> tuple[int, int, list[str]]:
    soffice = shutil.which("soffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    out.mkdir()
    subprocess.run([soffice, "--headless", "--norestore", f"-env:UserInstallation=file://{out}/p",
                    "--convert-to", "ods", "--outdir", str(out), str(xlsx)],
                   check=True, capture_output=True, timeout=240)
    content = zipfile.ZipFile(out / f"{xlsx.stem}.ods").read("content.xml").decode()
    return (len(re.findall(r"<table:content-validation ", content)),
            content.count("table:content-validation-name="),
            re.findall(r'<table:table table:name="([^"]+)"[^>]*table:protected="true"', content))


def test_answered_caiq_keeps_dropdowns_and_protection(shared_data: Path, tmp_path: Path) -> None:
    blank = shared_data / "questionnaires/caiq-v4.0.3/CAIQv4.0.3.xlsx"
    answered = tmp_path / "answered.xlsx"
    result = CliRunner().invoke(cli, ["answer", str(blank), "-w", str(REPO), "--out",
                                      str(answered), "--today", "2026-11-30"])
    assert result.exit_code == 0, result.output
    before = _spreadsheet_view(blank, tmp_path / "blank")
    after = _spreadsheet_view(answered, tmp_path / "answered")
    assert before == (2, 522, ["Introduction", "CAIQv4.0.3"])
    assert after == before
