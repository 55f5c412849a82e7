"""What the reader sees of an entry away from its glossary page, built in one place.

Summaries (rendered once per build) and "Cited in" lists are made here, for tooltip
cards (:mod:`.card_contents`), backlinks and ``glossary.json`` alike; the transforms
and hooks that use them only decide where they go.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from docutils import nodes
from docutils.utils import new_document
from sphinx import addnodes
from sphinx.util.docutils import sphinx_domains
from sphinx.util.nodes import make_refnode

from .i18n import _, ngettext
from .markup import render_inline
from .nodes import LABEL, backlink_page, citation_numbers
from .single_page import BUILDER as SINGLE_PAGE
from .single_page import land_on_the_page
from .sources import data_location
from .stored_summaries import stored_summary

if TYPE_CHECKING:
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

    from .citations import Cited
    from .domain import MlGlossaryDomain
    from .model import Entry


# -- summaries ---------------------------------------------------------------------------


def our_summary(domain: MlGlossaryDomain, entry: Entry, document: nodes.document) -> tuple[tuple[nodes.Node, ...], str]:
    """An entry's summary as inline nodes (copy before use) and as one line of text, once per build.

    A shipped summary is made from its stored nodes (:mod:`.stored_summaries`) where this
    build's MyST parses the stored canary alike; any other is parsed.
    """
    session = domain.session
    language = session.settings.language
    key = (language, entry.id, entry.summary)  # the summary too: an id may come from several glossary files
    if key not in session.summaries:
        inline = stored_summary(
            domain, language, entry, lambda text: parse_summary(domain, text, document), _reading_docname(domain.env)
        )
        if inline is None:
            inline = parse_summary(
                domain, entry.summary, document, location=data_location(session, entry), entry_id=entry.id
            )
        session.summaries[key] = (inline, "".join(node.astext() for node in inline))
    return session.summaries[key]


def parse_summary(
    domain: MlGlossaryDomain, text: str, document: nodes.document, *, location: Any = None, entry_id: str = ""
) -> tuple[nodes.Node, ...]:
    """A summary's MyST parsed into inline nodes."""
    session = domain.session
    # roles such as {term} are only looked up through Sphinx's domains while reading;
    # outside that phase, switch the lookup on for the time of the render. Render into
    # a scratch document with the first page's settings: a role object keeps the
    # document of its last use, which would keep that page alive for the rest of the
    # build. One scratch document serves every summary: MyST makes a throwaway
    # document (a few milliseconds) each time it is pointed at another one.
    if session.summary_document is None:
        session.summary_document = new_document(document.get("source", "<mlglossary>"), document.settings)
    scratch = session.summary_document
    with sphinx_domains(domain.env), lent_page(domain.env):
        return tuple(render_inline(session.entry_renderer(), text, scratch, location=location, entry=entry_id))


def _reading_docname(env: BuildEnvironment) -> str:
    """The page a role records on the cross-references it makes in :func:`parse_summary`."""
    with lent_page(env):
        return str(env.docname)


@contextmanager
def lent_page(env: BuildEnvironment) -> Iterator[None]:
    """Sphinx before 8.2 asks a role for the page being read, and raises outside reading: lend one."""
    if hasattr(env, "current_document") or "docname" in env.temp_data:
        yield
        return
    env.temp_data["docname"] = env.config.root_doc
    try:
        yield
    finally:
        env.temp_data.pop("docname", None)


def plain_inline(paragraph: nodes.paragraph) -> list[nodes.Node]:
    """Children of a user's paragraph with unresolved cross-references flattened to their text."""
    copy = paragraph.deepcopy()
    for xref in list(copy.findall(addnodes.pending_xref)):
        xref.replace_self(xref.children[0] if xref.children else nodes.Text(xref.astext()))
    for index in list(copy.findall(addnodes.index)):
        index.parent.remove(index)
    return list(copy.children)


def one_line(text: str) -> str:
    return " ".join(text.split())


def resolve_summary_links(env: BuildEnvironment, builder: Builder, fromdoc: str, node: nodes.Node) -> nodes.Node:
    """Term links inside a summary resolved for ``fromdoc``; other cross-references become text."""
    if isinstance(node, addnodes.pending_xref):
        return _resolve_xref(env, builder, fromdoc, node)
    if isinstance(node, nodes.Element):
        for xref in list(node.findall(addnodes.pending_xref)):
            xref.replace_self(_resolve_xref(env, builder, fromdoc, xref))
    return node


def _resolve_xref(env: BuildEnvironment, builder: Builder, fromdoc: str, xref: addnodes.pending_xref) -> nodes.Node:
    content = xref.children[0] if xref.children else nodes.Text(xref.get("reftarget", ""))
    if xref.get("refdomain") == "std" and xref.get("reftype") == "term":
        std = env.get_domain("std")
        resolved = std.resolve_xref(env, fromdoc, builder, "term", xref["reftarget"], xref, content)  # type: ignore[arg-type]
        if resolved is not None:
            if builder.name == SINGLE_PAGE:
                land_on_the_page(resolved)
            return resolved
    return content


# -- "Cited in" lists --------------------------------------------------------------------


def page_title(env: BuildEnvironment, docname: str) -> str:
    return env.titles[docname].astext() if docname in env.titles else docname


def backlink_list(domain: MlGlossaryDomain, builder: Builder, fromdoc: str, cited: Cited) -> nodes.container:
    """The "Cited in" block of one entry, its links written for the page ``fromdoc``.

    One line per citing page: "page › section" linking to its first citation; where a
    page cites the entry more than once, the count in words and a numbered link to
    each citation (see :class:`~.nodes.citation_numbers` for what each format writes).
    """
    box = nodes.container(classes=["mlglossary-backlinks"])
    label = nodes.paragraph(classes=["mlglossary-backlinks-label"])
    label += nodes.strong(text=str(_("Cited in:")))
    box += label
    items = nodes.bullet_list(classes=["mlglossary-backlinks-list"])
    recorded = domain.citations
    for docname, found in cited.pages:
        record = recorded[docname]
        first = record.citation(found[0])
        first_id = domain.citation_id(docname, found[0]) or ""
        title = page_title(domain.env, docname)
        text = f"{title} › {first.section_title}" if first.section_title else title
        paragraph = nodes.paragraph()
        paragraph += _backlink(builder, fromdoc, docname, first_id, text)
        if len(found) == 1:
            paragraph += backlink_page(docname=docname, refid=first_id)
        else:
            node_ids = [domain.citation_id(docname, position) or "" for position in found]
            paragraph += _numbers(builder, fromdoc, docname, title, node_ids)
        items += nodes.list_item("", paragraph)
    box += items
    if cited.total > len(cited.pages):
        rest = cited.total - len(cited.pages)
        box += nodes.paragraph(
            text=ngettext("and {count} more page", "and {count} more pages", rest).format(count=rest),
            classes=["mlglossary-backlinks-overflow"],
        )
    return box


def _numbers(builder: Builder, fromdoc: str, docname: str, title: str, node_ids: list[str]) -> citation_numbers:
    """The count in words ("3 citations") and links numbered 1 to 3, named for screen readers ("citation 2 on Guide")."""
    count = len(node_ids)
    numbers = citation_numbers(
        count=ngettext("{count} citation", "{count} citations", count).format(count=count),
        places=[(docname, node_id) for node_id in node_ids],
    )
    for number, node_id in enumerate(node_ids, start=1):
        link = _backlink(builder, fromdoc, docname, node_id, str(number))
        link[LABEL] = str(_("citation {number} on {page}")).format(number=number, page=title)
        numbers += link
    return numbers


def _backlink(builder: Builder, fromdoc: str, docname: str, node_id: str, text: str) -> nodes.Element:
    if builder.format in {"text", "man"}:
        # no links in these formats: a reference would print its "#id" target (man)
        return nodes.inline(text=text)
    if builder.format in {"latex", "texinfo"}:
        # these writers join all pages into one file; a same-page "refid" would be
        # taken relative to the file being written, so always name the page
        uri = builder.get_target_uri(docname) + "#" + node_id
        return nodes.reference("", "", nodes.inline(text=text), internal=True, refuri=uri)
    if builder.get_target_uri(docname).startswith("#"):
        # every page is in this one HTML file (singlehtml): "#document-page#id" would
        # not scroll anywhere in a browser, the bare "#id" does (citation ids are unique)
        return nodes.reference("", "", nodes.inline(text=text), internal=True, refid=node_id)
    return make_refnode(builder, fromdoc, docname, node_id, nodes.inline(text=text))
