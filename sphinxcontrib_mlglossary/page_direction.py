"""``dir="rtl"`` on the ``<html>`` element of every page, whatever the HTML theme.

Sphinx writes no ``dir``. Themes built on Sphinx's basic layout (alabaster, the epub
theme) print the ``html_tag`` context value, but Furo and sphinx-rtd-theme write their
``<html>`` tag outside any Jinja block, and pydata-sphinx-theme (with sphinx-book-theme,
built on it) sets ``html_tag`` itself, hiding the context's value: neither a context value
nor a template extending theirs can reach the tag. So on a right-to-left page the builder
renders a small template of ours instead, which includes the theme's own template whole
and adds ``dir`` to the first ``<html`` tag of the result: in the HTML itself (no script,
no flash of the wrong direction), in memory, on every page and every HTML builder.

Nothing is done for left-to-right languages, nor where the page already has a ``dir``
(a theme or the project's own template wrote one).
"""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sphinx.jinja2glue import BuiltinTemplateLoader, SphinxFileSystemLoader
from sphinxcontrib.serializinghtml import SerializingHTMLBuilder

from .text_direction import direction

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx

TEMPLATES = Path(__file__).parent / "templates"
#: our template, under our own folder name so no project or theme template shadows it
WRAPPER = "mlglossary/page-direction.html"
#: says the direction is ours: our stylesheet then keeps the page's code blocks left to right
#: (given a value: epub pages are XML, where an attribute without one is an error)
MARK = "data-mlglossary-dir"

_HTML_TAG = re.compile(r"<html(?=[\s>])[^>]*>", re.IGNORECASE)
_DIR_ATTRIBUTE = re.compile(r"\sdir\s*=", re.IGNORECASE)


def with_direction(page: str, text_direction: str = "rtl") -> str:
    """The page with ``dir`` on its ``<html>`` tag, unless the tag has one already."""
    tag = _HTML_TAG.search(page)
    if tag is None or _DIR_ATTRIBUTE.search(tag.group()):
        return page
    at = tag.start() + len("<html")
    return f'{page[:at]} dir="{text_direction}" {MARK}=""{page[at:]}'


def _loader(app: Sphinx) -> BuiltinTemplateLoader | None:
    """Sphinx's own template loader, for builders that render templates.

    None for a project with its own ``template_bridge``, and for the json and pickle
    builders, which write the context instead of a page.
    """
    if isinstance(app.builder, SerializingHTMLBuilder):
        return None
    templates = getattr(app.builder, "templates", None)
    return templates if isinstance(templates, BuiltinTemplateLoader) else None


def _wrapper_loadable(loader: BuiltinTemplateLoader) -> bool:
    return any(str(TEMPLATES) in getattr(each, "searchpath", ()) for each in loader.loaders)


def add_templates(app: Sphinx) -> None:
    """Make our template findable, after the project's and the theme's (they win a name clash).

    Added to the search list (``loaders``) of Sphinx's default template bridge, once, before
    any page is written (so ``-j`` writers inherit it); the project's ``templates_path`` is
    not changed (a changed value reports "the configuration has changed"). Only for
    right-to-left languages, so a left-to-right build is untouched.
    """
    loader = _loader(app)
    if loader is None or direction(app.config.language) != "rtl" or _wrapper_loadable(loader):
        return
    loader.loaders.append(SphinxFileSystemLoader(str(TEMPLATES)))


def right_to_left_page(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> str | None:
    """Render a right-to-left page through our template, which adds ``dir`` to the theme's tag."""
    language = app.config.language
    if direction(language) != "rtl" or isinstance(app.builder, SerializingHTMLBuilder):
        return None
    loader = _loader(app)
    if loader is None or not _wrapper_loadable(loader):
        _basic_layout_tag(context, language)
        return None
    context["mlglossary_theme_template"] = templatename
    context["mlglossary_with_direction"] = with_direction
    return WRAPPER


def _basic_layout_tag(context: dict[str, Any], language: str) -> None:
    """Without Sphinx's loader, at least themes built on the basic layout get ``dir`` (their ``html_tag``)."""
    if context.get("html_tag"):
        return
    root = context.get("content_root", "")
    context["html_tag"] = f'<html lang="{escape(language)}" dir="rtl" {MARK}="" data-content_root="{escape(root)}">'


def register(app: Sphinx) -> None:
    app.connect("builder-inited", add_templates)
    # late: a handler choosing another template for the page (a theme's) comes first and wins
    app.connect("html-page-context", right_to_left_page, priority=900)
