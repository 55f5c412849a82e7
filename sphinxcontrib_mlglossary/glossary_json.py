"""``glossary.json``: the glossary as data, next to ``objects.inv`` on HTML builds.

Other tools (search boxes, editors, another project's tooltips) can read names,
summaries, URLs and backlinks without scraping HTML. The format is described by
``schema/glossary.schema.json``; ``version`` changes only on incompatible changes.
"""

from __future__ import annotations

import hashlib
import json
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util.docutils import new_document

from .backlinks import cached_index
from .citations import Cited
from .domain import MlGlossaryDomain, glossary_domain
from .model import fold
from .nodes import PIECES, card_batch
from .rendering import one_line, our_summary, page_title, plain_inline, resolve_summary_links
from .sources import entry_for
from .structured_data import element_id, page_url
from .term_pattern import linked_names

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

FILENAME = "glossary.json"
SCHEMA_PATH = Path(__file__).parent / "schema" / "glossary.schema.json"
FORMAT_VERSION = 1
#: builders whose output is a browsable site with objects.inv beside the pages
_SITE_BUILDERS = frozenset({"html", "dirhtml", "singlehtml"})


def write_glossary_json(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: write ``glossary.json`` into the output directory."""
    if exception is not None or app.builder.name not in _SITE_BUILDERS:
        return
    path = Path(app.outdir) / FILENAME
    stamp = Path(app.doctreedir) / f"mlglossary-{app.builder.name}-json.sha1"
    fingerprint = _inputs_fingerprint(app)
    if fingerprint and path.exists() and stamp.exists() and stamp.read_text(encoding="ascii") == fingerprint:
        return  # an incremental build that changed nothing the file shows
    with _as_page(app.env, app.config.root_doc):
        data = glossary_data(app)
    # compact: the C encoder only serves unindented output (indenting took longer than collecting)
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    if fingerprint:
        stamp.write_text(fingerprint, encoding="ascii")


def _inputs_fingerprint(app: Sphinx) -> str:
    """A hash of everything ``glossary.json`` is made from ("" when that can't be told).

    The fingerprints :mod:`.invalidation` keeps on ``env-get-updated`` cover it: backlink
    digests (citations, page titles) and the rules (terms, their pages and anchors, and
    the content of every entry and of the project's own terms).
    """
    from . import __version__

    domain = glossary_domain(app.env)
    digests, rules = domain.data["digests"], domain.data["rules"]
    if not rules or not domain.session.settings.backlinks:
        return ""
    parts = (
        FORMAT_VERSION,
        __version__,
        sorted(digests.items()),
        rules,
        app.config.project,
        domain.session.settings,
        app.config.root_doc,
    )
    return hashlib.sha1(repr(parts).encode()).hexdigest()


@contextmanager
def _as_page(env: BuildEnvironment, docname: str) -> Iterator[None]:
    """Rendering summaries after the build needs a current page (Sphinx 7.3 asks for one)."""
    current = getattr(env, "current_document", None)
    if current is not None and hasattr(current, "docname"):  # Sphinx 8.2 and later
        saved = current.docname
        current.docname = docname
        try:
            yield
        finally:
            current.docname = saved
        return
    missing = object()
    previous = env.temp_data.get("docname", missing)
    env.temp_data["docname"] = docname
    try:
        yield
    finally:
        if previous is missing:
            env.temp_data.pop("docname", None)
        else:
            env.temp_data["docname"] = previous


def _url(builder: Builder, docname: str, anchor: str) -> str:
    """URL of an anchor relative to the output directory (where the JSON file lives)."""
    if builder.name == "singlehtml":
        page = builder.config.root_doc + builder.out_suffix  # type: ignore[attr-defined]
    else:
        page = builder.get_target_uri(docname)
    return f"{page}#{anchor}"


def glossary_data(app: Sphinx) -> dict[str, Any]:
    """Every glossary term of the build with names, summary, URL and backlinks."""
    domain = glossary_domain(app.env)
    builder = app.builder
    current = domain.session.settings
    index = cached_index(domain, current.backlinks_from_glossary, None)
    titles: dict[str, str] = {}
    document = new_document("<mlglossary>")
    document.settings.env = app.env
    terms: list[dict[str, Any]] = []
    summaries = _Summaries(app)
    excluded = {fold(name) for name in current.autolink_exclude}
    included = {fold(name) for name in current.autolink_include}
    for docname in sorted(domain.definitions):
        for entry_id, anchor in domain.definitions[docname].items():
            entry = entry_for(domain, docname, entry_id)
            if entry is None:
                continue
            inline, plain = our_summary(domain, entry, document)
            terms.append(
                {
                    "id": entry.id,
                    "origin": "mlglossary",
                    "name": entry.name,
                    "abbreviations": list(entry.abbreviations),
                    "aliases": list(entry.aliases),
                    "autolink": list(linked_names(entry, excluded, included)) if current.autolink != "off" else [],
                    "summary": summaries.add(one_line(plain), inline),
                    "tags": list(entry.tags),
                    "see_also": list(entry.see_also),
                    "url": _url(builder, docname, anchor),
                    "backlinks": _backlinks(domain, builder, index.get((docname, anchor)), titles),
                }
            )
    for docname in sorted(domain.user_terms):
        for anchor, (text, paragraph) in domain.user_terms[docname].items():
            inline_nodes = tuple(plain_inline(paragraph)) if paragraph is not None else ()
            summary = paragraph.astext() if paragraph is not None else ""
            terms.append(
                {
                    "id": anchor.removeprefix("term-"),
                    "origin": "project",
                    "name": text,
                    "abbreviations": [],
                    "aliases": [],
                    "summary": summaries.add(one_line(summary), inline_nodes),
                    "tags": [],
                    "see_also": [],
                    "url": _url(builder, docname, anchor),
                    "backlinks": _backlinks(domain, builder, index.get((docname, anchor)), titles),
                }
            )
    summaries.render()
    return {
        "version": FORMAT_VERSION,
        "project": app.config.project,
        "language": current.language,
        "terms": terms,
        "structured_data": [
            f"{page_url(builder, docname)}#{element_id(builder, docname)}" for docname in sorted(domain.definitions)
        ],
    }


def _backlinks(
    domain: MlGlossaryDomain, builder: Builder, cited: Cited | None, titles: dict[str, str]
) -> list[dict[str, Any]]:
    recorded = domain.citations
    found = []
    for docname, positions in cited.pages if cited is not None else ():
        first = recorded[docname].citation(positions[0])
        if docname not in titles:
            titles[docname] = page_title(domain.env, docname)
        found.append(
            {
                "page": docname,
                "title": titles[docname],
                "section": first.section_title or None,
                "url": _url(builder, docname, domain.citation_id(docname, positions[0]) or ""),
                "count": len(positions),
            }
        )
    return found


class _Summaries:
    """The terms' summaries, their HTML written by one ``render_partial`` call: one call per
    summary took longer than everything else the file needs."""

    def __init__(self, app: Sphinx) -> None:
        self._app = app
        self._pending: list[tuple[dict[str, str], nodes.paragraph]] = []

    def add(self, text: str, inline: tuple[nodes.Node, ...]) -> dict[str, str]:
        """A term's ``summary`` object; its ``html`` is filled in by :meth:`render`."""
        summary = {"text": text, "html": ""}
        if inline:
            app = self._app
            paragraph = nodes.paragraph()
            paragraph.extend(
                resolve_summary_links(app.env, app.builder, app.config.root_doc, node.deepcopy()) for node in inline
            )
            self._pending.append((summary, paragraph))
        return summary

    def render(self) -> None:
        """Write every summary, term links resolved relative to the output root."""
        if not self._pending:
            return
        batch = card_batch()
        batch.extend(paragraph for _summary, paragraph in self._pending)
        self._app.builder.render_partial(batch)  # type: ignore[attr-defined]
        for (summary, _paragraph), html in zip(self._pending, batch[PIECES], strict=True):
            summary["html"] = html.strip().removeprefix("<p>").removesuffix("</p>").strip()
