"""Render the shipped entry bodies ahead of time: ``python -m sphinxcontrib_mlglossary.prerender``.

Run it after editing an entry of ``glossaries/*.toml``: it rewrites
``glossaries/prerendered/<language>.json`` (see :mod:`.prerendered`) and the data file's
tables, ``<language>.tables.json`` (see :mod:`.stored_tables`), and is
deterministic, so an unchanged glossary gives byte-identical files. ``--check`` writes
nothing and exits 1 when a stored file is not what the data gives (tests run it).

Each language is rendered by an HTML build of an empty project (the default theme and
settings), whose builder then writes every body through :mod:`.entry_bodies`. Bodies
that hold something the page must see as nodes (see
:func:`~.entry_bodies.prerenderable`) are left out and stay parsed in every build; so is
any body using a construct or code language the canary does not show, because a build
could not check that construct's HTML before using it.

Each language is rendered in a process of its own: Sphinx keeps the message catalogs it
loaded for the life of the process, so a second language rendered in the same process
got the first one's words (the Arabic bodies held Spanish "Ejemplo (12 líneas)" fold
labels, which no Arabic build could match, so every Arabic build parsed every body). That
process imports this very package (see :func:`_same_package_environment`).
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from sphinx.application import Sphinx
from sphinx.util.docutils import docutils_namespace, new_document

from .domain import glossary_domain
from .entry_bodies import fragment_html, node_kinds, parse_bodies, prerenderable
from .json_lines import dumps_by_line
from .loader import BUNDLED_LANGUAGES, bundled_glossary, bundled_path
from .prerendered import Prerendered, body_digest, prerendered_path
from .rendering import parse_summary
from .stored_summaries import SUMMARY_CANARY_TEXT, data_kinds, summary_data
from .stored_tables import serialized_tables, tables_path

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from docutils import nodes
    from docutils.frontend import Values
    from sphinx.environment import BuildEnvironment

    from .model import Glossary
    from .prerendered import NodeData

#: one of every construct the stored bodies use; a code block per language is added to it
CANARY_TEXT = """\
"Double" and 'single' quotes -- it's a *short* **strong** `literal`, a [link](https://example.org/a?b=1&c=2)
and a term: {term}`attention`... 1 < 2 & more.

- a bullet with `code`
- another, *with* {term}`tokenizer`

1. first
2. second

> quoted text, "in quotes"

```{note}
A note with `code` and a {term}`token`.
```

| left | right | plain |
| :--- | ---: | --- |
| *a* | 1 < 2 | {term}`epoch` |
"""


def _canary(languages: Sequence[str]) -> str:
    blocks = [CANARY_TEXT]
    for language in languages:
        blocks.append(f'```{language}\n>>> print("x")  # doctest: +SKIP\nx = 1 < 2  # "quoted"\n```\n')
    # a code block long enough to fold
    blocks.append("```text\n" + "".join(f"line {number}\n" for number in range(12)) + "```\n")
    return "\n".join(blocks)


def render_language(language: str) -> tuple[Prerendered, list[str]]:
    """One language's stored bodies, and the entries left to parsing (with why).

    The scratch build runs in its own docutils namespace, as ``sphinx-build`` runs one: the
    nodes, directives and roles it registers are taken back after it, so a build that
    follows in the same process (a test run) does not warn that they are registered twice.
    """
    with tempfile.TemporaryDirectory() as scratch, docutils_namespace():
        source = Path(scratch) / "source"
        source.mkdir()
        (source / "conf.py").write_text(
            f"extensions = ['sphinxcontrib_mlglossary']\nlanguage = {language!r}\n", encoding="utf-8"
        )
        (source / "index.rst").write_text("Scratch\n=======\n", encoding="utf-8")
        app = Sphinx(
            str(source),
            str(source),
            str(Path(scratch) / "html"),
            str(Path(scratch) / "doctrees"),
            "html",
            status=io.StringIO(),
            warning=io.StringIO(),
            freshenv=True,
        )
        app.build()
        env = app.env
        session = glossary_domain(env).session
        settings = env.get_doctree("index").settings
        glossary = bundled_glossary(language)
        bodies = {entry.id: entry.body for entry in glossary}
        parsed = parse_bodies(env, session, [(entry.id, entry.body, None) for entry in glossary], settings, "index")
        left: list[str] = []
        kept = {}
        for entry in glossary:
            reason = prerenderable(parsed[entry.id])
            if reason:
                left.append(f"{language} {entry.id}: {reason}")
            else:
                kept[entry.id] = parsed[entry.id]
        code_languages = sorted(
            {kind.split(":", 1)[1] for blocks in kept.values() for kind in node_kinds(blocks) if ":" in kind}
        )
        canary_text = _canary(code_languages)
        canary_blocks = parse_bodies(env, session, [("canary", canary_text, None)], settings, "index")["canary"]
        shown = node_kinds(canary_blocks)
        entries = {}
        for entry_id, blocks in kept.items():
            unshown = node_kinds(blocks) - shown
            if unshown:
                left.append(f"{language} {entry_id}: the canary shows no {', '.join(sorted(unshown))}")
                continue
            entries[entry_id] = (body_digest(bodies[entry_id]), fragment_html(app.builder, blocks))
        summary_canary, summaries = _summaries(glossary, domain_parse(env, settings), left, language)
        return (
            Prerendered(canary_text, fragment_html(app.builder, canary_blocks), entries, summary_canary, summaries),
            left,
        )


def domain_parse(env: BuildEnvironment, settings: Values) -> Callable[[str, str], tuple[nodes.Node, ...]]:
    """Parse a summary as a build does (entry id, text -> inline nodes)."""
    domain = glossary_domain(env)
    document = new_document("<mlglossary-prerender>", settings)
    document.settings.env = env
    return lambda entry_id, text: parse_summary(domain, text, document, entry_id=entry_id)


def _summaries(
    glossary: Glossary, parse: Callable[[str, str], tuple[nodes.Node, ...]], left: list[str], language: str
) -> tuple[tuple[str, tuple[NodeData, ...]], dict[str, tuple[str, tuple[NodeData, ...]]]]:
    """The summary canary and every summary it shows, as stored data (the others in ``left``)."""
    canary = summary_data(parse("canary", SUMMARY_CANARY_TEXT))
    shown = data_kinds(canary)
    summaries = {}
    for entry in glossary:
        try:
            data = summary_data(parse(entry.id, entry.summary))
        except ValueError as error:
            left.append(f"{language} {entry.id} (summary): {error}")
            continue
        unshown = data_kinds(data) - shown
        if unshown:
            left.append(f"{language} {entry.id} (summary): the canary shows no {', '.join(sorted(unshown))}")
            continue
        summaries[entry.id] = (body_digest(entry.summary), data)
    return (SUMMARY_CANARY_TEXT, canary), summaries


def serialized(prerendered: Prerendered) -> str:
    return dumps_by_line(prerendered.as_data(), levels=2, sort_keys=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sphinxcontrib_mlglossary.prerender", description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a stored file is stale")
    parser.add_argument("--language", action="append", choices=BUNDLED_LANGUAGES, help="only this language")
    arguments = parser.parse_args(argv)
    languages = arguments.language or list(BUNDLED_LANGUAGES)
    if len(languages) == 1:
        return _render_one(languages[0], check=arguments.check)
    status = 0
    for language in languages:  # a fresh process per language (see the module's docstring)
        command = [
            sys.executable,
            "-P",  # not the working folder's copy of the package: see _same_package_environment
            "-m",
            f"{__package__}.prerender",
            "--language",
            language,
            *(["--check"] if arguments.check else []),
        ]
        status = max(status, subprocess.run(command, check=False, env=_same_package_environment()).returncode)
    return status


def _same_package_environment() -> dict[str, str]:
    """The environment of a language's process: this package's folder first on its path.

    Started plainly, ``python -m`` imports the package from the working folder, whatever the
    parent imported: run on a copy of the package (the benchmarks' enlarged glossaries) from
    a checkout, the processes rendered the checkout's data into the checkout and left the
    copy's stored bodies stale, and every measured build parsed them.
    """
    parent = Path(__file__).resolve().parent.parent
    installed = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    if parent in installed:  # found there anyway; ahead of the standard library, it could shadow it
        return dict(os.environ)
    inherited = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(parent), *([inherited] if inherited else [])])}


def _render_one(language: str, *, check: bool) -> int:
    prerendered, left = render_language(language)
    stored = [
        (prerendered_path(language), serialized(prerendered)),
        (tables_path(language), serialized_tables(bundled_path(language).read_bytes())),
    ]
    if check:
        stale = [path for path, text in stored if _current(path) != text]
        for path in stale:
            print(f"stale, run python -m sphinxcontrib_mlglossary.prerender: {path}", file=sys.stderr)
        return 1 if stale else 0
    for line in left:
        print(f"parsed in every build: {line}", flush=True)
    for path, text in stored:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"{stored[0][0]}: {len(prerendered.entries)} bodies ({len(stored[0][1]) // 1024} KiB)", flush=True)
    print(f"{stored[1][0]}: the data file's tables ({len(stored[1][1]) // 1024} KiB)", flush=True)
    return 0


def _current(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.exists() else ""


if __name__ == "__main__":
    sys.exit(main())
