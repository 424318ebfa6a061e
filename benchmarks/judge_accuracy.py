"""Precision and recall of the claims judge, per family and overall.

Usage: python benchmarks/judge_accuracy.py [--real-only] [--extra FILE.tsv ...]

--extra scores further labelled sets kept outside the repository (others' sentences are
never copied into it), in the claims-real-dev format: `label  family  sentence  source
reason`, tab-separated, `#` comments. --half dev|held scores one half of each extra set
(split by the first byte of the sentence's sha256, even = dev), so a set can be tuned on
one half while the other is only ever scored.

Real public text first (../shared/data/claims-real-dev, skipped with a note when absent):
716 sentences nobody on the team wrote, from vendors' documentation, standards bodies and
answered questionnaires (part1.tsv) and open-source READMEs, issue threads, blogs and
research write-ups (part2.tsv). For each part it prints per-family precision / recall
(a text counts under a family when that family is among its findings; the labels name
one family per overclaim) and the three figures issue 10 asks for: recall (overclaims
flagged at all), recall with the labelled family, and the false-positive rate on honest
sentences. First contact, at 725ddff, before any change they prompted:
- part1: recall 0.254 (labelled family 0.172), false-positive rate 0.059;
- part2: recall 0.365 (labelled family 0.275), false-positive rate 0.058 (scored once,
  unread, at first contact).
The shared absolute predicates (compliance/judge/absolutes.py) were then developed on
part1 and on one half of part2 (split by a hash of the sentence); the other half was
scored but never read. At 1fb28c9: part1 0.828 / 0.545 / 0.043; part2's read half 0.740 /
0.529 / 0.018; its unread half 0.482 / 0.282 / 0.093 (0.341 / 0.247 / 0.072 at 725ddff).
The unread half is the honest estimate of what to expect on new real text: the gain there
is a third of the gain on text that was read.
On 2 Dec 2026 part2's unread half was read too, and two fresh sets were collected and
labelled blind (262 and 252 sentences, 377 sources, kept outside the repository; scored
with --extra, each tuned on its dev half only). First contact: 0.462 / 0.085 and 0.429 /
0.095 (recall / false-positive rate); their never-read halves 0.469 / 0.081 and 0.422 /
0.083 at first contact, 0.500 / 0.081 and 0.422 / 0.083 after the round; part1 0.881 /
0.027 and part2 0.778 / 0.034 after it.
On 3 Dec 2026 two more blind sets were scored on first contact at c3e8ff6: set 5 (302
sentences, never read) 0.571 / 0.049, and set 6 (258) 0.516 / 0.125, its dev half 0.480 /
0.108 and its held half 0.542 / 0.145. A round on part1, part2 and set 6's dev half (shared
readings of negation and framing, vocabulary lines) gave part1 0.896 / 0.022, part2 0.799 /
0.019, set 6's dev half 0.620 / 0.041 and its never-read held half 0.528 / 0.129.
On 4 Dec 2026 set 7 (268 sentences, 236 sources) was scored on first contact at d41d953:
0.583 / 0.099, its dev half 0.648 / 0.106, its held half 0.534 / 0.093. A round on its dev
half gave that half 0.870 / 0.030 and left the held half at 0.534 / 0.093; part1 and part2
did not move (0.896 / 0.022, 0.799 / 0.019).
Set 8 (261 sentences, 213 sources, collected blind on 4 Dec 2026) was scored once on first
contact at 73dc4e2: 0.500 / 0.083. The learned second opinion (CLM010 warnings,
compliance/judge/learned.py, trained by training/train_judge_model.py before set 8 was
collected) then took it to 0.594 / 0.098, set 7 to 0.732 / 0.099 (rules 0.677 / 0.064) and
set 7's never-read half to 0.630 / 0.133 (0.534 / 0.093). Every real set prints two lines:
the rules' errors alone, and with the CLM010 warnings. On part1 and part2 the second line is
in-sample (the model is trained on them); its cross-validated figure is printed by
`python training/train_judge_model.py --cv`.

The synthetic sets follow.

Scores the tuning corpus (tests/corpus/claims.yaml, known failures included)
and, separately, held-out sets that are never merged into the tuning numbers:
heldout.yaml, written before the judge existed; heldout2.yaml, written after
the judge had been tuned, with phrasing it had not seen; heldout3.yaml (272
statements), written by someone who had not read the judge, and heldout4.yaml
(98) and heldout5.yaml (60), written by the same person after reading it and
fixing what heldout3 exposed; heldout6.yaml (294), written blind by a second
person in new voices (questionnaire one-liners, tables, Slack, non-native
English, SOC 2, postmortems), and heldout7.yaml (82), written by that person
after fixing what heldout6 exposed; heldout8.yaml (279), written blind by a
third person in further voices (idioms, understatement, rhetorical questions,
second person, conditional promises, numeric framing, metaphors, ellipsis and
double negation), and heldout9.yaml (90), written by that person after fixing
what heldout8 exposed; heldout10.yaml (216), written blind by a fifth person
(questionnaire answers, sales decks, trust-centre pages, wiki, postmortems, SOC 2,
chat, non-native English), heldout11.yaml (240, written blind), and heldout12.yaml
(198, half of them 2-4 sentence answers and Markdown tables), written blind by a sixth.
"overall" counts a text as a true positive only when it is flagged with exactly the expected
families; a flagged honest text is a false positive, a missed overclaim a false negative.

First-contact scores (overall, before any change prompted by the set):
- heldout2: precision 83.3%, recall 58.8%.
- heldout3: precision 91.5%, recall 86.8% (118 tp, 11 fp, 18 fn). Its misses
  were then classified by cause and fixed by general mechanisms (see git log),
  so later runs of heldout3 overstate generalisation.
- heldout4: precision 100.0%, recall 85.7% (42 tp, 0 fp, 7 fn), written after
  those fixes and scored once.
- heldout5: precision 100.0%, recall 93.3% (28 tp, 0 fp, 2 fn), written after
  further fixes found with private probe sets, scored once.
- heldout6: precision 89.6%, recall 70.5% (103 tp, 12 fp, 43 fn), written blind
  (before reading the judge or any other corpus file). Ten of its 43 misses
  reuse wordings a colleague had listed as known misses of earlier sets
  (recall without them: 75.7%). Its misses then drove the
  mechanism fixes of that round (see git log), so later runs overstate it.
- heldout7: precision 96.4%, recall 65.9% (27 tp, 1 fp, 14 fn), written after
  those fixes and scored once (the same text scored 95.5% / 51.2% on the judge
  before the heldout6 fixes). A second round of mechanisms, partly prompted by
  its misses, raised it to 100% / 78.0%, so later runs overstate it too.
  After the heldout8 round: 100% / 87.8% (36 tp, 0 fp, 5 fn); after the heldout10 and
  heldout12 round: 100% / 95.1% (39 tp, 0 fp, 2 fn).
- heldout8: precision 95.2%, recall 56.0% (79 tp, 4 fp, 62 fn), written blind.
  Per family (precision / recall): absolute safety 85.7% / 63.2%, prompt
  injection 90.0% / 56.2%, no-internet exfiltration 100% / 62.5%, review
  optional 100% / 50.0%, allowlist 100% / 46.7%, isolation 100% / 50.0%,
  hidden secrets 100% / 46.7%, logs 90.9% / 66.7%, pipeline 100% / 60.0%.
  Its misses drove the third round of mechanisms (see git log); after it,
  99.3% / 98.6%, so later runs overstate it.
- heldout9: precision 82.4%, recall 31.1% (14 tp, 3 fp, 31 fn), written after
  those fixes and scored once; never tuned on. Per family (precision / recall):
  absolute safety 50.0% / 20.0%, prompt injection 100% / 20.0%, no-internet
  exfiltration 100% / 20.0%, review optional 100% / 20.0%, allowlist 100% /
  40.0%, isolation 50.0% / 40.0%, hidden secrets 100% / 40.0%, logs 100% /
  40.0%, pipeline 100% / 80.0%. Its three false positives are
  all a second or wrong family on a real overclaim (no honest statement was
  flagged); its misses are again mostly idioms and word classes the judge has
  no entry for ("a thing of yesterday", "one hundred per cent", "just
  ceremony", "a peek at", "under lock and key", "has nowhere to go").
  It is now tuned: its misses drove a fourth round of mechanisms (spelled-out
  percentages, refusal and outcome idioms as answers, verbs of disarming,
  topic questions, subject lists, negated existentials, history extended to the
  future, containment and glance idioms; see git log), after which it scores
  100% / 100% (45 tp, 0 fp, 0 fn), so later runs overstate it.
- heldout10: precision 91.3%, recall 88.0% (95 tp, 9 fp, 13 fn), written blind and
  scored on the judge at e629eba. Per family (precision / recall): absolute safety
  90.0% / 75.0%, prompt injection 100% / 100%, no-internet exfiltration 75.0% / 100%,
  review optional 90.9% / 83.3%, allowlist 100% / 75.0%, isolation 100% / 91.7%,
  hidden secrets 76.9% / 83.3%, logs 100% / 100%, pipeline 92.3% / 100%. Five of its
  nine false positives flagged honest text (a negated reporting frame, "customers who
  need code never to leave", a removed quotation, "lol no, ... readable by the agent,
  don't ...", CI jobs run "without access to deployment secrets"); four were a wrong or
  extra family on a real overclaim.
- heldout12: precision 86.5%, recall 77.8% (77 tp, 12 fp, 22 fn), written blind and
  scored on the judge at e629eba (82.8% recall after the table-reading mechanism of
  2d0b1c2). Per family: absolute safety 90.0% / 81.8%, prompt injection 100% /
  81.8%, no-internet exfiltration 76.9% / 90.9%, review optional 75.0% / 81.8%,
  allowlist 100% / 63.6%, isolation 90.9% / 90.9%, hidden secrets 75.0% / 81.8%, logs
  100% / 72.7%, pipeline 80.0% / 72.7%. Its honest texts flagged were history ("in 2025
  our documentation said ..."), requirements ("Teams must not describe review as
  optional"), conditionals, quotation ("Do not claim secrets are 'invisible ...'"),
  "we know of no working escape" and "we used to skip review".
- Both are now tuned: their misses and false positives drove a fifth round of
  mechanisms (forward-only "without"/"with no", frame negators, requirement frames,
  past habits and past documents, reported knowledge, antonym operators, the allowed
  hosts as a channel, consequences restated by another family, adjectives in -able,
  sentence-wide premises and reasons, coverage verdicts, conditional universals; see
  git log), after which heldout10 scores 98.1% / 98.1% (106 tp, 2 fp, 2 fn) and
  heldout12 100% / 100% (99 tp, 0 fp, 0 fn), so later runs overstate them. The two
  heldout10 texts still wrong are a second family on a real overclaim: "the allowlist
  ... closes off every exfiltration route" (also exfiltration, as the tuning corpus
  labels "our allowlist stops every exfiltration attempt") and a purpose clause in a
  question answered "No" ("edit a workflow to steal secrets?").
- heldout11: precision 90.2%, recall 76.7% on the judge at e629eba; precision 91.3%,
  recall 78.3% (94 tp, 9 fp, 26 fn) on first contact at b774104, after the fifth round
  (two big rounds of tuning on other sets moved its recall by 1.6 points). Its misses
  were mostly a family's claim under a generic commitment ("is guaranteed to be
  unforgeable" reported as absolute safety), fake hedges between commas, copula-led
  questions answered "Yes, fully", intensified denials, label lines with a bracketed
  note, consequence clauses and the allowlist as subject of a no-exfiltration claim;
  two honest texts were flagged ("..., the agent can still cat them", "reduces but does
  not remove the need for review"). They drove the sixth round of mechanisms (see git
  log), after which it scores 100% / 100% (120 tp, 0 fp, 0 fn), so later runs overstate
  it.
- heldout13 (252, all nine families, written blind by a seventh author and sealed until
  the seventh round): precision 94.9%, recall 74.6% (94 tp, 5 fp, 32 fn) on first
  contact at dce7a9c (90.1% / 65.1% at e629eba, 94.7% / 71.4% at f122880). Its misses
  were a family's predicate with no word in the judge ("impervious to attack", "presents
  no residual risk", "Risk from agent execution: nil", "mitigated entirely"), review waved
  off with the agent's powerlessness as the reason ("approving its PRs can be a
  rubber-stamp exercise", "there's no need to look over what it proposes"), and a reason
  naming the allowed hosts ("Because only github.com ... are allowlisted, data has
  nowhere to go"). After the seventh round: 100% / 97.6% (123 tp, 0 fp, 3 fn), so later
  runs overstate it; after the eighth: 100% / 98.4% (124 tp, 0 fp, 2 fn).
- heldout14 (216, all nine families, written blind by an eighth author: terse
  spreadsheet-questionnaire cells, vendor portals, non-native English with abbreviations
  and spelling slips; sealed until the eighth round): precision 93.5%, recall 80.6% (87 tp,
  6 fp, 21 fn) on first contact at e7e9286 (94.3% / 75.9% at e629eba, 94.4% / 78.7% at
  f122880). Its false positives were a condition ("only if"), a contrastive noun phrase
  (", not the others"), an absence as the subject of a negated "make", and a generic verdict
  about a thing the agent harms ("agent can't hurt CI") reported as absolute safety; its
  misses were questionnaire shorthand (Y/N cells and choice lists, "N/A" as a verdict, "w/o",
  "b/c", "exfil", "->", "Yes - fully mitigated", "effectively untouchable", misspellings).
  They drove the eighth round (see git log), after which it scores 100% / 95.4% (103 tp,
  0 fp, 5 fn), so later runs overstate it.
- heldout16 (300, lexical breadth for safety, injection, exfiltration, review and
  allowlist, written blind by a tenth author): precision 92.4%, recall 64.7% (97 tp, 8 fp,
  53 fn) on first contact at f122880; recall per family was weakest for review (56.7%) and
  the allowlist (53.3%). Its misses drove the seventh round for those five families (see
  git log): vocabulary classes rather than sentences (invulnerability adjectives with a
  complement, incidents denied as events, universal closure of vectors, instructions by
  their untrusted origin, universal catch and strip verbs, confidentiality as the network
  premise's consequence, review dropped/automated/bypassed/pre-approved because the agent
  cannot merge, the definitive list, every route shut, every trick failing). After it:
  99.3% / 98.7% (148 tp, 1 fp, 2 fn), so later runs overstate it; after the eighth round:
  100% / 99.3% (149 tp, 0 fp, 1 fn).
- heldout17 (264, lexical breadth for isolation, secrets, logs and pipeline, written blind
  by an eleventh author): precision 94.3%, recall 62.9% (83 tp, 5 fp, 49 fn) on first
  contact at f122880; tuned on in the same round by a second engineer, after which it
  scores 100% / 100% (132 tp, 0 fp, 0 fn), so later runs overstate it (unchanged after the
  eighth round).
- heldout19 (270, all nine families, written blind by a thirteenth author: a realistic mix
  of documentation, questionnaire answers and chat): precision 96.2%, recall 92.6% (125 tp,
  5 fp, 10 fn) on first contact at 3ba2d75 (91.7% / 82.2%, 111 / 10 / 24, at e629eba).
  heldout20 (270, all nine families, written blind by a fourteenth author: questionnaire
  questions with bare or qualified answers): precision 89.6%, recall 88.9% (120 tp, 14 fp,
  15 fn) on first contact at 3ba2d75 (90.4% / 83.7%, 113 / 12 / 22, at e629eba). Its false
  positives were honest answers read through the question's wording: a fronted reason after
  "Q:" whose negation reached the asked predicate ("Since the agent cannot merge, is review
  optional? No."), imperative prompts ("Q: Describe how secrets are protected from the
  agent.") read as statements, a second family on an answered question whose subject is
  another family's instrument, a generic verdict restating the answered claim ("None; the
  filter makes it harmless"), a past questionnaire's answer, dated past practice, and
  conditions and bounds ("only hidden ... if", "only as complete as", "only as long as", "to
  make that less likely", "directly"); its misses included existence questions answered
  "No"/"None" ("Are there any security weaknesses ...? No.", "What residual risk remains?
  None."). They drove the ninth round (see git log), after which heldout19 scores 98.4% /
  92.6% (125 tp, 2 fp, 10 fn; its two remaining false positives, "We log every tool call
  ...", contradict the tuning corpus's label for "We log every tool invocation and shell
  command", so they were left) and heldout20 96.9% / 93.3% (126 tp, 4 fp, 9 fn), so later
  runs overstate them. heldout15 moved from 82 / 11 / 26 to 83 / 10 / 25 and heldout18 stayed
  at 116 / 8 / 19 in that round.
- heldout15 (216, all nine families, written blind by a ninth author: long prose,
  subordinate clauses, nominalisations, two- and three-sentence items with pronouns) and
  heldout18 (270, all nine families, written blind by a twelfth author: a realistic week's
  mix of questionnaire answers, documentation and sales/chat text) were sealed and NEVER
  tuned on; nobody who changed the judge read them. Scored, aggregate only:
  heldout15: 85.9% / 73.1% (79 tp, 13 fp, 29 fn) at e629eba (the judge at the start of the
  session that wrote heldout10-18), 86.8% / 73.1% at f122880, 88.2% / 75.9% (82 tp, 11 fp,
  26 fn) at e7e9286 and at b1372ba (after the eighth round);
  heldout18: 88.8% / 76.3% (103 tp, 13 fp, 32 fn) at e629eba, 93.5% / 85.9% (116 tp, 8 fp,
  19 fn) at e7e9286 and at b1372ba.
  Together (486 statements): 87.5% / 74.9% at e629eba, 91.2% / 81.5% at b1372ba.
  At 439a044 (after the ninth round): heldout15 89.2% / 76.9% (83 tp, 10 fp, 25 fn),
  heldout18 unchanged.
- heldout21 (270, all nine families, written blind by a fifteenth author: a realistic mix
  of questionnaire answers, documentation, audit findings, sales copy and chat) was sealed
  and NEVER tuned on: 91.7% / 82.2% (111 tp, 10 fp, 24 fn) at e629eba, 95.2% / 88.9%
  (120 tp, 6 fp, 15 fn) at 3ba2d75 and at 439a044.
  heldout15, 18 and 21 together (756 statements): 89.1% / 77.5% at e629eba, 93.0% / 84.4%
  at 439a044.
heldout4, heldout5, heldout7 and heldout9 were written by someone who knew the
judge's mechanisms; every other set's first contact is a blind number. Expect, on
text nobody here has seen, precision around 88-95% and recall around 63-88%
depending on how far its wording is from anything in these sets (heldout16/17,
written for lexical breadth, are the low end; heldout9, in deliberately odd idioms,
was 31.1%). heldout15, heldout18 and heldout21 are the figures to quote: they were never
tuned on.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.corpus.corpus_io import (  # noqa: E402
    CORPUS,
    FAMILIES,
    HELDOUT,
    HELDOUT2,
    HELDOUT3,
    HELDOUT4,
    HELDOUT5,
    HELDOUT6,
    HELDOUT7,
    HELDOUT8,
    HELDOUT9,
    HELDOUT10,
    HELDOUT11,
    HELDOUT12,
    HELDOUT13,
    HELDOUT14,
    HELDOUT15,
    HELDOUT16,
    HELDOUT17,
    HELDOUT18,
    HELDOUT19,
    HELDOUT20,
    HELDOUT21,
    Item,
    load,
    scores,
)


def ratio(a: int, b: int) -> str:
    return f"{a / b:6.1%}" if b else "   n/a"


def report(title: str, path: Path) -> None:
    items = load(path)
    over = sum(1 for i in items if i.expect)
    known = sum(1 for i in items if i.known_failure)
    print(f"\n{title}: {len(items)} statements ({over} overclaims, {len(items) - over} honest"
          f"{f', {known} listed known failures' if known else ''})")
    print(f"{'family':40} {'tp':>4} {'fp':>4} {'fn':>4} {'precision':>10} {'recall':>8}")
    for fam, (tp, fp, fn) in scores(items).items():
        label = fam if fam != "overall" else "overall (exact family set per text)"
        print(f"{label:40} {tp:4} {fp:4} {fn:4} {ratio(tp, tp + fp):>10} {ratio(tp, tp + fn):>8}")
    tp, fp, fn = scores(items, rules_only=True)["overall"]
    print(f"{'overall, rules alone (without CLM010)':40} {tp:4} {fp:4} {fn:4} "
          f"{ratio(tp, tp + fp):>10} {ratio(tp, tp + fn):>8}")


def report_real(title: str, path: Path, half: str | None = None,
                items: list[Item] | None = None) -> None:
    from tests.corpus.real_text import flag_rates, load_real, sha_half

    if items is None:
        if not path.is_file():
            print(f"\n{title}: skipped, {path} is not present (needs ../shared/data)")
            return
        items = load_real(path)
    if half is not None:
        items = [i for i in items if sha_half(i.text) == half]
    over = sum(1 for i in items if i.expect)
    print(f"\n{title}: {len(items)} sentences ({over} overclaims, {len(items) - over} honest)")
    if path.parent.name == "claims-real-dev":
        print("(the learned second opinion is trained on this part: its line is in-sample; "
              "training/train_judge_model.py --cv prints the cross-validated figure)")
    for label, rules_only in (("rules (CLM001-CLM009 errors) ", True),
                              ("with CLM010 warnings         ", False)):
        recall, named, fpr = flag_rates(items, rules_only)
        print(f"{label} recall {recall:.3f} (labelled family among the findings: "
              f"{named:.3f}), false-positive rate {fpr:.3f}")
    print(f"{'family (a finding of it counts)':40} {'tp':>4} {'fp':>4} {'fn':>4} "
          f"{'precision':>10} {'recall':>8}")
    for fam, (tp, fp, fn) in scores(items).items():
        if fam != "overall":
            print(f"{fam:40} {tp:4} {fp:4} {fn:4} {ratio(tp, tp + fp):>10} "
                  f"{ratio(tp, tp + fn):>8}")


def main() -> None:
    import argparse

    from tests.corpus.real_text import PART1, PART2, load_real

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extra", type=Path, nargs="+", default=[],
                        help="further labelled TSV sets, kept outside the repository")
    parser.add_argument("--half", choices=["dev", "held"],
                        help="score only this half of each --extra set")
    parser.add_argument("--real-only", action="store_true", help="skip the synthetic sets")
    args = parser.parse_args()
    assert set(FAMILIES.values())
    report_real("Real text, part1 (vendors' docs, standards bodies, questionnaires)", PART1)
    report_real("Real text, part2 (READMEs, issue threads, blogs, research write-ups)", PART2)
    extras = {}
    for extra in args.extra:  # (named on the command line: missing or malformed is an error)
        try:
            extras[extra] = load_real(extra)
        except (OSError, ValueError) as exc:  # (UnicodeDecodeError is a ValueError)
            parser.error(f"{extra}: {exc}")
    for extra, items in extras.items():
        report_real(f"Extra labelled set {extra}" + (f", {args.half} half" if args.half else ""),
                    extra, args.half, items)
    if args.real_only:
        return
    report("Tuning corpus", CORPUS)
    report("Held-out set 1 (written before the judge, never tuned on)", HELDOUT)
    report("Held-out set 2 (written after tuning, never tuned on)", HELDOUT2)
    report("Held-out set 3 (written blind to the judge; its misses drove mechanism fixes)",
           HELDOUT3)
    report("Held-out set 4 (written after those fixes, never tuned on)", HELDOUT4)
    report("Held-out set 5 (written after the last fixes, never tuned on)", HELDOUT5)
    report("Held-out set 6 (written blind by a second person; its misses drove mechanism fixes)",
           HELDOUT6)
    report("Held-out set 7 (written after the heldout6 fixes, never tuned on)", HELDOUT7)
    report("Held-out set 8 (written blind by a third person; its misses drove mechanism fixes)",
           HELDOUT8)
    report("Held-out set 9 (written after the heldout8 fixes; its misses drove mechanism fixes)",
           HELDOUT9)
    report("Held-out set 10 (written blind by a fifth person; its misses drove mechanism fixes)",
           HELDOUT10)
    report("Held-out set 11 (written blind; its misses drove the sixth round of mechanisms)",
           HELDOUT11)
    report("Held-out set 12 (written blind by a sixth person, half multi-sentence answers and "
           "tables; its misses drove mechanism fixes)", HELDOUT12)
    report("Held-out set 13 (written blind by a seventh author, sealed, then tuned on in the "
           "seventh round)", HELDOUT13)
    report("Held-out set 14 (written blind by an eighth author: questionnaire cells, portals, "
           "non-native English; sealed, then tuned on in the eighth round)", HELDOUT14)
    report("Held-out set 16 (lexical breadth, five families, written blind; tuned on in the "
           "seventh round)", HELDOUT16)
    report("Held-out set 17 (lexical breadth, four families, written blind; tuned on in the "
           "seventh round)", HELDOUT17)
    report("Held-out set 19 (written blind by a thirteenth author: a realistic mix; tuned on in "
           "the ninth round)", HELDOUT19)
    report("Held-out set 20 (written blind by a fourteenth author: questionnaire questions and "
           "answers; tuned on in the ninth round)", HELDOUT20)
    report("Held-out set 15 (written blind by a ninth author: long prose; sealed, NEVER tuned "
           "on)", HELDOUT15)
    report("Held-out set 18 (written blind by a twelfth author: a week's mix; sealed, NEVER "
           "tuned on)", HELDOUT18)
    report("Held-out set 21 (written blind by a fifteenth author: a realistic mix; sealed, NEVER "
           "tuned on)", HELDOUT21)


if __name__ == "__main__":
    main()
