"""SheetPatcher on hand-written sheet XML: missing rows and cells, prefixes, refusals."""

from __future__ import annotations

from compliance.questionnaire.xlsx_write import SheetPatcher

HEAD = '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'


def cell(ref: str, text: str, style: str | None = None, p: str = "") -> str:
    s = f' s="{style}"' if style else ""
    return (
        f'<{p}c r="{ref}"{s} t="inlineStr"><{p}is><{p}t xml:space="preserve">{text}'
        f"</{p}t></{p}is></{p}c>"
    )


def test_inserts_missing_rows_in_order() -> None:
    xml = (
        HEAD
        + '<sheetData><row r="2"><c r="A2"><v>1</v></c></row><row r="9"/></sheetData></worksheet>'
    )
    new, refused = SheetPatcher(xml).patch({(1, 2): "first", (5, 3): "five", (12, 1): "last"})
    assert refused == {}
    assert new == (
        HEAD + "<sheetData>"
        f'<row r="1">{cell("B1", "first")}</row>'
        '<row r="2"><c r="A2"><v>1</v></c></row>'
        f'<row r="5">{cell("C5", "five")}</row>'
        '<row r="9"/>'
        f'<row r="12">{cell("A12", "last")}</row>'
        "</sheetData></worksheet>"
    )


def test_fills_a_self_closing_row_and_empty_sheet_data() -> None:
    xml = HEAD + '<sheetData><row r="3" ht="20" customHeight="1"/></sheetData></worksheet>'
    new, _ = SheetPatcher(xml).patch({(3, 2): "x"})
    assert new == (
        HEAD + f'<sheetData><row r="3" ht="20" customHeight="1">{cell("B3", "x")}</row>'
        "</sheetData></worksheet>"
    )
    new, _ = SheetPatcher(HEAD + "<sheetData/></worksheet>").patch({(1, 1): "y"})
    assert new == HEAD + f'<sheetData><row r="1">{cell("A1", "y")}</row></sheetData></worksheet>'


def test_inserts_cells_between_existing_ones_keeping_style() -> None:
    xml = HEAD + (
        '<sheetData><row r="4"><c r="A4" s="3"><v>0</v></c><c r="C4" s="7"/>'
        '<c r="E4"><v>2</v></c></row></sheetData></worksheet>'
    )
    new, _ = SheetPatcher(xml).patch({(4, 2): "b", (4, 3): "c", (4, 6): "f"})
    assert new == HEAD + (
        f'<sheetData><row r="4"><c r="A4" s="3"><v>0</v></c>{cell("B4", "b")}'
        f'{cell("C4", "c", "7")}<c r="E4"><v>2</v></c>{cell("F4", "f")}</row>'
        "</sheetData></worksheet>"
    )


def test_new_cells_take_row_then_column_default_style() -> None:
    xml = HEAD + (
        '<cols><col min="2" max="4" width="9" style="5"/></cols>'
        '<sheetData><row r="1" s="8" customFormat="1"><c r="A1"/></row></sheetData></worksheet>'
    )
    new, _ = SheetPatcher(xml).patch({(1, 3): "row style", (2, 3): "col style"})
    assert cell("C1", "row style", "8") in new
    assert cell("C2", "col style", "5") in new


def test_prefixed_namespace_and_implied_references() -> None:
    xml = (
        '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        "<x:sheetData><x:row><x:c><x:v>1</x:v></x:c><x:c/></x:row></x:sheetData></x:worksheet>"
    )
    new, refused = SheetPatcher(xml).patch({(1, 2): "b", (1, 3): "c"})
    assert refused == {}
    assert new == (
        '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f"<x:sheetData><x:row><x:c><x:v>1</x:v></x:c>{cell('B1', 'b', p='x:')}"
        f"{cell('C1', 'c', p='x:')}</x:row></x:sheetData></x:worksheet>"
    )


def test_refuses_formulas_values_and_merged_interiors() -> None:
    xml = HEAD + (
        '<sheetData><row r="1"><c r="A1"><f>1+1</f><v>2</v></c><c r="B1" t="s"><v>0</v></c>'
        '<c r="C1" t="inlineStr"><is><t></t></is></c></row></sheetData>'
        '<mergeCells count="1"><mergeCell ref="D1:E2"/></mergeCells></worksheet>'
    )
    new, refused = SheetPatcher(xml).patch(
        {(1, 1): "a", (1, 2): "b", (1, 3): "c", (1, 4): "d", (2, 5): "e"}
    )
    assert refused == {
        (1, 1): "cell holds a formula; not overwritten",
        (1, 2): "cell already has a value; not overwritten",
        (2, 5): "cell lies inside a merged range; not visible",
    }
    assert cell("C1", "c") in new and cell("D1", "d") in new
    assert "<f>1+1</f>" in new


def test_escapes_and_neutralises_text() -> None:
    xml = HEAD + "<sheetData/></worksheet>"
    new, _ = SheetPatcher(xml).patch({(1, 1): "=1+2 <b> & \x01 ok\r\nnext"})
    assert cell("A1", "'=1+2 &lt;b&gt; &amp;  ok\nnext") in new


def test_excel_style_part_keeps_every_other_byte() -> None:
    head = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
        'mc:Ignorable="x14ac" '
        'xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac">'
        '<dimension ref="A1:B2"/><sheetData>'
        '<row r="1" spans="1:2" x14ac:dyDescent="0.25"><c r="A1" t="s"><v>0</v></c></row>'
        '<row r="2" spans="1:2" x14ac:dyDescent="0.25">'
    )
    tail = (
        '<c r="A2" t="s"><v>1</v></c><c r="B2" s="4"/></row></sheetData>'
        '<sheetProtection sheet="1"/><pageMargins left="0.7" right="0.7" top="0.75" '
        'bottom="0.75" header="0.3" footer="0.3"/></worksheet>'
    )
    new, refused = SheetPatcher(head + tail).patch({(2, 2): "Yes"})
    assert refused == {}
    assert new == head + tail.replace('<c r="B2" s="4"/>', cell("B2", "Yes", "4"))
