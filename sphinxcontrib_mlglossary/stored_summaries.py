"""Shipped summaries as stored inline nodes, so a build does not parse a few hundred of them.

Every web build shows each entry's summary at least once away from its body: in the
glossary page's structured data, in ``glossary.json`` and in the cards. Parsing them
(MyST, roles, a scratch document) was the largest part of what the page's post-transforms
cost. ``python -m sphinxcontrib_mlglossary.prerender`` therefore stores each shipped
summary's inline nodes as data, next to the stored bodies (:mod:`.prerendered`), keyed by
the summary's text; a build makes the nodes from the data.

The nodes come from MyST's parse, so they are used only where this build's MyST parses the
stored summary canary (one of each construct the stored summaries use) into the same data,
checked once per build and language; otherwise, and for any summary whose text is not the
stored one (a project's own file, an edited entry), the summary is parsed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes
from sphinx.util import logging

from .prerendered import bundled_prerendered, node_data, node_from_data

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from .domain import MlGlossaryDomain
    from .model import Entry
    from .prerendered import NodeData

logger = logging.getLogger(__name__)

#: one of every construct the shipped summaries use (``prerender`` stores only summaries it shows)
SUMMARY_CANARY_TEXT = (
    'Plain "text" -- with `literal code`, *emphasis*, **strong**, a {term}`token` and '
    "{term}`heads <head>`: 1 < 2 & more."
)


@dataclass
class StoredSummaryCheck:
    """Per build: language -> whether this build's MyST parses the stored summaries alike."""

    usable: dict[str, bool] = field(default_factory=dict)


def summary_data(inline: Sequence[nodes.Node]) -> tuple[NodeData, ...]:
    """A summary's inline nodes as JSON-ready data; ValueError for a node that can't be stored."""
    return tuple(node_data(node) for node in inline)


def data_kinds(data: Sequence[NodeData]) -> set[str]:
    """The node kinds (tag names, ``#text``) stored in ``data``."""
    kinds: set[str] = set()
    for item in data:
        if isinstance(item, str):
            kinds.add("#text")
        else:
            kinds.add(item[0])
            kinds |= data_kinds(item[2])
    return kinds


def stored_summary(
    domain: MlGlossaryDomain,
    language: str,
    entry: Entry,
    parse: Callable[[str], Sequence[nodes.Node]],
    refdoc: str,
) -> tuple[nodes.Node, ...] | None:
    """The entry's summary made from its stored nodes, or None when it must be parsed.

    ``parse`` parses a summary as this build would (used once, on the canary); ``refdoc``
    is the page a parse would record on each cross-reference.
    """
    stored = bundled_prerendered(language)
    data = stored.summary(entry.id, entry.summary) if stored is not None else None
    if stored is None or data is None:
        return None
    check = domain.session.keep(StoredSummaryCheck, StoredSummaryCheck)
    if language not in check.usable:
        canary_text, canary_data = stored.summary_canary
        check.usable[language] = bool(canary_text) and _parses_alike(parse(canary_text), canary_data)
        if not check.usable[language]:
            logger.info("mlglossary: this build parses summaries differently from the stored ones; parsing them")
    if not check.usable[language]:
        return None
    made = tuple(node_from_data(item) for item in data)
    for node in made:
        if isinstance(node, nodes.Element):
            for xref in node.findall(addnodes.pending_xref):
                xref["refdoc"] = refdoc
    return made


def _parses_alike(parsed: Sequence[nodes.Node], stored: tuple[NodeData, ...]) -> bool:
    try:
        return summary_data(parsed) == stored
    except ValueError:
        return False
