"""Turn the MyST Markdown of an entry into docutils nodes, whatever the host page's parser is.

Entries are written in MyST, but the page holding the directive may be reST, so we
drive MyST-Parser's Sphinx renderer ourselves instead of relying on ``nested_parse``.

Glossary data may come from a file the project did not write (an imported or shared
glossary), so it is rendered as *data*: raw HTML, script-capable URLs, file inclusion
and directives outside a fixed list of content directives are dropped with a
``mlglossary.markup`` warning instead of reaching the output.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from docutils import nodes

from .warnings_ import MlGlossaryWarning, warn

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

#: directives an entry may use: content only, nothing that reads files, runs code or emits raw output
SAFE_DIRECTIVES = frozenset(
    {
        # admonitions and version notes
        "admonition", "attention", "caution", "danger", "error", "hint", "important", "note", "tip",
        "warning", "seealso", "versionadded", "versionchanged", "versionremoved", "deprecated",
        # code, maths, tables, figures
        "code", "code-block", "sourcecode", "parsed-literal", "math",
        "table", "list-table", "csv-table", "image", "figure",
        # text structure
        "rubric", "epigraph", "highlights", "pull-quote", "compound", "container", "topic", "centered", "hlist",
    }
)  # fmt: skip

#: URL schemes a browser would run or open as a document of its own
_UNSAFE_SCHEME = re.compile(r"^(?:javascript|vbscript|data):", re.IGNORECASE)
#: characters browsers ignore inside a scheme ("java\tscript:" still runs)
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f]+")


def is_unsafe_url(url: str) -> bool:
    """True for ``javascript:``, ``vbscript:`` and ``data:`` URLs, however they are spelled."""
    return bool(_UNSAFE_SCHEME.match(_IGNORED_IN_URL.sub("", url)))


def _escapes_source(uri: str) -> bool:
    """A local image path that climbs out of the project (it would be copied into the output)."""
    return "://" not in uri and ".." in re.split(r"[\\/]", uri)


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    # Imported late: loading MyST costs time that builds without the directive never pay.
    from myst_parser.config.main import MdParserConfig
    from myst_parser.mdit_to_docutils import base as myst_base
    from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
    from myst_parser.parsers.mdit import create_md_parser

    class FragmentRenderer(SphinxRenderer):  # type: ignore[misc]
        """Renders a fragment into a node of a page that has its own renderer.

        The page-level finishing step is skipped: it would record a word count and
        heading slugs on the host page, overwriting the page's own.
        """

        def _render_finalise(self) -> None:
            pass

        def setup_render(self, options: dict[str, Any], env: Any) -> None:
            # MyST builds a throwaway default document (about 7 ms of option parsing) as
            # the fallback for ``options["document"]`` on every render, though we always
            # pass one: hand it ours instead (a 10,000-entry glossary saved 70 s)
            original = getattr(myst_base, "make_document", None)
            if original is not None:
                myst_base.make_document = lambda *args, **kwargs: options["document"]
            try:
                super().setup_render(options, env)
            finally:
                if original is not None:
                    myst_base.make_document = original

        def run_directive(self, name: str, *args: Any, **kwargs: Any) -> list[nodes.Element]:
            # checked before the directive runs: a directive's side effects (reading a
            # file, running code) can't be undone by cleaning its output afterwards
            if name not in SAFE_DIRECTIVES:
                _report(f"directive {name!r} is not allowed in glossary entries; it was left out")
                return []
            return super().run_directive(name, *args, **kwargs)  # type: ignore[no-any-return]

        def render_restructuredtext(self, token: Any) -> None:
            # reST inside an entry would run reST directives past the list above
            _report("an {eval-rst} block is not allowed in glossary entries; it was left out")

    # Our own fixed configuration: entries must render the same whatever the user's
    # myst_* settings are.
    return create_md_parser(MdParserConfig(), FragmentRenderer)


#: where the entry being rendered comes from, for warnings raised while rendering it
_LOCATION: list[Any] = [None]


def _report(message: str) -> None:
    warn(MlGlossaryWarning.MARKUP, f"glossary data: {message}", location=_LOCATION[-1])


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= 60 else flat[:57] + "...")


def _make_safe(holder: nodes.Element) -> None:
    """Drop raw output and script-capable URLs from rendered entry text (their text stays)."""
    for raw in list(holder.findall(nodes.raw)):
        _report(f"raw {raw.get('format', '')} markup {_snippet(raw.astext())} was dropped".replace("  ", " "))
        raw.parent.remove(raw)
    for reference in list(holder.findall(nodes.reference)):
        if is_unsafe_url(reference.get("refuri", "")):
            _report(f"link to {_snippet(reference['refuri'])} is not allowed; its text is kept")
            reference.replace_self(reference.children or nodes.Text(reference.astext()))
    for target in holder.findall(nodes.target):
        if is_unsafe_url(target.get("refuri", "")):
            del target["refuri"]  # a reference to it would become the same link
    for image in list(holder.findall(nodes.image)):
        uri = image.get("uri", "")
        if is_unsafe_url(uri) or _escapes_source(uri):
            _report(f"image {_snippet(uri)} is not allowed; it was left out")
            image.parent.remove(image)


def _page_of(document: nodes.document) -> Any:
    """The page being built, as a Sphinx warning location."""
    env = getattr(document.settings, "env", None)
    return (env.docname, None) if env is not None else None


def render_blocks(text: str, document: nodes.document, *, location: Any = None) -> list[nodes.Node]:
    """Block-level nodes (paragraphs, lists, code) for a MyST text, created in ``document``.

    ``location`` (a node, ``"path:line"`` or ``(docname, line)``) is where warnings
    about unsafe markup point; by default, the page being built.
    """
    holder = nodes.Element()
    md = _markdown()
    md.options["document"] = document
    md.options["current_node"] = holder
    settings = document.settings
    saved = (getattr(settings, "raw_enabled", True), getattr(settings, "file_insertion_enabled", True))
    # the settings object is the host page's: switch file and raw access off for our text only
    settings.raw_enabled, settings.file_insertion_enabled = False, False
    _LOCATION.append(location if location is not None else _page_of(document))
    try:
        md.render(text, {})
        _make_safe(holder)
    finally:
        _LOCATION.pop()
        settings.raw_enabled, settings.file_insertion_enabled = saved
        md.options.pop("document", None)
        md.options.pop("current_node", None)
    return list(holder.children)


def render_inline(text: str, document: nodes.document, *, location: Any = None) -> list[nodes.Node]:
    """Inline nodes for a one-paragraph MyST text (a summary)."""
    blocks = render_blocks(text, document, location=location)
    if len(blocks) == 1 and isinstance(blocks[0], nodes.paragraph):
        return list(blocks[0].children)
    inline: list[nodes.Node] = []
    for block in blocks:
        inline.extend(block.children if isinstance(block, nodes.paragraph) else [nodes.Text(block.astext())])
    return inline
