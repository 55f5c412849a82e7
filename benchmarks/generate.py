"""Write a deterministic synthetic Sphinx project, with or without the extension.

The plain variant defines the same terms with Sphinx's own ``glossary`` directive and
cites them with the same ``term`` references, so the two builds differ only by the
extension.
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

from sphinxcontrib_mlglossary.loader import bundled_glossary

WORDS = [
    "model",
    "data",
    "layer",
    "weight",
    "batch",
    "gradient",
    "training",
    "sequence",
    "vector",
    "output",
    "input",
    "loss",
    "step",
    "value",
    "network",
    "matrix",
    "feature",
    "sample",
    "update",
    "parameter",
]


PER_CHAPTER = 100


def _toctree(entries: list[str], fmt: str) -> str:
    if fmt == "md":
        return "```{toctree}\n:maxdepth: 1\n\n" + "\n".join(entries) + "\n```\n"
    return ".. toctree::\n   :maxdepth: 1\n\n" + "".join(f"   {entry}\n" for entry in entries)


def _cite(name: str, fmt: str) -> str:
    return f"{{term}}`{name}`" if fmt == "md" else f":term:`{name}`"


def _heading(text: str, level: int, fmt: str) -> str:
    if fmt == "md":
        return f"{'#' * level} {text}\n\n"
    return f"{text}\n{'=-~'[level - 1] * len(text)}\n\n"


def _plain_glossary(names: list[tuple[list[str], str]], fmt: str) -> str:
    lines = [".. glossary::", ""]
    for terms, summary in names:
        lines.extend(f"   {term}" for term in terms)
        lines.extend([f"      {summary}", ""])
    body = "\n".join(lines) + "\n"
    return f"```{{eval-rst}}\n{body}```\n" if fmt == "md" else body


def generate(
    out: Path,
    *,
    pages: int,
    citations: int,
    terms: int,
    fmt: str,
    extension: bool,
    autolink: str = "off",
    seed: int = 7,
) -> Path:
    """Create the project in ``out`` (replacing it) and return it.

    Every section also mentions two terms in plain text, so auto-linking has work to do.
    """
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    rng = random.Random(seed)
    entries = list(bundled_glossary("en"))[:terms]
    names = [entry.abbreviations[0] if entry.abbreviations and rng.random() < 0.3 else entry.name for entry in entries]
    extensions = (["myst_parser"] if fmt == "md" else []) + (["sphinxcontrib_mlglossary"] if extension else [])
    conf = f"project = 'bench'\nextensions = {extensions!r}\nexclude_patterns = ['_build']\n"
    if extension and autolink != "off":
        conf += f"mlglossary_autolink = {autolink!r}\n"
    (out / "conf.py").write_text(conf)
    # Pages hang under chapters of 100, as in a real large project: one flat toctree of
    # 1,000 pages makes every page's sidebar list them all, a quadratic cost of the
    # theme that would drown what the benchmark is after.
    chapters = [f"chapter{c:02d}" for c in range((pages + PER_CHAPTER - 1) // PER_CHAPTER)]
    (out / f"index.{fmt}").write_text(_heading("Benchmark", 1, fmt) + _toctree([*chapters, "glossary"], fmt))
    for c, chapter in enumerate(chapters):
        members = [f"page{n:04d}" for n in range(c * PER_CHAPTER, min(pages, (c + 1) * PER_CHAPTER))]
        (out / f"{chapter}.{fmt}").write_text(_heading(f"Chapter {c}", 1, fmt) + _toctree(members, fmt))
    if extension:
        directive = "```{mlglossary}\n```\n" if fmt == "md" else ".. mlglossary::\n"
        if terms < len(bundled_glossary("en")):
            ids = ", ".join(entry.id for entry in entries)
            directive = (
                f"```{{mlglossary}}\n:terms: {ids}\n```\n" if fmt == "md" else f".. mlglossary::\n   :terms: {ids}\n"
            )
        glossary = _heading("Glossary", 1, fmt) + directive
    else:
        glossary = _heading("Glossary", 1, fmt) + _plain_glossary(
            [([e.name, *e.abbreviations], " ".join(e.summary.split())) for e in entries], fmt
        )
    (out / f"glossary.{fmt}").write_text(glossary)
    for n in range(pages):
        parts = [_heading(f"Page {n}", 1, fmt)]
        per_section = max(1, citations // 4)
        for section in range(4):
            parts.append(_heading(f"Section {n}.{section}", 2, fmt))
            sentences = []
            for _ in range(per_section):
                words = rng.sample(WORDS, 6)
                words.insert(rng.randrange(6), _cite(rng.choice(names), fmt))
                sentences.append(" ".join(words).capitalize() + ".")
            for _ in range(2):
                mention = rng.choice(entries).name
                sentences.append(f"Plain prose about the {mention} and its {rng.choice(WORDS)}.")
            parts.append(" ".join(sentences) + "\n\n")
        (out / f"page{n:04d}.{fmt}").write_text("".join(parts))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--citations", type=int, default=40, help="citations per page")
    parser.add_argument("--terms", type=int, default=51)
    parser.add_argument("--format", choices=["md", "rst"], default="md")
    parser.add_argument("--plain", action="store_true", help="Sphinx's own glossary, no extension")
    parser.add_argument("--autolink", default="off", choices=["off", "first", "section", "all"])
    args = parser.parse_args()
    generate(
        args.out,
        pages=args.pages,
        citations=args.citations,
        terms=args.terms,
        fmt=args.format,
        extension=not args.plain,
        autolink=args.autolink,
    )


if __name__ == "__main__":
    main()
