"""The whole text of the paragraph a text node stands in, for the sentence cues.

A sentence is often cut into several text nodes by inline markup: a link, a piece of
code or emphasis ("Model being trained: `mpnet-base` (133M parameters)"). The cues
that decide an everyday word (another entry named in its sentence, a model, the
other sense's words) are read in the sentence as the reader sees it, across that
markup, not in the piece of it the word happens to share a node with.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from .term_pattern import TermPattern


class Paragraph:
    """A paragraph's text, where each of its text nodes starts in it, and the names found in
    it, looked for only when a rule asks (most mentions need the text alone)."""

    def __init__(self, text: str, starts: dict[int, int], anyway: TermPattern, every: TermPattern) -> None:
        self.text = text
        self.starts = starts  # id of an original text node -> its offset in ``text``
        self._anyway_pattern = anyway
        self._every_pattern = every

    @cached_property
    def anyway(self) -> dict[tuple[int, int], str]:
        """Spans of ``text`` with their entries, by the names linked anyway."""
        return {(m.start, m.end): m.entry_id for m in self._anyway_pattern.finditer(self.text)}

    @cached_property
    def named(self) -> dict[tuple[int, int], str]:
        """Spans of ``text`` with their entries, by every name in use."""
        return {(m.start, m.end): m.entry_id for m in self._every_pattern.finditer(self.text)}


class Paragraphs:
    """The paragraphs of one page, read once each (text nodes are looked up by identity:
    the linker holds them all while it works, so no identity is reused)."""

    def __init__(self, anyway: TermPattern, every: TermPattern) -> None:
        self._anyway = anyway
        self._every = every
        self._read: dict[int, Paragraph] = {}

    def around(self, text: nodes.Text) -> tuple[Paragraph, int]:
        """The paragraph holding ``text`` and where ``text`` starts in it."""
        block: nodes.Element | None = text.parent
        while isinstance(block, nodes.Inline) and block is not None:
            block = block.parent
        if not isinstance(block, nodes.Element):
            return self._paragraph([text]), 0
        if id(block) not in self._read:
            self._read[id(block)] = self._paragraph(list(block.findall(nodes.Text)))
        paragraph = self._read[id(block)]
        if id(text) in paragraph.starts:
            return paragraph, paragraph.starts[id(text)]
        return self._paragraph([text]), 0  # a node made after the paragraph was read

    def _paragraph(self, pieces: list[nodes.Text]) -> Paragraph:
        starts, position = {}, 0
        for piece in pieces:
            starts[id(piece)] = position
            position += len(piece)
        return Paragraph("".join(str(piece) for piece in pieces), starts, self._anyway, self._every)
