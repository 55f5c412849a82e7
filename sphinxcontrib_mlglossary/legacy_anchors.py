"""Old-style anchors of entries (``#license``), given only where the page leaves them free.

Entries answer to ``#term-<id>`` and, for links made before ids existed, to the slug of
their heading. A page's own sections take ids as they are parsed, so a "License"
section written after the glossary directive would find ``license`` already taken by
an entry and become ``#license-1``. The old anchor is therefore added after the whole
page is parsed, and only when no element of the page uses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms import SphinxTransform

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: node attribute carrying the anchor the entry would like, until the page is parsed
WANTED = "mlglossary_legacy_anchor"


class LegacyAnchors(SphinxTransform):
    """Give each entry its old anchor when the page has not used that id."""

    default_priority = 210  # after docutils has given every section and target its id

    def apply(self, **kwargs: Any) -> None:
        for term in self.document.findall(nodes.term):
            anchor = term.attributes.pop(WANTED, "")
            if anchor and anchor not in self.document.ids:
                term["ids"].append(anchor)
                self.document.ids[anchor] = term


def register(app: Sphinx) -> None:
    app.add_transform(LegacyAnchors)
