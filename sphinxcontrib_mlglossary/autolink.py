"""Optional auto-linking: plain-text mentions of glossary terms become term references.

Runs at read time, after translation (so translated pages are linked in their own
language) and before the page's citations are collected, so auto-links get citation
ids, tooltips and (when configured) backlinks like written ``{term}`` references.
Only the ML glossary's entries are linked: their names are known before any page is
read, which keeps the result independent of reading order and of ``-j``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform

from .config import AUTOLINK_MODES
from .diagnostics import MlGlossaryWarning, warn
from .domain import session_of
from .everyday_senses import has_other_sense, other_sense
from .exclusions import Exclusions, page_exclusions
from .line_joins import join_adjacent_texts
from .ml_context import (
    MlSections,
    ml_sections,
    names_a_model,
    names_another_entry,
    next_to_a_name,
    quoted,
    sentence_about_ml,
    sentence_around,
)
from .name_runs import part_of_longer_name
from .nodes import AUTOLINK, AUTOLINK_CLASS, glossary_block
from .paragraph_text import Paragraphs
from .protected_phrases import covered
from .term_pattern import Match, TermPattern

if TYPE_CHECKING:
    from collections.abc import Iterator

#: page metadata that overrides the mode for one page (``off``, ``first``, ``section``, ``all``)
METADATA_FIELDS = ("mlglossary-autolink", "mlglossary_autolink")

_OFF = frozenset({"off", "false", "no", "0", "none"})

#: elements whose text is never linked: code, math, headings, captions, links, existing
#: references, field lists, glossaries and other non-prose
_NEVER_INSIDE: tuple[type, ...] = (
    nodes.FixedTextElement,  # literal blocks, doctest blocks, comments, raw, math blocks
    nodes.literal,  # inline code, :kbd:, :file:, :samp:
    addnodes.literal_strong,
    addnodes.literal_emphasis,
    nodes.caption,  # figure, table, code-block and toctree captions
    nodes.thead,  # a table's head row labels its columns, like a heading
    nodes.field_list,  # parameter lists, page metadata, option tables
    nodes.label,
    nodes.math,
    nodes.raw,
    nodes.reference,
    nodes.target,
    nodes.Titular,  # section titles, subtitles, rubrics, topic titles
    nodes.term,
    nodes.field_name,
    nodes.option_list,
    nodes.substitution_definition,
    nodes.footnote_reference,
    nodes.citation_reference,
    nodes.abbreviation,
    nodes.acronym,
    nodes.image,
    nodes.docinfo,
    nodes.Invisible,  # comments, targets, substitution definitions, pending transforms
    nodes.system_message,  # docutils' INFO "Duplicate implicit target name", hidden below the report level
    nodes.meta,
    addnodes.pending_xref,
    addnodes.glossary,
    addnodes.desc_signature,
    addnodes.toctree,
    addnodes.index,
    glossary_block,
)

#: classes of inline elements that name things on screen or in code: ``:guilabel:``,
#: ``:menuselection:``, ``:command:``, ``:program:``, ``:kbd:`` (in every parser)
_NEVER_CLASSES = frozenset({"guilabel", "menuselection", "command", "program", "kbd", "file", "samp", "regexp"})


class AutoLinker(SphinxTransform):
    """Turn plain mentions of glossary terms into term references."""

    # after translation (i18n, 20), substitutions (220) and docinfo (340)
    default_priority = 400

    def apply(self, **kwargs: Any) -> None:
        session = session_of(self.env)
        current = session.settings
        mode = _page_mode(self.document, current.autolink)
        if mode == "off" or any(True for _ in self.document.findall(_is_glossary)):
            return  # never on a glossary page: ours, or one of the project's own
        join_adjacent_texts(self.document)  # MyST's soft line breaks split names and their neighbours
        glossary = session.glossary()
        every_name = session.pattern(glossary, (), tuple(entry.id for entry in glossary.entries))
        excluded = page_exclusions(self.document, self.env.docname, glossary, current.autolink_exclude, every_name)
        pattern = session.pattern(glossary, excluded.entries, current.autolink_include)
        names = {entry.id: entry.name for entry in glossary.entries}
        linked = _explicit_citations(self.document, pattern, mode)
        self._base_pattern = pattern
        self._language = current.language
        texts = list(_prose_texts(self.document, mode))
        in_context = self._context_pattern(pattern, excluded, [text for text, _ in texts])
        self._cued = self._cued_entries(every_name) if in_context is not None else frozenset()
        self._paragraphs = Paragraphs(pattern, pattern if in_context is None else in_context[1])
        for text, scope in texts:
            if in_context is None:
                self._link(text, scope, pattern, names, linked, mode, excluded)
            elif in_context[0].holds(text):
                self._link(text, scope, in_context[1], names, linked, mode, excluded, in_context_section=True)
            else:  # outside the ML sections: an everyday word only in a sentence about ML
                self._link(text, scope, in_context[1], names, linked, mode, excluded, by_sentence=True)

    def _context_pattern(
        self, pattern: TermPattern, excluded: Exclusions, texts: list[nodes.Text]
    ) -> tuple[MlSections, TermPattern] | None:
        """The sections about ML and the pattern linking the everyday names there (None: none)."""
        session = session_of(self.env)
        current = session.settings
        included = current.context_included()
        if included is None:
            return None
        cited = [
            (xref, entry_id)
            for xref in self.document.findall(addnodes.pending_xref)
            if xref.get("reftype") == "term" and (entry_id := pattern.entry_of(xref.get("reftarget", ""))) is not None
        ]
        sections = ml_sections(self.document, texts, pattern, cited, current.autolink_context)
        return sections, session.pattern(session.glossary(), excluded.entries, included)

    def _cued_entries(self, every_name: TermPattern) -> frozenset[str]:
        """The entries whose everyday names need a cue in their sentence (those also in
        ``mlglossary_autolink_context_names`` or ``mlglossary_autolink_include`` don't)."""
        current = session_of(self.env).settings

        def ids(items: tuple[str, ...]) -> set[str]:
            return {entry_id for item in items if (entry_id := every_name.entry_of(item) or item)}

        return frozenset(
            ids(current.autolink_context_cued_names)
            - ids(current.autolink_context_names)
            - ids(current.autolink_include)
        )

    def _link(
        self,
        text: nodes.Text,
        scope: int,
        pattern: TermPattern,
        names: dict[str, str],
        linked: set[tuple[int, str]],
        mode: str,
        excluded: Exclusions,
        in_context_section: bool = False,
        by_sentence: bool = False,
    ) -> None:
        source = str(text)
        pieces: list[nodes.Node] = []
        position = 0
        anyway = self._linked_anyway(source) if in_context_section or by_sentence else {}
        for match in self._wanted(source, pattern, excluded):
            if self._other_sense_here(text, match):
                continue  # the sentence speaks of the word's other sense: the Unix epoch, an access token
            if (
                (in_context_section or by_sentence)
                and (match.start, match.end) not in anyway
                and not self._everyday_word_wanted(text, match, by_sentence)
            ):
                continue
            key = (scope, match.entry_id)
            if mode != "all" and key in linked:
                continue
            linked.add(key)
            if match.start > position:
                pieces.append(nodes.Text(source[position : match.start]))
            pieces.append(self._reference(source[match.start : match.end], names[match.entry_id]))
            position = match.end
        if not pieces:
            return
        if position < len(source):
            pieces.append(nodes.Text(source[position:]))
        parent = text.parent
        index = parent.index(text)
        parent[index : index + 1] = pieces

    def _other_sense_here(self, text: nodes.Text, match: Match) -> bool:
        """Whether the sentence of a mention speaks of the other sense of its name (read
        across the paragraph's inline markup), for the entries whose other sense is known."""
        if not has_other_sense(match.entry_id, self._language):
            return False
        paragraph, shift = self._paragraphs.around(text)
        begin, finish = sentence_around(paragraph.text, match.start + shift, match.end + shift)
        return other_sense(paragraph.text[begin:finish], match.entry_id, self._language)

    def _everyday_word_wanted(self, text: nodes.Text, match: Match, by_sentence: bool) -> bool:
        """Whether an everyday word (of the context lists) means the ML sense here. Its
        sentence is read across the inline markup of its paragraph."""
        source = str(text)
        if quoted(source, match.start, match.end) or next_to_a_name(text, source, match.start, match.end):
            return False  # in quotes, or next to a name: names a column, a mode, an argument
        paragraph, shift = self._paragraphs.around(text)
        start, end = match.start + shift, match.end + shift
        if match.entry_id in self._cued:  # a word of two senses: in an ML section, with a cue
            return not by_sentence and (
                names_another_entry(paragraph.text, start, end, paragraph.named, match.entry_id)
                or names_a_model(paragraph.text, start, end, self._language)
            )
        return not by_sentence or sentence_about_ml(
            paragraph.text, start, end, paragraph.anyway, match.entry_id, self._language
        )

    def _linked_anyway(self, source: str) -> dict[tuple[int, int], str]:
        """The spans the base pattern (without the context names) finds in ``source``, with their entries."""
        return {(m.start, m.end): m.entry_id for m in self._base_pattern.finditer(source)}

    def _wanted(self, source: str, pattern: TermPattern, excluded: Exclusions) -> Iterator[Match]:
        """The matches to link: none inside a protected phrase or a longer capitalised name.

        A match left alone uses up nothing: the next mention is still the "first".
        """
        protected = excluded.phrases.spans(source)
        language = session_of(self.env).settings.language
        for match in pattern.finditer(source):
            if covered(protected, match.start, match.end):
                continue
            if part_of_longer_name(source, match.start, match.end, language):
                continue
            yield match

    def _reference(self, written: str, target: str) -> addnodes.pending_xref:
        # no "std-term" class: if the term turns out to be on no glossary page, the
        # inline left behind must read as plain text, not as a broken term link
        content = nodes.inline(written, written, classes=[AUTOLINK_CLASS])
        xref = addnodes.pending_xref(
            written,
            content,
            refdomain="std",
            reftype="term",
            reftarget=target.lower(),
            refexplicit=True,
            refwarn=True,
            refdoc=self.env.docname,
        )
        xref[AUTOLINK] = True
        return xref


def _is_glossary(node: nodes.Node) -> bool:
    return isinstance(node, addnodes.glossary | glossary_block)


def _page_mode(document: nodes.document, configured: str) -> str:
    """The configured mode, unless the page's metadata says otherwise."""
    for docinfo in (child for child in document.children if isinstance(child, nodes.docinfo)):
        for field in docinfo.findall(nodes.field):
            name = field[0].astext().strip().lower()
            if name not in METADATA_FIELDS:
                continue
            value = field[1].astext().strip().lower()
            if value in _OFF:
                return "off"
            if value in AUTOLINK_MODES:
                return value
            warn(
                MlGlossaryWarning.CONFIG,
                f"page metadata {name}: {value!r} is not one of off, {', '.join(AUTOLINK_MODES)}; using {configured!r}",
                location=field,
            )
    return configured


def _scope_of(node: nodes.Node, mode: str) -> int:
    """The scope "first" counts in: the ``only`` block holding the node, else its section
    (``section`` mode) or the page."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, addnodes.only) or (mode == "section" and isinstance(parent, nodes.section)):
            return id(parent)
        parent = parent.parent
    return 0


def _explicit_citations(document: nodes.document, pattern: TermPattern, mode: str) -> set[tuple[int, str]]:
    """Entries the writer cited explicitly, per scope: auto-linking leaves those alone."""
    cited = set()
    for xref in document.findall(addnodes.pending_xref):
        if xref.get("reftype") == "term" and xref.get("refdomain") == "std":
            entry_id = pattern.entry_of(xref.get("reftarget", ""))
            if entry_id is not None:
                cited.add((_scope_of(xref, mode), entry_id))
    return cited


def _prose_texts(document: nodes.document, mode: str) -> Iterator[tuple[nodes.Text, int]]:
    """Text nodes of running prose in document order, with their scope, pruning excluded subtrees."""
    stack: list[tuple[nodes.Node, int]] = [(document, 0)]
    while stack:
        node, scope = stack.pop()
        if isinstance(node, nodes.Text):
            if node.strip():
                yield node, scope
            continue
        if isinstance(node, _NEVER_INSIDE):
            continue
        if isinstance(node, nodes.Element) and not _NEVER_CLASSES.isdisjoint(node.get("classes", ())):
            continue
        if isinstance(node, addnodes.only) or (mode == "section" and isinstance(node, nodes.section)):
            # an ``only`` block may be dropped for this builder: a mention in it uses up
            # nothing outside it (the doctree is shared by every builder, so it can't be decided here)
            scope = id(node)
        stack.extend((child, scope) for child in reversed(node.children))  # type: ignore[attr-defined]
