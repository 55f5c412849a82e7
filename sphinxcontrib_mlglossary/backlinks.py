"""Backlinks under each glossary entry: the pages (and sections) that cite it.

Drawn by a post-transform on the glossary page from the citations every page
recorded at read time. On incremental builds, ``env-get-updated`` names the glossary
pages whose backlinks changed, so Sphinx rewrites them without re-reading.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.nodes import make_refnode

from .citations import Citation, citations
from .collector import definitions, user_terms
from .config import app_of, settings
from .i18n import _
from .matching import resolve_term
from .nodes import backlink_page, glossary_block

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: (docname, anchor) of a glossary term -> [(citing docname, citations there)] in reading order
Index = dict[tuple[str, str], list[tuple[str, list[Citation]]]]

DIGESTS = "mlglossary_backlink_digests"


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


def build_index(env: BuildEnvironment, include_glossary: bool) -> Index:
    """Every citation resolved to its term, grouped by citing page."""
    index: Index = defaultdict(list)
    recorded = citations(env)
    include_auto = settings(app_of(env)).autolink_backlinks
    for docname in reading_order(env):
        grouped: dict[tuple[str, str], list[Citation]] = defaultdict(list)
        for citation in recorded.get(docname, ()):
            if (citation.in_glossary and not include_glossary) or (citation.auto and not include_auto):
                continue
            if citation.only and not _kept_by_only(app_of(env), citation.only):
                continue  # this format drops the block holding it: nothing to land on
            target = resolve_term(env, citation.target)
            if target is not None:
                grouped[target].append(citation)
        for target, cited in grouped.items():
            index[target].append((docname, cited))
    return index


def _kept_by_only(app: Sphinx, condition: str) -> bool:
    """Whether this build keeps an ``only`` block (an expression Sphinx can't read keeps it, as Sphinx does)."""
    try:
        return bool(app.tags.eval_condition(condition))
    except Exception:
        return True


def _digest(env: BuildEnvironment, index: Index, page: str) -> str:
    """Fingerprint of everything the backlinks of ``page`` show."""
    lines = []
    for (docname, anchor), cited in sorted(index.items()):
        if docname != page:
            continue
        for citing, found in cited:
            title = env.titles[citing].astext() if citing in env.titles else citing
            lines.append(repr((anchor, citing, title, [tuple(c) for c in found])))
    return hashlib.sha1("\n".join(lines).encode()).hexdigest()


def pages_to_rewrite(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: glossary pages whose backlinks differ from the last build."""
    current = settings(app)
    if not current.backlinks:
        return []
    index = build_index(env, current.backlinks_from_glossary)
    previous: dict[str, str] = getattr(env, DIGESTS, {})
    fresh = {page: _digest(env, index, page) for page in _glossary_pages(env, current.backlinks_user_glossaries)}
    setattr(env, DIGESTS, fresh)
    return sorted(page for page, value in fresh.items() if previous.get(page) != value)


class Backlinks(SphinxPostTransform):
    """Append "Cited in" lists to the entries of a glossary page."""

    default_priority = 30

    def is_supported(self) -> bool:
        return app_of(self.env).builder.format != "gettext" and settings(app_of(self.env)).backlinks

    def run(self, **kwargs: Any) -> None:
        terms = [
            term
            for term in self.document.findall(nodes.term)
            if term["ids"] and isinstance(term.parent, nodes.definition_list_item)
        ]
        if not terms:
            return
        # anchor -> defining page (singlehtml and LaTeX documents hold several pages)
        homes = {anchor: docname for docname, entries in definitions(self.env).items() for anchor in entries.values()}
        current = settings(app_of(self.env))
        if current.backlinks_user_glossaries:
            homes.update((anchor, docname) for docname, found in user_terms(self.env).items() for anchor in found)
        index = _cached_index(app_of(self.env), current.backlinks_from_glossary)
        for term in terms:
            anchor = term["ids"][0]
            cited = index.get((homes.get(anchor, ""), anchor))
            if not cited:
                continue  # nothing cites it: say nothing
            definition = next((c for c in term.parent.children if isinstance(c, nodes.definition)), None)
            if definition is not None:
                definition += self._render(cited, current.backlinks_max)

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

    def _render(self, cited: list[tuple[str, list[Citation]]], limit: int) -> nodes.container:
        box = nodes.container(classes=["mlglossary-backlinks"])
        label = nodes.paragraph(classes=["mlglossary-backlinks-label"])
        label += nodes.strong(text=str(_("Cited in:")))
        box += label
        items = nodes.bullet_list(classes=["mlglossary-backlinks-list"])
        for docname, found in cited[:limit]:
            first = found[0]
            page_title = self.env.titles[docname].astext() if docname in self.env.titles else docname
            text = f"{page_title} › {first.section_title}" if first.section_title else page_title
            paragraph = nodes.paragraph()
            paragraph += self._link(docname, first.node_id, text)
            paragraph += backlink_page(docname=docname, refid=first.node_id)
            if len(found) > 1:
                more = nodes.inline(classes=["mlglossary-backlinks-more"])
                more += nodes.Text(f" ×{len(found)}: ")
                for number, citation in enumerate(found[1:], start=2):
                    if number > 2:
                        more += nodes.Text(" ")
                    more += self._link(docname, citation.node_id, str(number))
                paragraph += more
            items += nodes.list_item("", paragraph)
        box += items
        if len(cited) > limit:
            box += nodes.paragraph(
                text=str(_("and {count} more pages")).format(count=len(cited) - limit),
                classes=["mlglossary-backlinks-overflow"],
            )
        return box


class CitedOnly(SphinxPostTransform):
    """Drop uncited entries from glossaries marked ``:cited-only:``.

    Only known once every page is read, hence a post-transform rather than the directive.
    """

    default_priority = 15  # before tooltips (20) so removed entries get no cards

    def run(self, **kwargs: Any) -> None:
        wrappers = [w for w in self.document.findall(glossary_block) if w.get("mlglossary_cited_only")]
        if not wrappers:
            return
        index = _cached_index(app_of(self.env), False)
        cited = {anchor for (docname, anchor), found in index.items() if found}
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


def _cached_index(app: Sphinx, include_glossary: bool) -> Index:
    """One index per build (citations don't change while pages are written)."""
    cache: dict[bool, Index] | None = getattr(app, "_mlglossary_backlink_index", None)
    if cache is None:
        cache = {}
        app._mlglossary_backlink_index = cache  # type: ignore[attr-defined]
    if include_glossary not in cache:
        cache[include_glossary] = build_index(app.env, include_glossary)
    return cache[include_glossary]


def reset_cache(app: Sphinx, *args: Any) -> None:
    """Drop the per-build index once reading is done (a new build may follow in this process)."""
    app._mlglossary_backlink_index = None  # type: ignore[attr-defined]
