"""Static CSS/JS for HTML builders, linked only from pages whose term links have cards.

The cards themselves are site data in a file of their own (:mod:`.card_asset`), which
``mlglossary.js`` loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .backlinks import may_hold
from .domain import glossary_domain
from .nodes import MARKED, tooltip_slot
from .text_direction import direction

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx

STATIC_DIR = Path(__file__).parent / "static"
JS_FILE = "mlglossary.js"
CSS_FILE = "mlglossary.css"
#: glossary pages only: the letter bar and "Cited in" lists (citing pages don't load it)
GLOSSARY_CSS_FILE = "mlglossary-glossary.css"


def copy_assets(app: Sphinx) -> None:
    """Ship the assets with HTML output only (not LaTeX, not epub: no scripts there).

    Copied when the builder starts, before any page is written: Sphinx then links them
    with its ``?v=`` checksum on every page, as it does its own static files, so a clean
    build and an incremental one write the same ``<head>``, and a reader's browser
    fetches the new files after an upgrade. Sphinx copies ``html_static_path`` after
    this, so a project's own ``_static/mlglossary.css`` still replaces ours. Not added
    to ``html_static_path``: epub builders copy that too, and a value changed after the
    environment is loaded makes the next build report "the configuration has changed".
    """
    if app.builder.format != "html" or app.builder.name in {"epub", "epub3"}:
        return
    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    for name in (JS_FILE, CSS_FILE, GLOSSARY_CSS_FILE):
        content = (STATIC_DIR / name).read_bytes()
        target = static / name
        if not target.exists() or target.read_bytes() != content:
            target.write_bytes(content)


def link_assets(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """Per-page: Sphinx reverts files added here after the page is written.

    Pages with a term link naming a card get both files (the script loads the cards);
    glossary pages get the stylesheet and their own (letter bar, "Cited in"), other
    right-to-left pages the stylesheet only (it keeps code blocks left to right under
    the ``dir="rtl"`` of :mod:`.page_direction`).
    """
    has_cards = doctree is not None and any(
        isinstance(node, tooltip_slot) and node.get(MARKED) for node in doctree.children
    )
    glossary_page = doctree is not None and _glossary_page(app, pagename)
    if has_cards or glossary_page or (doctree is not None and direction(app.config.language) == "rtl"):
        app.add_css_file(CSS_FILE)
    if glossary_page:
        app.add_css_file(GLOSSARY_CSS_FILE)
    if has_cards:
        app.add_js_file(JS_FILE, loading_method="defer")


def _glossary_page(app: Sphinx, pagename: str) -> bool:
    """A page showing glossary entries (singlehtml's one page, which holds every document, included)."""
    domain = glossary_domain(app.env)
    pages = domain.glossary_pages(with_user_glossaries=True)
    return bool(pages) and may_hold(pagename, app.builder, pages)


def register(app: Sphinx) -> None:
    app.connect("builder-inited", copy_assets)
    app.connect("html-page-context", link_assets)
