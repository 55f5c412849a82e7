"""Turn the MyST Markdown of an entry into docutils nodes, whatever the host page's parser is.

Entries are written in MyST, but the page holding the directive may be reST, so we
drive MyST-Parser's Sphinx renderer ourselves instead of relying on ``nested_parse``.

Glossary data may come from a file the project did not write (an imported or shared
glossary), so it is rendered as *data*: raw HTML, script-capable URLs, file inclusion,
directives outside a fixed list of content directives, labels (``(name)=``, ``:name:``,
``:label:``) and front matter are dropped with a ``mlglossary.markup`` warning instead of
reaching the output or the project's labels; files it references must lie inside the
source directory (:mod:`.confinement`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from docutils import nodes

from .confinement import confine_references
from .diagnostics import MlGlossaryWarning, warn
from .math_guard import math_problem
from .option_bounds import option_problem

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


class EntryRenderer:
    """Renders entry text with MyST-Parser's Sphinx renderer, through its public API.

    ``create_md_parser`` gives a parser whose renderer we set up once per document and
    then feed fragments with ``nested_render_text``, which appends to the node given as
    the current one. Unlike a full ``render``, that never runs the page-level finishing
    step (word count, heading slugs) that would overwrite the host page's own. Setting up
    builds a default document MyST never uses here (about 7 ms), so it happens once per
    document, not once per entry.
    """

    def __init__(self) -> None:
        # Imported late: loading MyST costs time that builds without the directive never pay.
        from myst_parser.config.main import MdParserConfig
        from myst_parser.mdit_to_docutils.sphinx_ import SphinxRenderer
        from myst_parser.parsers.mdit import create_md_parser

        owner = self

        class FragmentRenderer(SphinxRenderer):  # type: ignore[misc]
            """Refuses what entries may not use, before it runs."""

            def run_directive(self, name: str, *args: Any, **kwargs: Any) -> list[nodes.Element]:
                # checked before the directive runs: a directive's side effects (reading a
                # file, running code) can't be undone by cleaning its output afterwards
                if name not in SAFE_DIRECTIVES:
                    owner.report(f"directive {name!r} is not allowed in glossary entries; it was left out")
                    return []
                # a name or label would register the entry's text under the project's labels
                # (and a math label in the equation registry) before any cleaning could run
                if len(args) >= 2 and isinstance(args[1], str):
                    content, dropped = without_naming_options(args[1])
                    args = (args[0], content, *args[2:])
                    for option in dropped:
                        owner.report(f"option :{option}: of directive {name!r} was left out (labels are the project's)")
                extra = kwargs.get("additional_options")
                if isinstance(extra, dict):
                    kwargs["additional_options"] = {k: v for k, v in extra.items() if k not in _NAMING_OPTIONS}
                problem = self._option_problem(name, *args, **kwargs)
                if problem:
                    owner.report(f"directive {name!r} was left out: {problem}")
                    return []
                return super().run_directive(name, *args, **kwargs)  # type: ignore[no-any-return]

            def _option_problem(self, name: str, *args: Any, **kwargs: Any) -> str:
                """An option out of bounds, read as the directive will read it ("" when none is)."""
                from docutils.parsers.rst import directives
                from docutils.parsers.rst.states import MarkupError
                from myst_parser.parsers.directives import parse_directive_text

                directive_class, _messages = directives.directive(name, self.language_module_rst, self.document)
                if directive_class is None or len(args) < 2:
                    return ""
                try:
                    parsed = parse_directive_text(
                        directive_class, args[0], args[1], additional_options=kwargs.get("additional_options")
                    )
                except MarkupError:
                    return ""  # the directive reports its own syntax errors
                for option, value in parsed.options.items():
                    problem = option_problem(option, value)
                    if problem:
                        return f"option :{option}: {problem}"
                return ""

            def render_restructuredtext(self, token: Any) -> None:
                # reST inside an entry would run reST directives past the list above
                owner.report("an {eval-rst} block is not allowed in glossary entries; it was left out")

            def render_myst_target(self, token: Any) -> None:
                # "(label)=" would become a label of the project's (even "genindex" or "search")
                owner.report(f"label ({token.content})= was left out (labels are the project's)")

            def render_front_matter(self, token: Any) -> None:
                # front matter sets the metadata of the page holding the glossary
                owner.report("front matter was left out (it would set the glossary page's metadata)")

        # Our own fixed configuration: entries must render the same whatever the user's
        # myst_* settings are.
        self._config = MdParserConfig()
        self._md = create_md_parser(self._config, FragmentRenderer)
        self._document: nodes.document | None = None
        #: where the entry being rendered comes from, for warnings raised while rendering it
        self.location: Any = None
        #: the id of the entry being rendered ("" when unknown), named in those warnings
        self.entry = ""

    def report(self, message: str) -> None:
        entry = f"entry {self.entry!r}: " if self.entry else ""
        warn(MlGlossaryWarning.MARKUP, f"glossary data: {entry}{message}", location=self.location)

    def render(self, text: str, document: nodes.document, holder: nodes.Element) -> None:
        renderer: Any = self._md.renderer  # the FragmentRenderer made above
        if self._document is not document:
            renderer.setup_render({"myst_config": self._config, "document": document}, {})
            self._document = document
        renderer.md_env = {}  # link definitions of one entry are not another's
        text = self._without_front_matter(text)
        with renderer.current_node_context(holder):
            renderer.nested_render_text(text, 0)

    def _without_front_matter(self, text: str) -> str:
        """The text without a front matter block at its start (reported; whatever MyST would do with it)."""
        if not _FRONT_MATTER_START.match(text):
            return text
        tokens = self._md.parse(text, {})
        if not tokens or tokens[0].type != "front_matter" or not tokens[0].map:
            return text
        self.report("front matter at the start of the text was left out (it would set the glossary page's metadata)")
        end = tokens[0].map[1]
        # keep the line count, so line numbers in later warnings stay right
        return "\n" * end + "".join(text.splitlines(keepends=True)[end:])


#: directive options that give the output a name other content can refer to
_NAMING_OPTIONS = frozenset({"name", "label"})
_OPTION_LINE = re.compile(r"^\s*:([\w-]+):")
_YAML_KEY = re.compile(r"^\s*([\w-]+)\s*:")
_FRONT_MATTER_START = re.compile(r"\A-{3,}[ \t]*\r?\n")


def without_naming_options(content: str) -> tuple[str, list[str]]:
    """A directive's text without its ``:name:`` and ``:label:`` options (``:key:`` lines or a YAML block)."""
    lines = content.splitlines(keepends=True)
    dropped: list[str] = []
    kept: list[str] = []
    if lines and lines[0].strip() == "---":
        closing = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if closing is not None:
            for line in lines[1:closing]:
                found = _YAML_KEY.match(line)
                if found and found.group(1) in _NAMING_OPTIONS and not line[:1].isspace():
                    dropped.append(found.group(1))
                else:
                    kept.append(line)
            return "".join([lines[0], *kept, *lines[closing:]]), dropped
    index = 0
    while index < len(lines) and (found := _OPTION_LINE.match(lines[index])):
        if found.group(1) in _NAMING_OPTIONS:
            dropped.append(found.group(1))
        else:
            kept.append(lines[index])
        index += 1
    return "".join([*kept, *lines[index:]]), dropped


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= 60 else flat[:57] + "...")


def _formula(latex: str) -> str:
    """A formula as written, in backticks (``repr`` would double every backslash)."""
    flat = " ".join(latex.split()).replace("`", "'")
    return f"`{flat if len(flat) <= 60 else flat[:57] + '...'}`"


def make_safe(holder: nodes.Element, report: Callable[[str], None]) -> None:
    """Drop raw output and script-capable URLs from rendered entry text (their text stays)."""
    for raw in list(holder.findall(nodes.raw)):
        report(f"raw {raw.get('format', '')} markup {_snippet(raw.astext())} was dropped".replace("  ", " "))
        raw.parent.remove(raw)
    for reference in list(holder.findall(nodes.reference)):
        if is_unsafe_url(reference.get("refuri", "")):
            report(f"link to {_snippet(reference['refuri'])} is not allowed; its text is kept")
            reference.replace_self(reference.children or nodes.Text(reference.astext()))
    for target in holder.findall(nodes.target):
        if is_unsafe_url(target.get("refuri", "")):
            del target["refuri"]  # a reference to it would become the same link
    for image in list(holder.findall(nodes.image)):
        uri = image.get("uri", "")
        if is_unsafe_url(uri):
            report(f"image {_snippet(uri)} is not allowed; it was left out")
            image.parent.remove(image)


def restrict_math(holder: nodes.Element, report: Callable[[str], None]) -> None:
    """Math outside the plain formulas of :mod:`.math_guard` becomes code; ``:nowrap:`` is refused.

    The formula is kept as the text it is, so a reader still sees what the entry says.
    """
    for formula in list(holder.findall(nodes.math)):
        problem = math_problem(formula.astext())
        if problem:
            report(f"math {_formula(formula.astext())} is shown as text: {problem}")
            formula.replace_self(nodes.literal(formula.astext(), formula.astext()))
    for block in list(holder.findall(nodes.math_block)):
        if block.get("nowrap"):
            # without its wrapping environment the text goes to LaTeX as it stands
            report("option :nowrap: of directive 'math' was left out (the formula is wrapped as usual)")
            block["nowrap"] = False
        problem = math_problem(block.astext())
        if problem:
            report(f"math {_formula(block.astext())} is shown as text: {problem}")
            code = nodes.literal_block(block.astext(), block.astext())
            code["language"] = "text"
            block.replace_self(code)


#: the prefix of the class names the extension's own styles and script use
OWN_CLASS_PREFIX = "mlglossary"


def drop_own_classes(holder: nodes.Element, report: Callable[[str], None]) -> None:
    """Take the extension's class names off entry text: they would style it as a card or a control."""
    for element in holder.findall(nodes.Element):
        classes: list[str] = element["classes"]
        for name in [name for name in classes if name.lower().startswith(OWN_CLASS_PREFIX)]:
            report(f"class {name!r} was left out (the extension's classes are its own)")
            classes.remove(name)


#: nodes whose names only pair them with their references in the same text
_PAIRED = (nodes.footnote, nodes.footnote_reference, nodes.citation, nodes.citation_reference)


def drop_names(holder: nodes.Element, document: nodes.document, report: Callable[[str], None]) -> None:
    """Take explicit names (labels) off rendered entry text, with the ids made from them.

    A second line of defence after :meth:`EntryRenderer` refused ``(label)=`` targets
    and ``:name:`` options: whatever else named a node would become a label of the
    project (Sphinx reads every explicit name of a page as one).
    """
    for element in list(holder.findall(nodes.Element)):
        if isinstance(element, _PAIRED):
            continue
        for name in [name for name in element["names"] if document.nametypes.get(name)]:
            report(f"the label {name!r} was left out (labels are the project's)")
            element["names"].remove(name)
            document.nametypes.pop(name, None)
            node_id = document.nameids.pop(name, None)
            if node_id is not None and node_id in element["ids"]:
                element["ids"].remove(node_id)
                document.ids.pop(node_id, None)
        if isinstance(element, nodes.target) and not (element["ids"] or element.get("refuri") or element.get("refid")):
            element.parent.remove(element)


def _page_of(document: nodes.document) -> Any:
    """The page being built, as a Sphinx warning location."""
    env = getattr(document.settings, "env", None)
    return (env.docname, None) if env is not None else None


def render_blocks(
    renderer: EntryRenderer,
    text: str,
    document: nodes.document,
    *,
    location: Any = None,
    entry: str = "",
    local_files: bool = True,
) -> list[nodes.Node]:
    """Block-level nodes (paragraphs, lists, code) for a MyST text, created in ``document``.

    ``location`` (a node, ``"path:line"`` or ``(docname, line)``) is where warnings
    about unsafe markup point; by default, the page being built. ``entry`` (an id) is
    named in them. ``local_files=False`` is for a summary, shown away from the page it
    is rendered for: it leaves out every local file the text names, every image and
    every link of its own (:func:`summary_text_only`).
    """
    holder = nodes.Element()
    settings = document.settings
    saved = (getattr(settings, "raw_enabled", True), getattr(settings, "file_insertion_enabled", True))
    # the settings object is the host page's: switch file and raw access off for our text only
    settings.raw_enabled, settings.file_insertion_enabled = False, False
    outer = renderer.location, renderer.entry
    renderer.location = location if location is not None else _page_of(document)
    renderer.entry = entry
    try:
        renderer.render(text, document, holder)
        make_safe(holder, renderer.report)
        restrict_math(holder, renderer.report)
        drop_own_classes(holder, renderer.report)
        drop_names(holder, document, renderer.report)
        confine_references(holder, getattr(settings, "env", None), renderer.report, local_files=local_files)
        if not local_files:  # a summary: cards show it on every citing page
            summary_text_only(holder, renderer.report)
    finally:
        renderer.location, renderer.entry = outer
        settings.raw_enabled, settings.file_insertion_enabled = saved
    return list(holder.children)


def summary_text_only(holder: nodes.Element, report: Callable[[str], None]) -> None:
    """No image and no link of its own in a summary: cards show it on every citing page.

    An image would load before any hover, from wherever the data says; a link would sit in
    the card before the card's own "Read more". Links keep their text; term references
    (resolved by Sphinx to this site's pages) stay.
    """
    from sphinx import addnodes

    for image in list(holder.findall(nodes.image)):
        report(f"image {_snippet(image.get('uri', ''))} was left out of the summary (cards show no images)")
        parent = image.parent
        parent.remove(image)
        if isinstance(parent, nodes.reference) and not parent.children:
            parent.replace_self(nodes.Text(parent.get("name", "") or ""))
    for link in list(holder.findall(nodes.reference)):
        if link.get("refuri") or link.get("refid"):
            report(
                f"link to {_snippet(link.get('refuri') or link.get('refid'))} was left out of the summary; its text is kept"
            )
            link.replace_self(link.children or nodes.Text(link.astext()))
    for download in list(holder.findall(addnodes.download_reference)):
        report(f"link to {_snippet(download.get('reftarget', ''))} was left out of the summary; its text is kept")
        download.replace_self(download.children or nodes.Text(download.astext()))


def render_inline(
    renderer: EntryRenderer, text: str, document: nodes.document, *, location: Any = None, entry: str = ""
) -> list[nodes.Node]:
    """Inline nodes for a one-paragraph MyST text (a summary, shown away from any page: no local files)."""
    blocks = render_blocks(renderer, text, document, location=location, entry=entry, local_files=False)
    if len(blocks) == 1 and isinstance(blocks[0], nodes.paragraph):
        return list(blocks[0].children)
    inline: list[nodes.Node] = []
    for block in blocks:
        inline.extend(block.children if isinstance(block, nodes.paragraph) else [nodes.Text(block.astext())])
    return inline
