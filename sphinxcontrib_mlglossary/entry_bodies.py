"""An entry body away from its page: parsed into nodes, and written to HTML split at its links.

One pipeline serves three callers, so what they compare is made the same way: the
generator of the stored bodies (:mod:`.prerender`), the check a build makes before using
them (a canary body rendered by the build's own builder, :mod:`.body_expansion`), and
the pages that need a stored body as nodes after all (formats other than HTML).

What a body goes through on its page and here: MyST with the entry guards
(:func:`~.markup.render_blocks`), long examples folded, smart quotes (the only read
transform that changes such a body: the stored bodies hold no label, image, maths,
footnote or code block without a language, see :func:`prerenderable`), then, when
written, the highlight language and doctest-flag post-transforms and the builder's
own translator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from docutils.utils import new_document
from sphinx import addnodes
from sphinx.transforms import SphinxSmartQuotes
from sphinx.transforms.post_transforms.code import HighlightLanguageTransform, TrimDoctestFlagsTransform
from sphinx.util.docutils import sphinx_domains

from .folding import fold_long_examples
from .markup import render_blocks
from .nodes import example_fold
from .prerendered import LINK_MARK, Fragment, node_data
from .rendering import lent_page

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

    from .session import BuildSession


def parse_bodies(
    env: BuildEnvironment,
    session: BuildSession,
    texts: Iterable[tuple[str, str, Any]],
    settings: Any,
    docname: str,
) -> dict[str, list[nodes.Node]]:
    """Each ``(key, MyST text, warning location)`` as the folded, smart-quoted blocks its page shows.

    ``settings`` are the page's reading settings; references name ``docname`` as their page.
    """
    scratch = new_document("<mlglossary>", settings)
    holders: dict[str, nodes.container] = {}
    renderer = session.entry_renderer()
    with sphinx_domains(env), lent_page(env):
        for key, text, location in texts:
            holder = nodes.container()
            holder += fold_long_examples(render_blocks(renderer, text, scratch, location=location, entry=key))
            scratch += holder
            holders[key] = holder
    SphinxSmartQuotes(scratch, startnode=None).apply()
    for xref in scratch.findall(addnodes.pending_xref):
        xref["refdoc"] = docname
    parsed = {key: list(holder.children) for key, holder in holders.items()}
    for holder in holders.values():
        holder.children = []
    return parsed


def fragment_html(builder: Builder, blocks: list[nodes.Node]) -> Fragment:
    """Blocks written by ``builder``'s translator, split at their cross-references (kept as data)."""
    settings = builder.docsettings  # type: ignore[attr-defined]  # made by HTML builders before writing
    document = new_document("<mlglossary>", settings)
    for block in blocks:
        document += block.deepcopy()
    HighlightLanguageTransform(document).apply()
    TrimDoctestFlagsTransform(document).apply()
    links = []
    for xref in list(document.findall(addnodes.pending_xref)):
        links.append(node_data(xref))
        xref.replace_self(nodes.raw("", LINK_MARK, format="html"))
    if not hasattr(builder, "current_docname"):
        builder.current_docname = builder.config.root_doc  # type: ignore[attr-defined]  # read by the translator
    translator: Any = builder.create_translator(document, builder)
    for block in document.children:
        block.walkabout(translator)
    return Fragment(tuple("".join(translator.body).split(LINK_MARK)), tuple(links))


#: node classes a stored body may hold: none that a collector, domain or read transform
#: of the page needs to see (labels, images, maths, downloads, footnotes, index entries)
_PLAIN_NODES: tuple[type[nodes.Node], ...] = (
    nodes.Text,
    nodes.paragraph,
    nodes.emphasis,
    nodes.strong,
    nodes.literal,
    nodes.inline,
    nodes.reference,
    nodes.bullet_list,
    nodes.enumerated_list,
    nodes.list_item,
    nodes.literal_block,
    nodes.container,
    nodes.caption,
    nodes.block_quote,
    nodes.definition_list,
    nodes.definition_list_item,
    nodes.term,
    nodes.definition,
    nodes.subscript,
    nodes.superscript,
    nodes.note,
    nodes.table,
    nodes.tgroup,
    nodes.colspec,
    nodes.thead,
    nodes.tbody,
    nodes.row,
    nodes.entry,
    example_fold,
    addnodes.pending_xref,
)


def prerenderable(blocks: list[nodes.Node]) -> str:
    """Why these blocks can't be stored as HTML ("" when they can)."""
    for block in blocks:
        for node in block.findall():
            if not isinstance(node, _PLAIN_NODES):
                return f"it holds a {type(node).__name__} node"
            if isinstance(node, nodes.Element) and (node["ids"] or node["names"]):
                return f"its {node.tagname} node has an id"
            if isinstance(node, nodes.reference) and not node.get("refuri"):
                return "it holds a link within the page"
            if isinstance(node, nodes.literal_block) and "language" not in node:
                return "it holds a code block without a language"
    return ""


def node_kinds(blocks: list[nodes.Node]) -> set[str]:
    """The node classes in these blocks, with each code block's language."""
    kinds: set[str] = set()
    for block in blocks:
        for node in block.findall(nodes.Element):
            kinds.add(node.tagname)
            if isinstance(node, nodes.literal_block):
                kinds.add(f"literal_block:{node.get('language')}")
    return kinds
