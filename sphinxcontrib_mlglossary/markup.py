"""Turn the MyST Markdown of an entry into docutils nodes, whatever the host page's parser is.

Entries are written in MyST, but the page holding the directive may be reST, so we
drive MyST-Parser's Sphinx renderer ourselves instead of relying on ``nested_parse``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    # Imported late: loading MyST costs time that builds without the directive never pay.
    from myst_parser.config.main import MdParserConfig
    from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
    from myst_parser.parsers.mdit import create_md_parser

    class FragmentRenderer(SphinxRenderer):  # type: ignore[misc]
        """Renders a fragment into a node of a page that has its own renderer.

        The page-level finishing step is skipped: it would record a word count and
        heading slugs on the host page, overwriting the page's own.
        """

        def _render_finalise(self) -> None:
            pass

    # Our own fixed configuration: entries must render the same whatever the user's
    # myst_* settings are.
    return create_md_parser(MdParserConfig(), FragmentRenderer)


def render_blocks(text: str, document: nodes.document) -> list[nodes.Node]:
    """Block-level nodes (paragraphs, lists, code) for a MyST text, created in ``document``."""
    holder = nodes.Element()
    md = _markdown()
    md.options["document"] = document
    md.options["current_node"] = holder
    try:
        md.render(text, {})
    finally:
        md.options.pop("document", None)
        md.options.pop("current_node", None)
    return list(holder.children)


def render_inline(text: str, document: nodes.document) -> list[nodes.Node]:
    """Inline nodes for a one-paragraph MyST text (a summary)."""
    blocks = render_blocks(text, document)
    if len(blocks) == 1 and isinstance(blocks[0], nodes.paragraph):
        return list(blocks[0].children)
    inline: list[nodes.Node] = []
    for block in blocks:
        inline.extend(block.children if isinstance(block, nodes.paragraph) else [nodes.Text(block.astext())])
    return inline
