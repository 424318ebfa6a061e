"""`compliance answer` counts what a workbook carries in the answered copy, and refuses a loss."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from compliance.questionnaire import QuestionnaireError
from compliance.questionnaire.fidelity import Carried, carried, kept
from tests.questionnaire.layouts import formula_questions, x14_dropdowns
from tests.questionnaire.workbooks import rich_workbook


def test_counts_of_a_rich_workbook(tmp_path: Path) -> None:
    c = carried(rich_workbook(tmp_path / "r.xlsx"))
    assert (c.dropdowns, c.x14_dropdowns, c.validations, c.formulas) == (2, 1, 2, 2)
    assert (c.protected_sheets, c.hidden_sheets, len(c.styles_sha256)) == (1, 1, 64)
    assert c.line() == (
        "kept: 2 drop-downs (1 x14), 2 formulas, protection on 1 sheet, 1 hidden sheet and "
        "every style; only answered cells changed"
    )


def test_counts_of_layout_workbooks(tmp_path: Path) -> None:
    x = carried(x14_dropdowns(tmp_path / "x.xlsx"))
    assert (x.dropdowns, x.x14_dropdowns, x.protected_sheets, x.hidden_sheets) == (1, 1, 1, 1)
    f = carried(formula_questions(tmp_path / "f.xlsx"))
    assert (f.dropdowns, f.formulas, f.hidden_sheets) == (1, 7, 1)
    assert Carried().line() == "kept: every style; only answered cells changed"


def test_a_lost_validation_refuses_the_copy(tmp_path: Path) -> None:
    src = rich_workbook(tmp_path / "r.xlsx")
    broken = tmp_path / "broken.xlsx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(broken, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "xl/worksheets/sheet2.xml":
                start = data.index(b"<extLst>")
                data = data[:start] + data[data.index(b"</extLst>") + 9 :]
            zout.writestr(info, data)
    with pytest.raises(QuestionnaireError) as exc:
        kept(src, broken, Path("out.xlsx"))
    assert str(exc.value) == (
        "out.xlsx: the answered copy would not keep what the questionnaire carries "
        "(dropdowns: 2 -> 1; x14_dropdowns: 1 -> 0; validations: 2 -> 1); nothing was written "
        "(this is a bug, please report it)"
    )
