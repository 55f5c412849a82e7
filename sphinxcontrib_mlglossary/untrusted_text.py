"""Text taken from another site, made safe to show: one line, no markup, limited length.

Another site's pages and ``glossary.json`` are untrusted. Nothing of their HTML is kept:
the text is read out (script, style and similar elements skipped), whitespace collapsed,
control and formatting characters (bidirectional overrides among them) dropped, and the
length limited. It only ever becomes a text node of our own card, which escapes it.
"""

from __future__ import annotations

import unicodedata
from html.parser import HTMLParser

#: the longest summary kept from another site, in characters
MAX_SUMMARY = 300
#: the longest name kept
MAX_NAME = 120


def clean_text(raw: str, limit: int) -> str:
    """Untrusted text made safe to show: one line, no control characters, at most ``limit`` characters."""
    kept = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in raw)
    text = " ".join(kept.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "…"


class _GlossaryPage(HTMLParser):
    """The text under each ``<dt id=...>`` of a page's ``<dl class="glossary">`` lists."""

    #: elements whose content is never text to show
    _SKIPPED = frozenset({"script", "style", "template", "noscript", "svg", "math", "head", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.terms: dict[str, tuple[str, str]] = {}
        self._lists: list[bool] = []  # per open <dl>: is it a glossary
        self._skipping = 0
        #: the terms of the open entry: [anchor, text parts] per ``<dt>``
        self._open_terms: list[tuple[str, list[str]]] = []
        self._definition: list[str] = []
        self._in: str = ""  # "dt", "dd" or ""
        self._depth = 0  # <dl> nesting inside the current <dd>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIPPED:
            self._skipping += 1
            return
        if tag == "dl":
            if self._in == "dd":
                self._depth += 1
                return
            classes = (dict(attrs).get("class") or "").split()
            self._lists.append("glossary" in classes)
            return
        if not self._lists or not self._lists[-1] or self._depth:
            return
        if tag == "dt":
            if self._in == "dd":
                self._close()
            self._in = "dt"
            self._open_terms.append((dict(attrs).get("id") or "", []))
        elif tag == "dd":
            self._in = "dd"

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIPPED:
            self._skipping = max(0, self._skipping - 1)
            return
        if tag == "dl":
            if self._depth:
                self._depth -= 1
                return
            if self._in == "dd":
                self._close()
            if self._lists:
                self._lists.pop()
        elif tag == "dd" and self._in == "dd" and not self._depth:
            self._close()
        elif tag == "p" and self._in == "dd" and not self._depth:
            self._definition.append("\n")

    def handle_data(self, data: str) -> None:
        if self._skipping:
            return
        if self._in == "dt" and self._open_terms:
            self._open_terms[-1][1].append(data)
        elif self._in == "dd":
            self._definition.append(data)

    def close(self) -> None:
        super().close()
        if self._in == "dd":  # a page cut short: its last definition still counts
            self._close()

    def _close(self) -> None:
        paragraphs = [p for p in "".join(self._definition).split("\n") if p.strip()]
        first = paragraphs[0] if paragraphs else ""
        summary = clean_text(first, MAX_SUMMARY)
        for anchor, parts in self._open_terms:
            if anchor:
                self.terms[anchor] = (clean_text("".join(parts).replace("¶", ""), MAX_NAME), summary)
        self._open_terms, self._definition, self._in = [], [], ""


def definitions_on_page(html: str) -> dict[str, tuple[str, str]]:
    """Anchor -> (term, first paragraph of its definition as text) for a Sphinx glossary page."""
    parser = _GlossaryPage()
    parser.feed(html)
    parser.close()
    return parser.terms
