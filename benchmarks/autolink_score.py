"""Precision and recall of auto-linking on real documentation, against judgements kept by location.

One command re-scores every prepared site::

    python -m benchmarks.autolink_score                 # build each site with the recorder, score
    python -m benchmarks.autolink_score --reuse         # score the last recorded build
    python -m benchmarks.autolink_score -D mlglossary_autolink_context=0   # with a setting changed

Each site's ``autolink`` variant (``mlglossary_autolink = "first"``) is built once with
``benchmarks.autolink_record``, every mention is placed in the source
(``benchmarks.autolink_locate``) and compared with ``benchmarks/autolink_gold/SITE.toml``:

- **precision**: auto-links judged right (a genuine mention of the entry linked) over
  auto-links judged; auto-links nobody judged yet are listed, never counted;
- **recall**: with ``"first"`` a page links an entry once, so recall is counted per
  (page, entry) pair: of the sampled pairs with a genuine mention, the share whose page
  links that entry at a genuine mention. A pair's first three mentions are judged (and
  any auto-link); when none is genuine, the pair counts as having none. The pairs are drawn at random (fixed seed)
  from every pair with a mention of any glossary name (including the names kept for
  ``{term}``), so the estimate isn't tilted toward what is already linked.

``--redraw SEED`` replaces each site's sample by a new draw with that seed from the
pairs of today's build (the glossary grows; the old judgements stay, by location).
``--worksheet SITE`` prints what still needs a verdict, with its sentence, in the
terminal (never into the repository); ``--judge SITE FILE`` records verdicts written as
``NUMBER link|no reason`` lines against that worksheet's numbers.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.autolink_gold import PER_PAIR, SAMPLE_SEED, Gold, Judgement, draw_sample, load_gold, save_gold, to_judge
from benchmarks.autolink_locate import Mention, place, read_record
from benchmarks.autolink_record import record_build
from benchmarks.site_prep import BUILD_ROOT, load
from benchmarks.sites import SITES


@dataclass
class Score:
    links: int = 0
    right: int = 0
    wrong: int = 0
    genuine: int = 0  # sampled (page, entry) pairs with a genuine mention
    linked: int = 0  # of those, pairs linked at a genuine mention
    unjudged_links: list[Mention] = field(default_factory=list)
    unjudged_pairs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        judged = self.right + self.wrong
        return self.right / judged if judged else 1.0

    @property
    def recall(self) -> float:
        return self.linked / self.genuine if self.genuine else 1.0

    def __add__(self, other: Score) -> Score:
        return Score(
            self.links + other.links,
            self.right + other.right,
            self.wrong + other.wrong,
            self.genuine + other.genuine,
            self.linked + other.linked,
            self.unjudged_links + other.unjudged_links,
            self.unjudged_pairs + other.unjudged_pairs,
        )


def score(mentions: list[Mention], gold: Gold) -> Score:
    """Compare one build's mentions with the judgements (see the module's docstring)."""
    result = Score()
    right_pairs: set[tuple[str, str]] = set()
    for mention in mentions:
        if mention.linked is None:
            continue
        result.links += 1
        verdict = gold.verdict(mention)
        if verdict is None:
            result.unjudged_links.append(mention)
        elif verdict == "link" and mention.linked == mention.entry:
            result.right += 1
            right_pairs.add((mention.page, mention.entry))
        else:
            result.wrong += 1
    by_pair: dict[tuple[str, str], list[str | None]] = {}
    for mention in mentions:
        by_pair.setdefault((mention.page, mention.entry), []).append(gold.verdict(mention))
    for pair in gold.sample:
        verdicts = by_pair.get(pair, [])
        if "link" in verdicts:
            result.genuine += 1
            result.linked += pair in right_pairs
        elif None in verdicts[:PER_PAIR]:  # the first few judged "no": no genuine mention
            result.unjudged_pairs.append(pair)
    return result


def site_mentions(name: str, *, reuse: bool, overrides: dict[str, str], label: str) -> list[Mention]:
    prepared = load(name)
    if prepared is None:
        raise SystemExit(f"{name} is not prepared: python -m benchmarks.sites prepare {name} --git-dir ...")
    folder = BUILD_ROOT / name
    record_file = folder / f"record-{label}.jsonl"
    if not (reuse and record_file.is_file()):
        record_build(prepared.variant("autolink"), folder / "record-build", record_file, overrides)
    return place(read_record(record_file), prepared.variant("autolink"), SITES[name].source_dir)


def _row(name: str, commit: str, result: Score) -> str:
    return (
        f"| {name} | `{commit[:12]}` | {result.links} | {result.right} | {result.wrong} | {result.precision:.3f} "
        f"| {result.genuine} | {result.linked} | {result.recall:.3f} |"
    )


def _worksheet(mentions: list[Mention], gold: Gold) -> list[Mention]:
    if not gold.sample:
        gold.sample = draw_sample(mentions, gold.seed)
        save_gold(gold)
    return to_judge(mentions, gold)


def _print_worksheet(items: list[Mention]) -> None:
    for number, m in enumerate(items):
        text = re.sub(r"\s+", " ", m.context)
        at = len(re.sub(r"\s+", " ", m.context[: m.at]))
        window = (
            text[max(0, at - 110) : at]
            + "[["
            + text[at : at + len(m.written)]
            + "]]"
            + text[at + len(m.written) : at + len(m.written) + 90]
        )
        state = f"LINKED->{m.linked}" if m.linked else "unlinked"
        print(f"{number}\t{m.entry}\t{state}\t{m.page}\n\t{window}")


def _judge(items: list[Mention], gold: Gold, verdicts: Path) -> int:
    count = 0
    for raw in verdicts.read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        number, verdict, *reason = raw.split(maxsplit=2)
        mention = items[int(number)]
        gold.judgements[mention.key] = Judgement(
            mention.file,
            mention.line,
            mention.start,
            mention.end,
            mention.written,
            mention.entry,
            verdict,
            " ".join(reason),
        )
        count += 1
    save_gold(gold)
    return count


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sites", nargs="*", default=sorted(SITES), choices=sorted(SITES))
    parser.add_argument("--reuse", action="store_true", help="score the last recorded build of this label")
    parser.add_argument("--label", default="default", help="names the recorded build (record-LABEL.jsonl)")
    parser.add_argument("-D", dest="overrides", action="append", default=[], help="a setting for the build, key=value")
    parser.add_argument("--worksheet", metavar="SITE", help="print what still needs a verdict")
    parser.add_argument("--redraw", type=int, metavar="SEED", help="draw each site's sample anew with this seed")
    parser.add_argument("--judge", nargs=2, metavar=("SITE", "FILE"), help="record verdicts for the worksheet")
    args = parser.parse_args(argv)
    overrides = dict(item.split("=", 1) for item in args.overrides)
    if args.redraw is not None:
        for name in args.sites:
            gold = load_gold(name, SITES[name].commit)
            gold.seed = args.redraw
            gold.sample = draw_sample(site_mentions(name, reuse=True, overrides=overrides, label=args.label), gold.seed)
            save_gold(gold)
            print(f"{name}: {len(gold.sample)} pairs drawn with seed {gold.seed}")
        return
    if args.worksheet or args.judge:
        name = args.worksheet or args.judge[0]
        gold = load_gold(name, SITES[name].commit)
        items = _worksheet(site_mentions(name, reuse=True, overrides=overrides, label=args.label), gold)
        if args.judge:
            print(f"{_judge(items, gold, Path(args.judge[1]))} verdicts recorded")
        else:
            _print_worksheet(items)
        return
    total = Score()
    print("| site | commit | links | right | wrong | precision | genuine pairs (sample) | linked | recall |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    rows, unjudged = [], []
    for name in args.sites:
        gold = load_gold(name, SITES[name].commit)
        result = score(site_mentions(name, reuse=args.reuse, overrides=overrides, label=args.label), gold)
        total += result
        rows.append(_row(name, SITES[name].commit, result))
        unjudged += [(name, m) for m in result.unjudged_links]
        unjudged += [(name, pair) for pair in result.unjudged_pairs]  # type: ignore[misc]
    print("\n".join(rows))
    print(_row("**all**", "", total).replace("| `` |", "| |"))
    if unjudged:
        print(f"\n{len(unjudged)} auto-links or sampled pairs not judged yet (--worksheet SITE lists them):")
        for name, item in unjudged:
            where = f"{item.file}:{item.line}:{item.start} {item.entry}" if isinstance(item, Mention) else f"{item}"
            print(f"  {name}: {where}")


if __name__ == "__main__":
    _ = SAMPLE_SEED
    main()
