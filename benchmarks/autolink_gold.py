"""Judgements of glossary mentions on real documentation, kept by location only.

``benchmarks/autolink_gold/SITE.toml`` holds, for one pinned site, a verdict for every
mention judged: file, line, span, the name as written, the entry, ``link`` (a genuine
ML mention of that entry: auto-linking should link it) or ``no``, and a short reason in
our own words. No sentence of the site is kept. ``[[sample]]`` lists the (page, entry)
pairs drawn at random (fixed seed) whose every mention was judged: recall is measured
on them, precision on every auto-link.
"""

from __future__ import annotations

import json
import random
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.autolink_locate import Mention

GOLD_DIR = Path(__file__).parent / "autolink_gold"
VERDICTS = ("link", "no")
SAMPLE_SEED = 30
SAMPLE_PAIRS = 40
#: mentions judged per sampled pair (in page order): enough to find a genuine one
PER_PAIR = 3


@dataclass(frozen=True)
class Judgement:
    file: str
    line: int
    start: int
    end: int
    name: str
    entry: str
    verdict: str
    reason: str

    @property
    def key(self) -> tuple[str, int, int, str]:
        return (self.file, self.line, self.start, self.entry)


@dataclass
class Gold:
    site: str
    commit: str
    judgements: dict[tuple[str, int, int, str], Judgement] = field(default_factory=dict)
    sample: list[tuple[str, str]] = field(default_factory=list)
    seed: int = SAMPLE_SEED

    def verdict(self, mention: Mention) -> str | None:
        found = self.judgements.get(mention.key)
        return found.verdict if found else None


def gold_path(site: str, folder: Path = GOLD_DIR) -> Path:
    return folder / f"{site}.toml"


def load_gold(site: str, commit: str, folder: Path = GOLD_DIR) -> Gold:
    """The site's judgements (empty when none are kept yet); refuses judgements of another commit."""
    path = gold_path(site, folder)
    if not path.is_file():
        return Gold(site, commit)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    if data["commit"] != commit:
        raise SystemExit(f"{path} judges {site} at {data['commit']}, not at {commit}")
    gold = Gold(site, commit, seed=data.get("seed", SAMPLE_SEED))
    gold.sample = [(pair["page"], pair["entry"]) for pair in data.get("sample", [])]
    for item in data.get("mention", []):
        judgement = Judgement(
            item["file"],
            item["line"],
            item["span"][0],
            item["span"][1],
            item["name"],
            item["entry"],
            item["verdict"],
            item.get("reason", ""),
        )
        if judgement.verdict not in VERDICTS:
            raise SystemExit(
                f"{path}: verdict {judgement.verdict!r} at {judgement.file}:{judgement.line} is not one of {VERDICTS}"
            )
        gold.judgements[judgement.key] = judgement
    return gold


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a TOML basic string for what we write


def save_gold(gold: Gold, folder: Path = GOLD_DIR) -> Path:
    """Write the judgements, sorted by location, so a diff shows what changed."""
    lines = [
        f"# Judgements of glossary mentions on {gold.site}, by location only (see benchmarks/autolink_gold.py)",
        f"site = {_quoted(gold.site)}",
        f"commit = {_quoted(gold.commit)}",
        f"seed = {gold.seed}",
        "",
    ]
    for page, entry in sorted(gold.sample):
        lines += ["[[sample]]", f"page = {_quoted(page)}", f"entry = {_quoted(entry)}", ""]
    for judgement in sorted(gold.judgements.values(), key=lambda j: j.key):
        lines += [
            "[[mention]]",
            f"file = {_quoted(judgement.file)}",
            f"line = {judgement.line}",
            f"span = [{judgement.start}, {judgement.end}]",
            f"name = {_quoted(judgement.name)}",
            f"entry = {_quoted(judgement.entry)}",
            f"verdict = {_quoted(judgement.verdict)}",
            f"reason = {_quoted(judgement.reason)}",
            "",
        ]
    path = gold_path(gold.site, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def draw_sample(mentions: list[Mention], seed: int, size: int = SAMPLE_PAIRS) -> list[tuple[str, str]]:
    """``size`` (page, entry) pairs drawn uniformly from every pair with a mention."""
    pairs = sorted({(m.page, m.entry) for m in mentions})
    return sorted(random.Random(seed).sample(pairs, min(size, len(pairs))))


def to_judge(mentions: list[Mention], gold: Gold) -> list[Mention]:
    """What still needs a verdict: every auto-link, and the first mentions of each sampled pair."""
    wanted: list[Mention] = []
    per_pair: dict[tuple[str, str], int] = {}
    sampled = set(gold.sample)
    for mention in mentions:
        pair = (mention.page, mention.entry)
        in_sample = pair in sampled and per_pair.get(pair, 0) < PER_PAIR
        if in_sample:
            per_pair[pair] = per_pair.get(pair, 0) + 1
        if (mention.linked is not None or in_sample) and mention.line and gold.verdict(mention) is None:
            wanted.append(mention)
    return list(dict.fromkeys(wanted))
