"""Write parsed Transformers-dialect Markdown back out as MyST, translating the dialect's extras.

``[`BertTokenizer`]`` becomes a Python cross-reference, ``[text](#anchor)`` a term
reference, ``<Tip>`` a note admonition, ``<Youtube id=.../>`` a plain link. Whatever the
writer does not know is kept as text and reported with its line: nothing disappears
silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from ..model import slugify
from .result import Notice

VIDEO_URL = "https://www.youtube.com/watch?v={id}"
API_MODULE = "transformers"

_API_NAME = re.compile(r"~?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_VIDEO = re.compile(r"""^<Youtube\s+id\s*=\s*["']([\w-]+)["']\s*/?>(?:\s*</Youtube>)?$""", re.IGNORECASE)
_TIP_OPEN = re.compile(r"^<Tip(\s+warning(=\{?true\}?)?)?\s*>", re.IGNORECASE)
_TIP_CLOSE = re.compile(r"</Tip>\s*$", re.IGNORECASE)
_COMMENT = re.compile(r"^<!--.*?-->$", re.DOTALL)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")
_BLOCK_START = re.compile(r"^(?:[#>+=|-]|\d+[.)](?:\s|$))")
_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")


def markdown_parser() -> MarkdownIt:
    """CommonMark plus tables: what the dialect uses."""
    return MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True, slots=True)
class TermTarget:
    """What an in-page anchor resolves to."""

    id: str
    name: str


@dataclass
class WriterContext:
    """Settings and shared state for writing the entries of one file."""

    path: Path
    #: prefix for relative links ("" keeps them relative)
    link_base: str
    #: in-page anchors (slugs) to the entries they name
    anchors: dict[str, TermTarget]
    notices: list[Notice] = field(default_factory=list)
    #: lines holding relative links left relative (reported once)
    relative_lines: list[int] = field(default_factory=list)

    def warn(self, line: int, subtype: str, message: str) -> None:
        self.notices.append(Notice("warning", subtype, f"{self.path}:{line}: {message}", line=line))


@dataclass
class _Inline:
    """State of one inline run: where it is, and which entries it links to."""

    line: int
    linked: list[str] = field(default_factory=list)


class MystWriter:
    """Renders blocks and inline runs of one entry; collects the entries it links to."""

    def __init__(self, context: WriterContext) -> None:
        self.context = context
        self.linked: list[str] = []

    # blocks ---------------------------------------------------------------------------

    def blocks(self, nodes: Sequence[SyntaxTreeNode]) -> str:
        """MyST for a run of sibling blocks, separated by blank lines."""
        out: list[str] = []
        index = 0
        while index < len(nodes):
            node = nodes[index]
            if node.type == "html_block" and _TIP_OPEN.match(node.content.strip()):
                text, index = self._tip(nodes, index)
                out.append(text)
                continue
            text = self.block(node)
            if text:
                out.append(text)
            index += 1
        return "\n\n".join(out)

    def block(self, node: SyntaxTreeNode) -> str:
        line = _line(node)
        kind = node.type
        if kind == "paragraph":
            return self.inline(node.children[0], line) if node.children else ""
        if kind == "fence":
            return _fence(node.content, node.info.strip())
        if kind == "code_block":
            return _fence(node.content, "")
        if kind in ("bullet_list", "ordered_list"):
            return self._list(node)
        if kind == "blockquote":
            return _prefix(self.blocks(node.children), "> ")
        if kind == "heading":
            text = self.inline(node.children[0], line) if node.children else ""
            self.context.warn(
                line,
                "markup",
                f"heading level {len(node.markup)} inside an entry can't be kept as a heading; "
                "it was turned into a bold line (use ### for a new entry)",
            )
            return f"**{text}**"
        if kind == "html_block":
            return self._html_block(node)
        if kind == "hr":
            return "----"
        if kind == "table":
            return self._table(node)
        source = node.content or (node.children[0].content if node.children else "")
        self.context.warn(line, "markup", f"unknown Markdown construct {kind!r} kept as text")
        return source.strip()

    def _html_block(self, node: SyntaxTreeNode) -> str:
        text = node.content.strip()
        if _COMMENT.match(text):
            return ""
        video = _VIDEO.match(text)
        if video:
            return f"[Video]({VIDEO_URL.format(id=video.group(1))})"
        self.context.warn(_line(node), "markup", f"unknown HTML {_first_line(text)!r} kept as text")
        return text

    def _tip(self, nodes: Sequence[SyntaxTreeNode], start: int) -> tuple[str, int]:
        """``<Tip>`` ... ``</Tip>``: a note (or warning) admonition around the blocks between."""
        opener = nodes[start]
        head = opener.content.strip()
        kind = "warning" if "warning" in head.lower() else "note"
        inner_head = _TIP_OPEN.sub("", head, count=1)
        if _TIP_CLOSE.search(inner_head):  # opened and closed in one HTML block
            inner = self._reparse(_TIP_CLOSE.sub("", inner_head), _line(opener))
            return _admonition(kind, inner), start + 1
        for end in range(start + 1, len(nodes)):
            node = nodes[end]
            if node.type == "html_block" and _TIP_CLOSE.search(node.content.strip()):
                parts = []
                if inner_head.strip():
                    parts.append(self._reparse(inner_head, _line(opener)))
                parts.append(self.blocks(nodes[start + 1 : end]))
                tail = _TIP_CLOSE.sub("", node.content.strip())
                if tail.strip():
                    parts.append(self._reparse(tail, _line(node)))
                return _admonition(kind, "\n\n".join(p for p in parts if p)), end + 1
        self.context.warn(_line(opener), "markup", "<Tip> is never closed with </Tip>; kept as text")
        return head, start + 1

    def _reparse(self, text: str, line: int) -> str:
        tokens = markdown_parser().parse(text)
        for token in tokens:
            if token.map:
                token.map = [token.map[0] + line - 1, token.map[1] + line - 1]
        return self.blocks(SyntaxTreeNode(tokens).children)

    def _list(self, node: SyntaxTreeNode) -> str:
        ordered = node.type == "ordered_list"
        number = int(str(node.attrs.get("start", 1))) if ordered else 0
        items = []
        for item in node.children:
            marker = f"{number}. " if ordered else "- "
            number += 1
            body = self.blocks(item.children)
            items.append(marker + _indent(body, " " * len(marker)))
        tight = all(
            not child.children or child.children[0].type != "paragraph" or child.children[0].hidden
            for child in node.children
        )
        return ("\n" if tight else "\n\n").join(items)

    def _table(self, node: SyntaxTreeNode) -> str:
        rows: list[list[str]] = []
        for section in node.children:
            for row in section.children:
                rows.append(
                    [
                        self.inline(cell.children[0], _line(row) or _line(node)).replace("|", "\\|")
                        if cell.children
                        else ""
                        for cell in row.children
                    ]
                )
        if not rows:
            return ""
        width = max(len(row) for row in rows)
        lines = ["| " + " | ".join(row + [""] * (width - len(row))) + " |" for row in rows]
        lines.insert(1, "|" + "---|" * width)
        return "\n".join(lines)

    # inline ---------------------------------------------------------------------------

    def inline(self, node: SyntaxTreeNode, line: int) -> str:
        """MyST for an ``inline`` node (a paragraph's or heading's text)."""
        state = _Inline(line)
        text = self._run(_with_api_references(node.children), state, at_line_start=True)
        self.linked.extend(state.linked)
        return text

    def _run(self, nodes: Iterable[SyntaxTreeNode | _ApiReference], state: _Inline, *, at_line_start: bool) -> str:
        out: list[str] = []
        start = at_line_start
        for node in nodes:
            piece = self._one(node, state, start)
            out.append(piece)
            if piece:
                start = piece.endswith("\n")
        return "".join(out)

    def _one(self, node: SyntaxTreeNode | _ApiReference, state: _Inline, at_line_start: bool) -> str:
        if isinstance(node, _ApiReference):
            return api_role(node.name)
        kind = node.type
        if kind == "text":
            return escape(node.content, at_line_start=at_line_start)
        if kind in ("softbreak", "hardbreak"):
            state.line += 1
            return "\n" if kind == "softbreak" else "\\\n"
        if kind == "code_inline":
            return code_span(node.content)
        if kind in ("em", "strong"):
            inner = self._run(_with_api_references(node.children), state, at_line_start=False)
            return f"{node.markup}{inner}{node.markup}"
        if kind == "link":
            return self._link(node, state)
        if kind == "image":
            src = self._target(str(node.attrs.get("src", "")), state)
            alt = escape(_plain(node.children) or str(node.attrs.get("alt", "")), at_line_start=False)
            return f"![{alt}]({src})"
        if kind == "html_inline":
            return self._html_inline(node, state)
        self.context.warn(state.line, "markup", f"unknown inline construct {kind!r} kept as text")
        return escape(node.content, at_line_start=at_line_start)

    def _html_inline(self, node: SyntaxTreeNode, state: _Inline) -> str:
        text = node.content.strip()
        if _COMMENT.match(text):
            return ""
        video = _VIDEO.match(text)
        if video:
            return f"[Video]({VIDEO_URL.format(id=video.group(1))})"
        self.context.warn(state.line, "markup", f"unknown inline HTML {text!r} kept as text")
        return escape(node.content, at_line_start=False)

    def _link(self, node: SyntaxTreeNode, state: _Inline) -> str:
        href = str(node.attrs.get("href", ""))
        if node.markup == "autolink":
            return f"<{href}>"
        label = self._run(_with_api_references(node.children), state, at_line_start=False)
        title = node.attrs.get("title")
        suffix = f' "{title}"' if title else ""
        if href.startswith("#"):
            target = self.context.anchors.get(href[1:]) or self.context.anchors.get(slugify(href[1:]))
            if target is not None:
                state.linked.append(target.id)
                return term_role(_plain(node.children), target.name)
            self.context.warn(
                state.line,
                "markup",
                f"in-page link {href!r} matches no entry of this file; kept as a plain link "
                "(fix the anchor or link to the page it belongs to)",
            )
            return f"[{label}]({href}{suffix})"
        destination = self._target(href, state)
        if destination is None:
            return label  # a page of another site, and no base to reach it: keep the words
        return f"[{label}]({destination}{suffix})"

    def _target(self, href: str, state: _Inline) -> str | None:
        """Absolute links stay, relative ones get the link base (None without one, reported once).

        A relative link points into the documentation the glossary came from; kept as
        is, it would become a broken cross-reference in the project that loads it.
        """
        if not href or _SCHEME.match(href) or href.startswith(("#", "/")):
            return href
        if self.context.link_base:
            return self.context.link_base.rstrip("/") + "/" + href
        self.context.relative_lines.append(state.line)
        return None


@dataclass(frozen=True, slots=True)
class _ApiReference:
    """``[`BertTokenizer`]``: the dialect's reference to an API object."""

    name: str


def _with_api_references(children: Sequence[SyntaxTreeNode]) -> list[SyntaxTreeNode | _ApiReference]:
    """Fold ``text "["``, ``code``, ``text "]"`` into one API reference, keeping everything else."""
    items: list[SyntaxTreeNode | _ApiReference] = list(children)
    out: list[SyntaxTreeNode | _ApiReference] = []
    index = 0
    while index < len(items):
        item = items[index]
        if (
            isinstance(item, SyntaxTreeNode)
            and item.type == "text"
            and item.content.endswith("[")
            and index + 2 < len(items)
            and _is_node(items[index + 1], "code_inline")
            and _is_node(items[index + 2], "text")
            and _API_NAME.fullmatch(_content(items[index + 1]))
            and _content(items[index + 2]).startswith("]")
        ):
            out.append(_text_node(item.content[:-1]))
            out.append(_ApiReference(_content(items[index + 1])))
            items[index + 2] = _text_node(_content(items[index + 2])[1:])
            index += 2
            continue
        out.append(item)
        index += 1
    return out


def _is_node(item: SyntaxTreeNode | _ApiReference, kind: str) -> bool:
    return isinstance(item, SyntaxTreeNode) and item.type == kind


def _content(item: SyntaxTreeNode | _ApiReference) -> str:
    return item.content if isinstance(item, SyntaxTreeNode) else item.name


def _text_node(text: str) -> SyntaxTreeNode:
    from markdown_it.token import Token

    node = SyntaxTreeNode()
    node.token = Token("text", "", 0, content=text)
    return node


def api_role(name: str) -> str:
    """The MyST reference for an API name, written the way the bundled glossary writes them."""
    path = name.lstrip("~")
    last = path.rsplit(".", 1)[-1]
    if last[:1].isupper():
        role = "py:class"
    elif "." in path and path.split(".")[-2][:1].isupper():
        role = "py:meth"
    else:
        role = "py:func"
    return f"{{{role}}}`~{API_MODULE}.{path}`"


def term_role(text: str, name: str) -> str:
    """``{term}`name``` or ``{term}`text <name>``` when the link text differs from the name."""
    text = " ".join(text.replace("`", "").replace("<", "").replace(">", "").split())
    if not text or text.casefold() == name.casefold():
        return f"{{term}}`{name}`"
    return f"{{term}}`{text} <{name}>`"


def code_span(content: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", content)), default=0)
    fence = "`" * (longest + 1)
    pad = (
        " " if content.startswith("`") or content.endswith("`") or (content.startswith(" ") and content.strip()) else ""
    )
    return f"{fence}{pad}{content}{pad}{fence}"


def escape(text: str, *, at_line_start: bool) -> str:
    """Backslash what MyST would otherwise read as markup."""
    out = []
    for index, char in enumerate(text):
        if char in "\\`*[]<$":
            out.append("\\" + char)
        elif char == "_":
            before = text[index - 1] if index else ""
            after = text[index + 1] if index + 1 < len(text) else ""
            out.append("_" if before.isalnum() and after.isalnum() else "\\_")
        else:
            out.append(char)
    escaped = _ENTITY.sub(r"\\&", "".join(out))
    if at_line_start and _BLOCK_START.match(escaped):
        escaped = "\\" + escaped if not escaped[0].isdigit() else re.sub(r"^(\d+)([.)])", r"\1\\\2", escaped)
    return escaped


def _fence(content: str, info: str) -> str:
    longest = max((len(run) for run in re.findall(r"^\s*(`{3,})", content, re.MULTILINE)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{content.rstrip(chr(10))}\n{fence}"


def _admonition(kind: str, body: str) -> str:
    longest = max((len(run) for run in re.findall(r"^(`{3,})", body, re.MULTILINE)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{{{kind}}}\n{body}\n{fence}"


def _indent(text: str, pad: str) -> str:
    return "\n".join((pad + line if line and index else line) for index, line in enumerate(text.split("\n")))


def _prefix(text: str, prefix: str) -> str:
    return "\n".join((prefix + line).rstrip() for line in text.split("\n"))


def _plain(nodes: Sequence[SyntaxTreeNode]) -> str:
    parts = []
    for node in nodes:
        if node.type in ("text", "code_inline"):
            parts.append(node.content)
        elif node.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif node.children:
            parts.append(_plain(node.children))
    return "".join(parts)


def plain_text(node: SyntaxTreeNode) -> str:
    """The text of an inline node without any markup (for headings)."""
    return _plain(node.children)


def _line(node: SyntaxTreeNode) -> int:
    mapping = node.map
    return mapping[0] + 1 if mapping else 0


def _first_line(text: str) -> str:
    return text.split("\n", 1)[0][:60]
