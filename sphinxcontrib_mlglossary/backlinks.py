"""Backlinks under each glossary entry: the pages (and sections) that cite it.

Drawn by a post-transform on the glossary page from the citations every page
recorded at read time. On incremental builds, :mod:`.rewrites` asks which glossary
pages' backlinks changed, so Sphinx rewrites them without re-reading.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.nodes import make_refnode

from .citations import AUTO, IN_GLOSSARY, PageCitations, citations
from .collector import definitions, user_terms
from .config import app_of, settings
from .i18n import _
from .matching import resolve_term
from .nodes import backlink_page, glossary_block
from .rewrites import sha1

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

#: (citing docname, positions of its citations there); positions index that page's
#: :class:`PageCitations`. Tuples, not lists: an index lives through the write phase,
#: and tuples of strings and ints drop out of the garbage collector's bookkeeping.
CitingPage = tuple[str, tuple[int, ...]]


@dataclass(slots=True)
class Cited:
    """The pages citing one entry, in reading order, and how many there are in all."""

    #: the first pages (all of them unless the index was built to keep fewer)
    pages: list[CitingPage] = field(default_factory=list)
    total: int = 0


#: (docname, anchor) of a glossary term -> the pages citing it
Index = dict[tuple[str, str], Cited]


def _glossary_pages(env: BuildEnvironment, with_user_glossaries: bool) -> set[str]:
    return set(definitions(env)) | (set(user_terms(env)) if with_user_glossaries else set())


def reading_order(env: BuildEnvironment) -> list[str]:
    """Documents in table-of-contents order (depth first from the root), then the rest sorted."""
    order: dict[str, None] = {}
    stack = [env.config.root_doc]
    while stack:
        docname = stack.pop()
        if docname in order or docname not in env.all_docs:
            continue
        order[docname] = None
        stack.extend(reversed(env.toctree_includes.get(docname, [])))
    return [*order, *sorted(set(env.all_docs) - set(order))]


class _Resolver:
    """Which entries a page's citations count for, with each distinct target resolved once.

    A large project cites the same few dozen names tens of thousands of times.
    """

    def __init__(self, env: BuildEnvironment, include_glossary: bool) -> None:
        self.env = env
        self.app = app_of(env)
        self.include_glossary = include_glossary
        self.include_auto = settings(self.app).autolink_backlinks
        self._resolved: dict[str, tuple[str, str] | None] = {}
        self._kept: dict[str, bool] = {}

    def entries_cited(self, record: PageCitations) -> dict[tuple[str, str], list[int]]:
        """(glossary docname, anchor) -> positions of the page's citations of it."""
        grouped: dict[tuple[str, str], list[int]] = defaultdict(list)
        for position, (target, flags) in enumerate(zip(record.targets, record.flags, strict=True)):
            if (flags & IN_GLOSSARY and not self.include_glossary) or (flags & AUTO and not self.include_auto):
                continue
            condition = record.only(position)
            if condition:
                if condition not in self._kept:
                    self._kept[condition] = _kept_by_only(self.app, condition)
                if not self._kept[condition]:
                    continue  # this format drops the block holding it: nothing to land on
            if target not in self._resolved:
                self._resolved[target] = resolve_term(self.env, target)
            entry = self._resolved[target]
            if entry is not None:
                grouped[entry].append(position)
        return grouped


def build_index(env: BuildEnvironment, include_glossary: bool, keep: int | None = None) -> Index:
    """Every citation resolved to its term, grouped by citing page.

    ``keep`` bounds how many citing pages are kept per entry (the rest are only
    counted): what the glossary page shows, without an entry per citing page of a large
    project held through the whole write phase.
    """
    index: Index = defaultdict(Cited)
    recorded = citations(env)
    resolver = _Resolver(env, include_glossary)
    for docname in reading_order(env):
        record = recorded.get(docname)
        if record is not None:
            for entry, positions in resolver.entries_cited(record).items():
                cited = index[entry]
                cited.total += 1
                if keep is None or len(cited.pages) < keep:
                    cited.pages.append((docname, tuple(positions)))
    return index


def _kept_by_only(app: Sphinx, condition: str) -> bool:
    """Whether this build keeps an ``only`` block (an expression Sphinx can't read keeps it, as Sphinx does)."""
    try:
        return bool(app.tags.eval_condition(condition))
    except Exception:
        return True


def page_title(env: BuildEnvironment, docname: str) -> str:
    return env.titles[docname].astext() if docname in env.titles else docname


#: attribute on the environment: glossary page -> fingerprint of its backlinks at the last build
DIGESTS = "mlglossary_backlink_digests"
#: attribute on the environment: citing page -> {glossary page: fingerprint of what it adds there}
CONTRIBUTIONS = "mlglossary_backlink_contributions"


def _contribution(env: BuildEnvironment, resolver: _Resolver, docname: str) -> dict[str, str]:
    """What one citing page adds to each glossary page's backlinks (title, sections, ids)."""
    record = citations(env).get(docname)
    if record is None:
        return {}
    title = page_title(env, docname)
    by_page: dict[str, list[object]] = defaultdict(list)
    for (glossary_page, anchor), positions in sorted(resolver.entries_cited(record).items()):
        first_section = record.sections[record.places[positions[0]]][1]
        by_page[glossary_page].append((anchor, title, first_section, positions))
    return {page: sha1(repr(found)) for page, found in by_page.items()}


def glossary_pages_to_rewrite(app: Sphinx, env: BuildEnvironment, touched: set[str], rules_changed: bool) -> list[str]:
    """Glossary pages whose backlinks differ from the last build.

    Each citing page's contribution is fingerprinted once and kept; an incremental
    build recomputes only the pages it purged (all of them when the rules changed),
    so its cost follows the edit, not the size of the project.
    """
    current = settings(app)
    if not current.backlinks:
        return []
    contributions: dict[str, dict[str, str]] = getattr(env, CONTRIBUTIONS, None) or {}
    stale = set(env.all_docs) if rules_changed else touched | (set(env.all_docs) - set(contributions))
    resolver = _Resolver(env, current.backlinks_from_glossary)
    for docname in stale & set(env.all_docs):
        contributions[docname] = _contribution(env, resolver, docname)
    for docname in set(contributions) - set(env.all_docs):
        del contributions[docname]
    setattr(env, CONTRIBUTIONS, contributions)

    order = reading_order(env)
    previous: dict[str, str] = getattr(env, DIGESTS, {})
    fresh = {}
    for page in _glossary_pages(env, current.backlinks_user_glossaries):
        shown = "\n".join(f"{d}\0{contributions[d][page]}" for d in order if page in contributions.get(d, {}))
        fresh[page] = sha1(shown)
    setattr(env, DIGESTS, fresh)
    return sorted(page for page, value in fresh.items() if previous.get(page) != value)


class Backlinks(SphinxPostTransform):
    """Append "Cited in" lists to the entries of a glossary page."""

    default_priority = 30

    def is_supported(self) -> bool:
        return app_of(self.env).builder.format != "gettext" and settings(app_of(self.env)).backlinks

    def run(self, **kwargs: Any) -> None:
        current = settings(app_of(self.env))
        if not _may_hold(self.env, _glossary_pages(self.env, current.backlinks_user_glossaries)):
            return
        terms = [
            term
            for term in self.document.findall(nodes.term)
            if term["ids"] and isinstance(term.parent, nodes.definition_list_item)
        ]
        if not terms:
            return
        # anchor -> defining page (singlehtml and LaTeX documents hold several pages)
        homes = {anchor: docname for docname, entries in definitions(self.env).items() for anchor in entries.values()}
        if current.backlinks_user_glossaries:
            homes.update((anchor, docname) for docname, found in user_terms(self.env).items() for anchor in found)
        index = _cached_index(app_of(self.env), current.backlinks_from_glossary, current.backlinks_max)
        for term in terms:
            anchor = term["ids"][0]
            cited = index.get((homes.get(anchor, ""), anchor))
            if cited is None or not cited.total:
                continue  # nothing cites it: say nothing
            definition = next((c for c in term.parent.children if isinstance(c, nodes.definition)), None)
            if definition is not None:
                definition += self._render(cited)

    def _link(self, docname: str, node_id: str, text: str) -> nodes.reference:
        builder = app_of(self.env).builder
        if builder.format in {"latex", "texinfo"}:
            # these writers join all pages into one file; a same-page "refid" would be
            # taken relative to the file being written, so always name the page
            uri = builder.get_target_uri(docname) + "#" + node_id
            return nodes.reference("", "", nodes.inline(text=text), internal=True, refuri=uri)
        if builder.get_target_uri(docname).startswith("#"):
            # every page is in this one HTML file (singlehtml): "#document-page#id" would
            # not scroll anywhere in a browser, the bare "#id" does (citation ids are unique)
            return nodes.reference("", "", nodes.inline(text=text), internal=True, refid=node_id)
        return make_refnode(builder, self.env.docname, docname, node_id, nodes.inline(text=text))

    def _render(self, cited: Cited) -> nodes.container:
        box = nodes.container(classes=["mlglossary-backlinks"])
        label = nodes.paragraph(classes=["mlglossary-backlinks-label"])
        label += nodes.strong(text=str(_("Cited in:")))
        box += label
        items = nodes.bullet_list(classes=["mlglossary-backlinks-list"])
        recorded = citations(self.env)
        for docname, found in cited.pages:
            record = recorded[docname]
            first = record.citation(found[0])
            title = page_title(self.env, docname)
            text = f"{title} › {first.section_title}" if first.section_title else title
            paragraph = nodes.paragraph()
            paragraph += self._link(docname, first.node_id, text)
            paragraph += backlink_page(docname=docname, refid=first.node_id)
            if len(found) > 1:
                more = nodes.inline(classes=["mlglossary-backlinks-more"])
                more += nodes.Text(f" ×{len(found)}: ")
                for number, position in enumerate(found[1:], start=2):
                    if number > 2:
                        more += nodes.Text(" ")
                    more += self._link(docname, record.node_id(position), str(number))
                paragraph += more
            items += nodes.list_item("", paragraph)
        box += items
        if cited.total > len(cited.pages):
            box += nodes.paragraph(
                text=str(_("and {count} more pages")).format(count=cited.total - len(cited.pages)),
                classes=["mlglossary-backlinks-overflow"],
            )
        return box


class CitedOnly(SphinxPostTransform):
    """Drop uncited entries from glossaries marked ``:cited-only:``.

    Only known once every page is read, hence a post-transform rather than the directive.
    """

    default_priority = 15  # before tooltips (20) so removed entries get no cards

    def run(self, **kwargs: Any) -> None:
        if not _may_hold(self.env, set(definitions(self.env))):
            return
        wrappers = [w for w in self.document.findall(glossary_block) if w.get("mlglossary_cited_only")]
        if not wrappers:
            return
        index = _cached_index(app_of(self.env), False, 0)
        cited = {anchor for (docname, anchor), found in index.items() if found.total}
        removed: set[str] = set()
        for wrapper in wrappers:
            for item in list(wrapper.findall(nodes.definition_list_item)):
                term = item.children[0] if item.children else None
                if isinstance(term, nodes.term) and term["ids"] and term["ids"][0] not in cited:
                    removed.update(term["ids"])
                    item.parent.remove(item)
            for glossary in list(wrapper.findall(addnodes.glossary)):
                if not any(True for _ in glossary.findall(nodes.definition_list_item)):
                    rubric = glossary.previous_sibling()
                    if isinstance(rubric, nodes.rubric):
                        rubric.parent.remove(rubric)
                    glossary.parent.remove(glossary)
        # links into removed entries would dangle: keep their text only
        for reference in list(self.document.findall(nodes.reference)):
            if reference.get("refid") in removed:
                reference.replace_self(reference.children)


def _may_hold(env: BuildEnvironment, glossary_pages: set[str]) -> bool:
    """Whether the document being written may hold entries of these glossary pages.

    Most pages can't, and looking would walk the whole page. A document assembled from
    several pages (singlehtml, LaTeX, texinfo, man, unknown builders) is always looked at.
    """
    return env.docname in glossary_pages or not _one_page_per_document(app_of(env).builder)


def _one_page_per_document(builder: Builder) -> bool:
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.builders.singlehtml import SingleFileHTMLBuilder
    from sphinx.builders.text import TextBuilder
    from sphinx.builders.xml import XMLBuilder

    return isinstance(builder, StandaloneHTMLBuilder | TextBuilder | XMLBuilder) and not isinstance(
        builder, SingleFileHTMLBuilder
    )


def _cached_index(app: Sphinx, include_glossary: bool, keep: int) -> Index:
    """One index per build and kind (citations don't change while pages are written)."""
    cache: dict[tuple[bool, int], Index] | None = getattr(app, "_mlglossary_backlink_index", None)
    if cache is None:
        cache = {}
        app._mlglossary_backlink_index = cache  # type: ignore[attr-defined]
    if (include_glossary, keep) not in cache:
        cache[(include_glossary, keep)] = build_index(app.env, include_glossary, keep)
    return cache[(include_glossary, keep)]


def reset_cache(app: Sphinx, *args: Any) -> None:
    """Drop the per-build index once reading is done (a new build may follow in this process)."""
    app._mlglossary_backlink_index = None  # type: ignore[attr-defined]
