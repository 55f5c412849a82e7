"""The ``mlglossary`` directive: bundled entries as Sphinx's own glossary structure.

We emit ``glossary > definition_list > definition_list_item > term + definition``
exactly like Sphinx's ``glossary`` directive, so ``:term:``, the index, themes and
every builder treat our entries as ordinary glossary terms.
"""

from __future__ import annotations

from itertools import groupby
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.util.docutils import SphinxDirective

from .diagnostics import MlGlossaryWarning, warn
from .domain import glossary_domain
from .entry_anchors import claim_anchor
from .entry_definitions import deferred, related_entries, see_also
from .entry_references import mark_references
from .folding import fold_long_examples
from .i18n import _
from .legacy_anchors import WANTED as WANTED_LEGACY_ANCHOR
from .loader import REFERENCE_LANGUAGE, GlossaryDataError, bundled_glossary, bundled_path
from .markup import render_blocks
from .nodes import glossary_block, letter_bar, letter_heading
from .plausible import plausible
from .prerendered import Prerendered, bundled_prerendered
from .sorting import letter, letter_id, sort_key
from .sources import BUNDLED, SourceSpec, data_location, load, report_refused, resolve_option
from .text_direction import direction

if TYPE_CHECKING:
    from sphinx.util.typing import OptionSpec

    from .model import Entry, Glossary


def _comma_list(argument: str | None) -> list[str]:
    return [part.strip() for part in (argument or "").split(",") if part.strip()]


class MlGlossaryDirective(SphinxDirective):
    """Render the bundled glossary (or a subset of it) and register its terms."""

    has_content = False
    #: the shipped bodies rendered ahead of time (None: parse every body)
    _stored: Prerendered | None = None
    _language = ""
    option_spec: ClassVar[OptionSpec] = {
        "terms": directives.unchanged,
        "tags": directives.unchanged,
        "cited-only": directives.flag,
        "source": directives.unchanged_required,
        "merge": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        language = glossary_domain(self.env).session.settings.language
        loaded = self._glossary(language)
        if loaded is None:
            return []
        spec, glossary = loaded
        # bodies rendered ahead of time exist for the shipped data only: a project's own file is always parsed
        self._stored = bundled_prerendered(language) if spec.bundled else None
        self._language = language
        self._known_targets: dict[str, bool] = {}
        entries = self._select(glossary)
        entries.sort(key=lambda entry: sort_key(entry.name, language))

        wrapper = glossary_block(classes=["mlglossary"], lang=language)
        if direction(language) == "rtl" or direction(language) != direction(self.config.language):
            wrapper["dir"] = direction(language)
        wrapper["mlglossary_cited_only"] = "cited-only" in self.options
        domain = glossary_domain(self.env)
        defined = domain.made_definitions.setdefault(self.env.docname, {})
        before = set(defined)
        # the bar is written from the letter headings left when the page is written
        wrapper += letter_bar(label=str(_("Jump to letter")), language=language)
        for heading, group in groupby(entries, key=lambda entry: letter(entry.name, language)):
            items = [item for entry in group if (item := self._item(entry, glossary, defined)) is not None]
            if not items:
                continue
            rubric = letter_heading(heading, heading, classes=["mlglossary-letter"], ids=[self._letter_id(heading)])
            self.state.document.ids[rubric["ids"][0]] = rubric
            glossary_node = addnodes.glossary()
            glossary_node["sorted"] = False  # already in the language's order
            glossary_node += nodes.definition_list("", *items, classes=["glossary"])
            wrapper += [rubric, glossary_node]
        made_here = [entry_id for entry_id in defined if entry_id not in before]
        _source, line = self.get_source_info()
        domain.definition_lines.setdefault(self.env.docname, {}).update((entry_id, line) for entry_id in made_here)
        if not spec.bundled:
            sources = domain.definition_sources.setdefault(self.env.docname, {})
            sources.update((entry_id, spec) for entry_id in made_here)
        self.set_source_info(wrapper)
        # We ship the translations ourselves: keep our text out of the project's .pot
        # and away from its translated messages.
        for text_node in wrapper.findall(nodes.TextElement):
            text_node["translatable"] = False
        return [wrapper]

    def _letter_id(self, heading: str) -> str:
        """The heading's id, unique on the page (a page may hold several glossaries)."""
        document = self.state.document
        base = candidate = letter_id(heading)
        suffix = 1
        while candidate in document.ids:
            suffix += 1
            candidate = f"{base}-{suffix}"
        return candidate

    def _glossary(self, language: str) -> tuple[SourceSpec, Glossary] | None:
        """The glossary to show: bundled, ``:source:``, or ``:source:`` merged on top (None after an error)."""
        session = glossary_domain(self.env).session
        if "source" not in self.options or "merge" in self.options:
            # the shipped data changes with an upgrade of the package: the page is read again
            for shipped in {language, REFERENCE_LANGUAGE}:
                self.env.note_dependency(str(bundled_path(shipped)))
        if "source" not in self.options:
            if "merge" in self.options:
                warn(
                    MlGlossaryWarning.OPTION,
                    "mlglossary :merge: needs :source: (the file to merge); showing the bundled glossary",
                    location=self.get_location(),
                )
            return BUNDLED, bundled_glossary(language)
        spec = resolve_option(self.env, session, self.options["source"], "merge" in self.options)
        self.env.note_dependency(spec.path)
        self._warn_if_also_a_page(spec.path)
        try:
            # quiet: the file's notices are reported once per build, after reading (.file_notices)
            glossary = load(session, spec, language, report=False)
        except GlossaryDataError as error:
            report_refused(error, f"mlglossary :source: {self.options['source']}", self.get_location())
            return None
        _source, line = self.get_source_info()
        glossary_domain(self.env).data_files.setdefault(self.env.docname, []).append((spec, line or 0))
        return spec, glossary

    def _warn_if_also_a_page(self, path: str) -> None:
        """A glossary file among the pages is also built as one: as written, with no cleaning."""
        docname = self.env.path2doc(path)
        if docname is not None and docname in self.env.found_docs:
            warn(
                MlGlossaryWarning.DATA,
                f"mlglossary :source: {self.options['source']} is also built as the page {docname!r}, as written "
                "(raw HTML, directives and all, none of the checks glossary data gets); "
                f"add {self.env.doc2path(docname, False)!s} to exclude_patterns in conf.py",
                location=self.get_location(),
            )

    def _select(self, glossary: Glossary) -> list[Entry]:
        """The entries the ``:terms:`` and ``:tags:`` options ask for (all when neither is set)."""
        wanted_terms = _comma_list(self.options.get("terms"))
        wanted_tags = _comma_list(self.options.get("tags"))
        if not wanted_terms and not wanted_tags:
            return list(glossary)
        chosen: dict[str, Entry] = {}
        for wanted in wanted_terms:
            entry = glossary.get(wanted) or glossary.find(wanted)
            if entry is None:
                hint = plausible(wanted, [e.id for e in glossary] + glossary.all_names(), limit=3)
                warn(
                    MlGlossaryWarning.OPTION,
                    f"mlglossary :terms: names unknown term {wanted!r}"
                    + (f"; did you mean {', '.join(map(repr, hint))}?" if hint else ""),
                    location=self.get_location(),
                )
                continue
            chosen[entry.id] = entry
        known_tags = {tag for entry in glossary for tag in entry.tags}
        for tag in wanted_tags:
            if tag not in known_tags:
                warn(
                    MlGlossaryWarning.OPTION,
                    f"mlglossary :tags: names tag {tag!r}, which no entry has "
                    f"(known tags: {', '.join(sorted(known_tags))})",
                    location=self.get_location(),
                )
        for entry in glossary:
            if set(entry.tags).intersection(wanted_tags):
                chosen.setdefault(entry.id, entry)
        return list(chosen.values())

    def _item(self, entry: Entry, glossary: Glossary, defined: dict[str, str]) -> nodes.definition_list_item | None:
        document = self.state.document
        if entry.id in defined:
            warn(
                MlGlossaryWarning.DUPLICATE_TERM,
                f"glossary entry {entry.name!r} appears twice on this page; the second is left out",
                location=self.get_location(),
            )
            return None
        anchor = claim_anchor(document, entry.anchor)
        term = self._term(entry, anchor)
        defined[entry.id] = anchor
        if self._stored is not None and self._stored.fragment(entry.id, entry.body) is not None:
            # made when the page is written: nothing for the read transforms to walk
            definition = nodes.definition("", deferred(entry, self._language, self.env.docname))
        else:
            definition = nodes.definition("", *self._body(entry, glossary))
            related = related_entries(entry, glossary)
            if related:
                definition += see_also(related, self._language, self.env.docname)
        item = nodes.definition_list_item("", term, definition)
        item["classes"] += ["mlglossary-entry", *(f"mlglossary-tag-{tag}" for tag in entry.tags)]
        return item

    def _body(self, entry: Entry, glossary: Glossary) -> list[nodes.Node]:
        """The entry's text, parsed here (a project's own file, or a body not stored)."""
        # warnings about the body point at the entry in its data file, not at this page
        session = glossary_domain(self.env).session
        location = data_location(session, entry)  # a merged glossary holds entries of two files
        parsed = render_blocks(
            session.entry_renderer(), entry.body, self.state.document, location=location, entry=entry.id
        )
        body = fold_long_examples(parsed)
        mark_references(body, glossary, self._known_targets)
        return body

    def _term(self, entry: Entry, anchor: str) -> nodes.term:
        """The term node, with its anchors and index entries.

        Its names are not registered here: whether another definition (the project's own
        term, or this entry on another page) takes one is only known once every page is
        read, where :mod:`.registration` registers them.
        """
        document = self.state.document
        source, line = self.get_source_info()
        term = nodes.term("", entry.heading, ids=[anchor])
        term.source, term.line = source, line
        document.ids[anchor] = term
        if entry.legacy_anchor:
            term[WANTED_LEGACY_ANCHOR] = entry.legacy_anchor  # given once the page is parsed (legacy_anchors)
        for name in (entry.name, *entry.abbreviations):
            index = addnodes.index(entries=[("single", name, anchor, "main", None)])
            index.source, index.line = source, line
            term += index
        return term
