"""Bundled entry bodies rendered ahead of time: HTML pieces between links still to resolve.

Parsing, transforming, pickling and highlighting about 200 MyST bodies was most of what a
build paid for the glossary page, in every build, for data that never changes between
releases. ``python -m sphinxcontrib_mlglossary.prerender`` renders each bundled body once
per language with the real pipeline (:mod:`.entry_bodies`) and stores, in
``glossaries/prerendered/<language>.json``, the HTML around each cross-reference and the
reference itself as data. A build turns a body into a :class:`prerendered_body` node:
raw HTML pieces with real ``pending_xref`` nodes between them, so the project's own
terms, intersphinx, citation ids and cards still decide every link, and Sphinx's search
indexes the text (it reads raw HTML, tags stripped).

A body whose text no longer matches the stored digest (an entry edited without
regenerating) is parsed as before; so is every body when the stored data is missing or
of another format. Whether the stored HTML is what this build would write is decided
when the page is written (:mod:`.body_expansion`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx

#: version of the stored layout; data of another version is not used
FORMAT = 2
#: what stands for a cross-reference in the HTML while it is split into pieces
LINK_MARK = "\ue000mlglossary-link\ue000"

#: JSON-ready form of a node: [tag name, attributes, children]; a text is a plain string
NodeData = list[Any] | str


class prerendered_body(nodes.Special, nodes.TextElement):
    """An entry's body as stored HTML: ``raw`` pieces with the body's links between them.

    A text element, as a paragraph is: writers take a link outside one for an image link.
    A special one, which smart quotes pass by: its text was educated when it was stored, and
    walking a megabyte of HTML pieces for quotes cost a build seconds.

    ``entry`` and ``language`` name the body, so formats other than HTML (and HTML the
    stored pieces do not match) get it parsed in its place when the page is written.
    """


@dataclass(frozen=True)
class Fragment:
    """A body's HTML split at its cross-references, and those references as data."""

    pieces: tuple[str, ...]
    links: tuple[NodeData, ...]

    def as_data(self) -> dict[str, Any]:
        return {"pieces": list(self.pieces), "links": list(self.links)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Fragment:
        pieces, links = tuple(data["pieces"]), tuple(data["links"])
        if len(pieces) != len(links) + 1 or not all(isinstance(piece, str) for piece in pieces):
            raise ValueError("a fragment has one more piece than links")
        return cls(pieces, links)


@dataclass(frozen=True)
class Prerendered:
    """One language's stored bodies and summaries, with the canaries a build compares its own
    rendering with (see :mod:`.stored_summaries` for the summaries)."""

    canary_text: str
    canary: Fragment
    #: entry id -> (digest of the body text it was rendered from, fragment)
    entries: dict[str, tuple[str, Fragment]]
    #: a summary holding each construct the stored summaries use, and its inline nodes as data
    summary_canary: tuple[str, tuple[NodeData, ...]] = ("", ())
    #: entry id -> (digest of the summary text it was parsed from, its inline nodes as data)
    summaries: dict[str, tuple[str, tuple[NodeData, ...]]] = field(default_factory=dict)

    def fragment(self, entry_id: str, body: str) -> Fragment | None:
        """The stored fragment of this body, if it was rendered from exactly this text."""
        stored = self.entries.get(entry_id)
        return stored[1] if stored is not None and stored[0] == body_digest(body) else None

    def summary(self, entry_id: str, text: str) -> tuple[NodeData, ...] | None:
        """The stored inline nodes of this summary, if they were parsed from exactly this text."""
        stored = self.summaries.get(entry_id)
        return stored[1] if stored is not None and stored[0] == body_digest(text) else None

    def as_data(self) -> dict[str, Any]:
        canary_text, canary_nodes = self.summary_canary
        return {
            "format": FORMAT,
            "canary": {"text": self.canary_text, **self.canary.as_data()},
            "entries": {
                entry_id: {"body": digest, **fragment.as_data()}
                for entry_id, (digest, fragment) in self.entries.items()
            },
            "summary_canary": {"text": canary_text, "nodes": list(canary_nodes)},
            "summaries": {
                entry_id: {"summary": digest, "nodes": list(inline)}
                for entry_id, (digest, inline) in self.summaries.items()
            },
        }


def body_digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:20]


def prerendered_path(language: str) -> Path:
    """Where a bundled language's rendered bodies are shipped."""
    return Path(str(resources.files(__package__).joinpath("glossaries", "prerendered", f"{language}.json")))


@cache
def bundled_prerendered(language: str) -> Prerendered | None:
    """A language's stored bodies, loaded once per process (None when absent or of another format)."""
    path = prerendered_path(language)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            return None
        canary = data["canary"]
        entries = {
            entry_id: (str(stored["body"]), Fragment.from_data(stored)) for entry_id, stored in data["entries"].items()
        }
        summary_canary = data["summary_canary"]
        summaries = {
            entry_id: (str(stored["summary"]), tuple(stored["nodes"])) for entry_id, stored in data["summaries"].items()
        }
        return Prerendered(
            str(canary["text"]),
            Fragment.from_data(canary),
            entries,
            (str(summary_canary["text"]), tuple(summary_canary["nodes"])),
            summaries,
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # parsing the bodies, as without stored data, is always right


# -- cross-references as data ------------------------------------------------------------

#: the node classes a stored reference may be made of
_NODE_CLASSES: dict[str, type[nodes.Element]] = {
    "pending_xref": addnodes.pending_xref,
    "inline": nodes.inline,
    "literal": nodes.literal,
    "emphasis": nodes.emphasis,
    "strong": nodes.strong,
}
#: attributes that belong to the page a reference is on, not to the reference
_PAGE_ATTRIBUTES = frozenset({"refdoc", "ids", "names", "dupnames", "backrefs", "translatable"})


def node_data(node: nodes.Node) -> NodeData:
    """A reference (or its content) as JSON-ready data; ValueError for a node it can't hold."""
    if isinstance(node, nodes.Text):
        return str(node)
    if not isinstance(node, nodes.Element) or node.tagname not in _NODE_CLASSES:
        raise ValueError(f"a stored link can't hold a {type(node).__name__} node")
    attributes = {key: value for key, value in node.attributes.items() if key not in _PAGE_ATTRIBUTES and value != []}
    json.dumps(attributes)  # raises for anything JSON can't hold
    return [node.tagname, attributes, [node_data(child) for child in node.children]]


def node_from_data(data: NodeData, *, untranslatable: bool = False) -> nodes.Text | nodes.Element:
    """The node stored as ``data``; ``untranslatable`` marks each text element in it
    ``translatable=False`` (as a body's own text is: our translations, not the project's)."""
    if isinstance(data, str):
        return nodes.Text(data)
    tagname, attributes, children = data
    cls = _NODE_CLASSES[tagname]
    element = cls("", *[node_from_data(child, untranslatable=untranslatable) for child in children])
    # one update: the stored names are lowercase already, lists are copied (they are the stored data's)
    element.attributes.update(
        {key: list(value) if isinstance(value, list) else value for key, value in attributes.items()}
    )
    if untranslatable and issubclass(cls, nodes.TextElement):
        element["translatable"] = False
    return element


def data_text(data: NodeData) -> str:
    """What :meth:`~docutils.nodes.Node.astext` gives for the node stored as ``data``, without making it."""
    if isinstance(data, str):
        return nodes.unescape(data)
    tagname, _attributes, children = data
    return _NODE_CLASSES[tagname].child_text_separator.join(data_text(child) for child in children)


def body_node(
    entry_id: str, language: str, fragment: Fragment, docname: str, mark: Callable[[nodes.Element], None] | None = None
) -> prerendered_body:
    """The doctree node of a stored body on the page ``docname``, its text elements marked
    ``translatable=False``; ``mark`` is called on each of its links."""
    body = prerendered_body(entry=entry_id, language=language, translatable=False)
    children: list[nodes.Node] = []
    links = fragment.links
    for position, piece in enumerate(fragment.pieces):
        if position:
            link = node_from_data(links[position - 1], untranslatable=True)
            if isinstance(link, nodes.Element):
                link["refdoc"] = docname
                if mark is not None:
                    mark(link)
            children.append(link)
        if piece:
            children.append(nodes.raw(piece, piece, format="html", translatable=False))
    body.extend(children)
    return body


def _nothing(self: Any, node: nodes.Element) -> None:
    """HTML: the pieces and links are written as they are."""


def _skip(self: Any, node: nodes.Element) -> None:
    raise nodes.SkipNode  # never reached: other formats get the body parsed (.body_expansion)


def register(app: Sphinx) -> None:
    others: dict[str, Any] = {fmt: (_skip, None) for fmt in ("latex", "text", "man", "texinfo")}
    app.add_node(prerendered_body, html=(_nothing, _nothing), **others)
