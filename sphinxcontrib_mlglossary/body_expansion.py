"""When a page is written, a stored body stays HTML or becomes the nodes it was made from.

The read doctree is the same for every builder (Sphinx shares the doctree folder between
them). Here, before the term references are decided (:class:`~.term_targets.TermTargets`,
priority 5), a :class:`~.prerendered.prerendered_body` stays as it is only where its stored
HTML is exactly what this build would write: an HTML-format builder whose rendering of
the stored canary body (one of each construct and code language the stored bodies use,
through this builder's translator, settings, Pygments and smart quotes) equals the stored
canary. Everywhere else (LaTeX, text, man, Texinfo, gettext, e-books whose translator
writes otherwise, another docutils, a theme's translator, other settings) the body is
parsed and put in its place, as if the page had been read without stored bodies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from .domain import glossary_domain
from .entry_bodies import fragment_html, parse_bodies
from .entry_references import mark_references
from .linked_bodies import as_nodes, linked_body
from .loader import bundled_glossary
from .prerendered import bundled_prerendered, prerendered_body
from .session import BuildSession

if TYPE_CHECKING:
    from .model import Glossary

logger = logging.getLogger(__name__)


@dataclass
class StoredBodyCheck:
    """Per build: language -> whether this builder writes the stored bodies' HTML exactly."""

    usable: dict[str, bool] = field(default_factory=dict)


def stored_html_usable(session: BuildSession, env: Any, builder: Any, settings: Any, language: str) -> bool:
    """Whether this build's HTML of the canary body equals the stored one (checked once per build)."""
    check = session.keep(StoredBodyCheck, StoredBodyCheck)
    if language not in check.usable:
        check.usable[language] = _canary_matches(session, env, builder, settings, language)
    return check.usable[language]


def _canary_matches(session: BuildSession, env: Any, builder: Any, settings: Any, language: str) -> bool:
    stored = bundled_prerendered(language)
    if stored is None or builder.format != "html" or getattr(builder, "docsettings", None) is None:
        return False
    parsed = parse_bodies(env, session, [("canary", stored.canary_text, None)], settings, env.config.root_doc)
    ours = fragment_html(builder, parsed["canary"])
    matches = ours.pieces == stored.canary.pieces
    if not matches:
        logger.info("mlglossary: this builder writes entry bodies differently from the stored ones; parsing them")
    return matches


class StoredBodies(SphinxPostTransform):
    """Keep each stored body as HTML where the check allows it, else parse it in its place."""

    default_priority = 3  # before TermTargets (5) gives the citations in the bodies their ids

    def run(self, **kwargs: Any) -> None:
        stored = list(self.document.findall(prerendered_body))
        if not stored:
            return
        session = glossary_domain(self.env).session
        by_language: dict[str, list[prerendered_body]] = {}
        for body in stored:
            by_language.setdefault(body["language"], []).append(body)
        for language, bodies in by_language.items():
            if stored_html_usable(session, self.env, session.require_builder(), self.document.settings, language):
                bodies = [body for body in bodies if body.get("stale")]  # no stored HTML to keep
            if bodies:
                self._parse_in_place(session, language, bodies)

    def _parse_in_place(self, session: BuildSession, language: str, bodies: list[prerendered_body]) -> None:
        glossary = bundled_glossary(language)
        docname = self._page_of(bodies[0])
        texts = [(body["entry"], _body_text(glossary, body["entry"]), None) for body in bodies]
        parsed = parse_bodies(self.env, session, texts, self.document.settings, docname)
        known: dict[str, bool] = {}
        for body in bodies:
            if isinstance(body, linked_body):  # its "See also" line stays
                made = as_nodes(body)
                body.replace_self(made)
                body = cast(prerendered_body, made[0])
            blocks = parsed[body["entry"]]
            mark_references(blocks, glossary, known)
            for block in blocks:
                for text_node in block.findall(nodes.TextElement):
                    text_node["translatable"] = False
            body.replace_self(blocks)

    def _page_of(self, body: prerendered_body) -> str:
        """The page the body was read on (in a single-page build, not the page being written)."""
        if body.get("docname"):
            return str(body["docname"])
        link = next(iter(body.findall(addnodes.pending_xref)), None)
        return str(link["refdoc"]) if link is not None else self.env.docname


def _body_text(glossary: Glossary, entry_id: str) -> str:
    entry = glossary.get(entry_id)
    return entry.body if entry is not None else ""
