"""A recording extension for measuring auto-linking: every glossary name a reader sees, linked or not.

Loaded next to ``sphinxcontrib_mlglossary`` in a benchmark build (``record_build``), it
waits until a page's transforms are done (``doctree-read``: auto-links are made by then)
and writes one JSON line per mention of any name of any glossary entry in the page's
visible prose: the page, the source file and line docutils gives the enclosing element,
the name as written, its entry, and whether (and to which entry) auto-linking linked
it. The written names are found with every entry's every name opted in, so the words
the glossary keeps for ``{term}`` are listed too. The recorded text of the enclosing
element stays in the ignored build folder, for judging in a terminal; the repository
keeps only locations (``benchmarks/autolink_gold``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes

from sphinxcontrib_mlglossary.domain import session_of
from sphinxcontrib_mlglossary.nodes import AUTOLINK, glossary_block
from sphinxcontrib_mlglossary.term_pattern import TermPattern, build_pattern

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sphinx.application import Sphinx

#: config value naming the JSON-lines file to write (one file per build; serial builds only)
RECORD_TO = "autolink_record_to"

#: what a reader never sees as running prose: code, headings, captions, table heads, links,
#: system messages, comments, targets, images, index entries, toctrees, glossaries
_UNSEEN: tuple[type, ...] = (
    nodes.FixedTextElement,
    nodes.literal,
    addnodes.literal_strong,
    addnodes.literal_emphasis,
    nodes.Titular,
    nodes.caption,
    nodes.thead,
    nodes.label,
    nodes.math,
    nodes.raw,
    nodes.reference,
    nodes.target,
    nodes.Invisible,
    nodes.system_message,
    nodes.substitution_definition,
    nodes.image,
    nodes.docinfo,
    addnodes.index,
    addnodes.toctree,
    addnodes.glossary,
    addnodes.desc_signature,
    glossary_block,
)
_UNSEEN_CLASSES = frozenset({"guilabel", "menuselection", "command", "program", "kbd", "file", "samp", "regexp"})


def every_name_pattern(env: Any) -> TermPattern:
    """The glossary's pattern with every entry's every name opted in."""
    glossary = session_of(env).glossary()
    return build_pattern(glossary, (), tuple(entry.id for entry in glossary.entries))


def _visible_texts(node: nodes.Node, linked: str | None = None) -> Iterator[tuple[nodes.Text, str | None]]:
    """Text of visible prose, each with the entry its auto-link targets (None when not auto-linked)."""
    if isinstance(node, nodes.Text):
        yield node, linked
        return
    if isinstance(node, addnodes.pending_xref) or (isinstance(node, nodes.reference) and node.get(AUTOLINK)):
        if not node.get(AUTOLINK):
            return
        linked = node.get("reftarget", "") or node.get("mlglossary_target", "") or "?"
    elif isinstance(node, _UNSEEN):
        return
    if isinstance(node, nodes.Element) and not _UNSEEN_CLASSES.isdisjoint(node.get("classes", ())):
        return
    for child in node.children:  # type: ignore[attr-defined]
        yield from _visible_texts(child, linked)


def _located(node: nodes.Node) -> tuple[str, int]:
    """The source file and line of the nearest element that has them."""
    current: nodes.Node | None = node
    while current is not None:
        source, line = getattr(current, "source", None), getattr(current, "line", None)
        if source and line:
            return source, line
        current = current.parent
    return "", 0


def _in_context(text: nodes.Text) -> tuple[str, int]:
    """The text of the enclosing paragraph (or other text element), and where ``text`` starts in it."""
    holder: nodes.Node = text
    while holder.parent is not None and (not isinstance(holder, nodes.TextElement) or isinstance(holder, nodes.Inline)):
        holder = holder.parent
    if holder is text or isinstance(holder, nodes.Text):
        return str(text), 0
    offset = 0
    for piece in holder.findall(nodes.Text):
        if piece is text:
            return holder.astext(), offset
        offset += len(piece.astext())
    return str(text), 0


def record(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: append the page's mentions to the record file."""
    target = app.config[RECORD_TO]
    if not target:
        return
    pattern = every_name_pattern(app.env)
    docname = app.env.docname
    rows = []
    for text, linked_target in _visible_texts(doctree):
        written = str(text)
        source, line = _located(text)
        context, offset = _in_context(text)
        for match in pattern.finditer(written):
            rows.append(
                {
                    "page": docname,
                    "source": source,
                    "line": line,
                    "written": written[match.start : match.end],
                    "entry": match.entry_id,
                    "linked": None if linked_target is None else pattern.entry_of(linked_target) or linked_target,
                    "context": context,
                    "at": offset + match.start,
                }
            )
    with Path(target).open("a", encoding="utf-8") as out:
        out.writelines(json.dumps(row) + "\n" for row in rows)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value(RECORD_TO, "", "", types=[str])
    app.connect("doctree-read", record, priority=900)
    return {"parallel_read_safe": False, "parallel_write_safe": True}


def record_build(variant_dir: Path, out_dir: Path, record_file: Path, overrides: dict[str, str] | None = None) -> Path:
    """Build ``variant_dir`` (dummy builder: read time is what matters) with the recorder; return the record."""
    record_file.unlink(missing_ok=True)
    extensions = ["myst_parser", "_site_shims", "sphinxcontrib_mlglossary", "benchmarks.autolink_record"]
    command = [sys.executable, "-m", "sphinx", "-E", "-q", "-b", "dummy"]
    command += ["-D", "extensions=" + ",".join(extensions), "-D", f"{RECORD_TO}={record_file}"]
    for key, value in (overrides or {}).items():
        command += ["-D", f"{key}={value}"]
    subprocess.run([*command, str(variant_dir), str(out_dir)], check=True)
    record_file.touch()
    return record_file
