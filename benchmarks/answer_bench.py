"""Benchmark `compliance answer` against openpyxl load + save of the same workbook.

Generates a workbook of --questions questions (header row, section rows,
styled Yes/No/NA drop-down answer cells, a notes column, a hidden list
sheet) and a mapping that sends each question to one of the six layers, then
measures in the same run, each as the median of --runs paired repetitions
after one warm-up:

  (a) openpyxl ``load_workbook`` + ``save`` of the same workbook (which, unlike
      us, drops what it does not model);
  (b) answering it against the example workspace, model already checked:
      load + detect + draft (claims judge included) + write + review files;
  (c) the same plus loading and checking the workspace (the whole command,
      in process, imports warm);
  (io) the file work alone: load + detect + write fixed answers + review files.

Prints the median per-repetition ratios against (a), in wall-clock and in CPU
time (``time.process_time``; steadier on a busy machine). Target: (b)/(a) <= 1.5.
The claims judge runs once per drafted answer text and once more per question
whose wording could change the verdict; with every question about the six
layers (--mapped-share 1.0, the worst case) it dominates.

    python benchmarks/answer_bench.py --questions 300 --runs 7
    python benchmarks/answer_bench.py --questions 300 --mapped-share 0.13   # CAIQ-like
"""

from __future__ import annotations

import argparse
import gc
import statistics
import tempfile
import time
from pathlib import Path

import openpyxl
from openpyxl.styles import PatternFill
from openpyxl.worksheet.datavalidation import DataValidation

REPO = Path(__file__).resolve().parent.parent
TOPICS = [
    ("isolation", "microVM", "Do agent sessions run in isolated, disposable microVM environments?"),
    ("network", "outbound", "Is outbound network traffic from agent sessions denied by default?"),
    ("credentials", "credentials", "Are credentials available to agent sessions short-lived?"),
    ("git", "reviewed", "Are changes proposed by agents reviewed by a human before merge?"),
    ("pipeline", "workflows", "Do workflows on agent changes wait for maintainer approval?"),
    ("logs", "logged", "Are agent session events and tool calls logged centrally?"),
]
UNMAPPED = "Are information security policies approved by management every year?"
MAPPING = "name: Benchmark questionnaire\nquestions:\n" + "".join(
    f"  - {{text_regex: {word!r}, layers: [{layer}]}}\n" for layer, word, _ in TOPICS
)


def make_workbook(path: Path, questions: int, mapped_share: float) -> None:
    """``mapped_share`` of the questions are about the six layers; the rest are governance
    questions no control answers (CAIQ v4.0.3: 33 of 261 mapped, about 0.13)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Questionnaire"
    ws.append(["ID", "Question", "Answer", "Comments"])
    fill = PatternFill("solid", fgColor="FFF2CC")
    row = 2
    for n in range(questions):
        if n % 25 == 0:
            ws.cell(row, 1, f"Section {n // 25 + 1}")
            row += 1
        mapped = int((n + 1) * mapped_share) > int(n * mapped_share)
        text = TOPICS[n % len(TOPICS)][2] if mapped else UNMAPPED
        ws.cell(row, 1, f"Q{n + 1}")
        ws.cell(row, 2, f"{text} (item {n + 1})")
        ws.cell(row, 3).fill = fill
        ws.cell(row, 4).fill = fill
        row += 1
    dv = DataValidation(type="list", formula1='"Yes,No,NA"', allow_blank=True)
    dv.add(f"C2:C{row}")
    ws.add_data_validation(dv)
    lists = wb.create_sheet("Lists")
    lists.append(["Yes"])
    lists.sheet_state = "hidden"
    wb.save(path)


def openpyxl_roundtrip(src: Path, out: Path) -> None:
    openpyxl.load_workbook(src).save(out)


def answer(src: Path, out: Path, mapping: Path, checked: object | None) -> int:
    """The work of `compliance answer`, in process, with the judge's memos emptied first
    (a real run is a fresh process; patterns stay compiled, as after import)."""
    from compliance.rules.claims.driver import forget

    forget()
    from compliance.questionnaire import Overrides, load_questionnaire, write_answers, write_review
    from compliance.questionnaire.draft import draft_answers
    from compliance.questionnaire.judging import claims_judge
    from compliance.questionnaire.verdicts import control_verdicts

    if checked is None:  # the whole command's work, as `compliance answer` runs it
        from compliance.questionnaire.run import answer_questionnaire

        return answer_questionnaire(src, REPO, out, Overrides(mapping=mapping)).written
    ws = checked.workspace  # type: ignore[attr-defined]
    q = load_questionnaire(src, Overrides(mapping=mapping))
    verdicts = control_verdicts(checked.result.verdicts)  # type: ignore[attr-defined]
    drafted = draft_answers(q, ws.model, verdicts, ws.root / "evidence", claims_judge())
    result = write_answers(q, drafted, out)
    write_review(q, result.answers, out)
    return len(result.written)


def read_write_only(src: Path, out: Path, mapping: Path, answers: dict[str, object]) -> None:
    """Only the file work: load + detect + write the given answers + review files."""
    from compliance.questionnaire import Overrides, load_questionnaire, write_answers, write_review

    q = load_questionnaire(src, Overrides(mapping=mapping))
    result = write_answers(q, answers, out)  # type: ignore[arg-type]
    write_review(q, result.answers, out)


def timed(fn: object, *args: object) -> tuple[float, float]:
    """Wall and CPU seconds of one call (CPU time is the steadier one on a busy machine)."""
    gc.collect()  # neither side pays for the other's garbage
    start, cpu = time.perf_counter(), time.process_time()
    fn(*args)  # type: ignore[operator]
    return time.perf_counter() - start, time.process_time() - cpu


def ratio(base: list[tuple[float, float]], other: list[tuple[float, float]], i: int) -> float:
    """Median of the per-repetition ratios, of wall (``i`` 0) or CPU (``i`` 1) seconds."""
    return statistics.median(o[i] / b[i] for b, o in zip(base, other, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--mapped-share",
        type=float,
        default=1.0,
        help="share of questions about the six layers (CAIQ v4.0.3: 0.13)",
    )
    args = parser.parse_args()
    from compliance.pipeline import load_and_check
    from compliance.questionnaire import Answer, Choice, Overrides, load_questionnaire

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        src, mapping = folder / "q.xlsx", folder / "map.yaml"
        make_workbook(src, args.questions, args.mapped_share)
        mapping.write_text(MAPPING, encoding="utf-8")
        checked = load_and_check(REPO)
        written = answer(src, folder / "warm.xlsx", mapping, checked)  # warm-up
        openpyxl_roundtrip(src, folder / "warm-openpyxl.xlsx")
        q = load_questionnaire(src, Overrides(mapping=mapping))
        fixed = {
            x.key: Answer(choice=Choice.YES, narrative="A drafted narrative (NET-01).")
            for x in q.questions
            if x.mapping
        }
        times: dict[str, list[tuple[float, float]]] = {"a": [], "io": [], "b": [], "c": []}
        for i in range(args.runs):
            times["a"].append(timed(openpyxl_roundtrip, src, folder / f"a{i}.xlsx"))
            times["io"].append(timed(read_write_only, src, folder / f"io{i}.xlsx", mapping, fixed))
            times["b"].append(timed(answer, src, folder / f"b{i}.xlsx", mapping, checked))
            times["c"].append(timed(answer, src, folder / f"c{i}.xlsx", mapping, None))
        wall = {k: statistics.median(t[0] for t in v) * 1000 for k, v in times.items()}
        cpu = {k: statistics.median(t[1] for t in v) * 1000 for k, v in times.items()}
        print(
            f"workbook: {args.questions} questions ({len(fixed)} about the six layers), "
            f"{src.stat().st_size} bytes; {written} answers drafted and written; "
            f"median of {args.runs} paired runs"
        )
        rows = [("a", "openpyxl load + save", ""),
                ("io", "load + detect + write + review only", ""),
                ("b", "answer, model already checked", "   (target <= 1.5x)"),
                ("c", "answer incl. workspace load + check", "")]
        for key, label, target in rows:
            line = (f"{'(' + key + ')':5}{label:38} {wall[key]:7.1f} ms wall "
                    f"{cpu[key]:7.1f} ms cpu")
            if key != "a":
                line += (f"   ratio {ratio(times['a'], times[key], 0):.2f}x wall, "
                         f"{ratio(times['a'], times[key], 1):.2f}x cpu{target}")
            print(line)

if __name__ == "__main__":
    main()
