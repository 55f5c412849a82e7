"""What the glossary page costs a project that cites nothing: ``python -m benchmarks.page_cost``.

A two-page MyST project (an index and a page holding only the ``mlglossary`` directive)
is built clean (``-E``, HTML) in a fresh process per build; the process reports its CPU
time (``time.process_time``, imports included) and peak RSS. The same project with a
plain page instead of the directive is the baseline, so the difference is the page's
cost. Variants are interleaved, rep by rep, so a change of load hits them alike.

``--hand-written`` adds the fair baseline: plain Sphinx (MyST, no extension) building a page
that holds the same entries written by hand, each a heading with its summary, body and
"See also" names as text (term roles kept as their text, code fences without their test
tags). What the glossary page costs beyond that is what the extension adds to the content.

``--entries 300`` measures a temporary copy of the package whose three glossaries hold
that many entries (existing entries copied under new ids and names, bodies unchanged),
with its stored bodies regenerated. ``--package-root`` measures another checkout (the
code before a change, for instance).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from pathlib import Path

from .measure import PACKAGE, byte_compile

_CHILD = """
import resource, sys, time
from sphinx.cmd.build import build_main
status = build_main(["-E", "-q", "-b", "html", sys.argv[1], sys.argv[2]])
cpu = time.process_time()
import sphinxcontrib_mlglossary
print(cpu, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, status, sphinxcontrib_mlglossary.__file__)
"""


def _project(folder: Path, with_glossary: bool) -> Path:
    source = folder / ("glossary" if with_glossary else "plain")
    source.mkdir(parents=True)
    (source / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\nexclude_patterns = ["_build"]\n', encoding="utf-8"
    )
    (source / "index.md").write_text("# Home\n\n```{toctree}\nglossary\n```\n", encoding="utf-8")
    page = "```{mlglossary}\n```\n" if with_glossary else "Nothing to see here.\n"
    (source / "glossary.md").write_text(f"# Glossary\n\n{page}", encoding="utf-8")
    return source


#: a ``{term}`` role, its target after ``<`` left out (roles may break across lines)
_TERM_ROLE = re.compile(r"\{term\}`([^`<]*?)\s*(?:<[^`>]*>)?`", re.S)
#: a code fence's test tags (``requires=torch``): the reader's page shows plain fences
_FENCE_TAGS = re.compile(r"^(\s*```\w+)[ \t]+\S+=[^\n]*$", re.M)


def _as_text(markup: str) -> str:
    """MyST with each ``{term}`` role replaced by the text it shows."""
    return _TERM_ROLE.sub(lambda match: match.group(1).strip(), markup)


def hand_written_project(folder: Path, language: str = "en") -> Path:
    """Plain Sphinx with the shipped entries written out by hand on one page (no extension)."""
    from sphinxcontrib_mlglossary.loader import bundled_glossary

    source = folder / "hand-written"
    source.mkdir(parents=True)
    (source / "conf.py").write_text(
        f'extensions = ["myst_parser"]\nexclude_patterns = ["_build"]\nlanguage = "{language}"\n', encoding="utf-8"
    )
    (source / "index.md").write_text("# Home\n\n```{toctree}\nglossary\n```\n", encoding="utf-8")
    glossary = bundled_glossary(language)
    parts = ["# Glossary\n"]
    for entry in glossary.entries:
        body = _FENCE_TAGS.sub(r"\1", _as_text(entry.body))
        parts.append(f"\n## {entry.name}\n\n{_as_text(entry.summary)}\n\n{body}\n")
        related = [other.name for target in entry.see_also if (other := glossary.get(target)) is not None]
        if related:
            parts.append(f"\nSee also: {', '.join(related)}.\n")
    (source / "glossary.md").write_text("".join(parts), encoding="utf-8")
    return source


def _toml_value(value: object) -> str:
    # JSON strings and string lists are valid TOML basic strings and arrays
    return json.dumps(value, ensure_ascii=False)


def enlarged_package(folder: Path, source_root: Path, total: int, languages: Sequence[str] = ()) -> Path:
    """A copy of the package whose glossaries hold ``total`` entries, stored bodies regenerated
    (``languages``: only those glossaries, the others left as shipped)."""
    root = folder / "enlarged"
    shutil.copytree(source_root / PACKAGE, root / PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
    for path in sorted((root / PACKAGE / "glossaries").glob("*.toml")):
        if languages and path.stem not in languages:
            continue
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        entries = data["term"]
        extra = [dict(entry) for entry in entries[: total - len(entries)]]
        for number, entry in enumerate(extra):
            entry["id"] = f"{entry['id']}-copy{number}"
            entry["name"] = f"{entry['name']} copy{number}"
            for names in ("abbreviations", "aliases", "autolink", "see_also"):
                if names in entry:
                    entry[names] = []
        lines = [f"format = {data['format']}", f"language = {_toml_value(data['language'])}", ""]
        for entry in entries + extra:
            lines.append("[[term]]")
            lines += [f"{key} = {_toml_value(value)}" for key, value in entry.items()]
            lines.append("")
        path.write_text("\n".join(lines), encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(root)}
    # -P: the working directory (a checkout holding the package) must not shadow the copy
    chosen = [argument for language in languages for argument in ("--language", language)]
    subprocess.run(
        [sys.executable, "-P", "-m", f"{PACKAGE}.prerender", *chosen], check=True, env=environment, capture_output=True
    )
    return root


def build_once(source: Path, output: Path, package_root: Path) -> tuple[float, float]:
    shutil.rmtree(output, ignore_errors=True)
    environment = {**os.environ, "PYTHONPATH": str(package_root), "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-P", "-c", _CHILD, str(source), str(output)], env=environment, capture_output=True, text=True
    )
    cpu, rss, status, imported = done.stdout.split()
    if status != "0" or done.stderr.strip():
        raise SystemExit(f"the build of {source} failed or warned:\n{done.stderr}")
    if not Path(imported).resolve().is_relative_to(package_root.resolve()):
        raise SystemExit(f"the build imported {imported}, not the package under {package_root}")
    return float(cpu), float(rss)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--entries", type=int, default=0, help="enlarge the glossaries to this many entries")
    parser.add_argument("--package-root", type=Path, action="append", help="a checkout to measure (repeatable)")
    parser.add_argument(
        "--hand-written", action="store_true", help="also build plain Sphinx with the same entries written by hand"
    )
    arguments = parser.parse_args(argv)
    roots = arguments.package_root or [Path(__file__).resolve().parent.parent]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        plain, glossary = _project(folder, False), _project(folder, True)
        variants = [("plain page", plain, roots[0])]
        if arguments.hand_written:
            variants.append(("the entries hand-written (plain Sphinx)", hand_written_project(folder), roots[0]))
        for number, root in enumerate(roots):
            measured = enlarged_package(folder / str(number), root, arguments.entries) if arguments.entries else root
            byte_compile(measured / PACKAGE)
            variants.append((f"glossary page ({root})", glossary, measured))
        results: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in variants}
        for _rep in range(arguments.reps):
            for name, source, root in variants:
                results[name].append(build_once(source, folder / "out", root))
    for name, runs in results.items():
        cpus, rsses = [cpu for cpu, _ in runs], [rss for _, rss in runs]
        print(
            f"{name}: CPU median {statistics.median(cpus):.2f} s (min {min(cpus):.2f}, max {max(cpus):.2f}), "
            f"peak RSS median {statistics.median(rsses):.0f} MiB (min {min(rsses):.0f}, max {max(rsses):.0f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
