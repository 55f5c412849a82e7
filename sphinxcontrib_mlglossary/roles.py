"""The ``term`` role, with targets naming one of our entries made canonical.

A translator may cite ``{term}`máscara de atención``` where the original said
``{term}`attention mask```. Sphinx 9 compares the targets of term references in a
translated message with the original's and warns when they differ, even when both
name the same entry. The translated message is only parsed (no transforms run on it),
so the rewriting happens in the role itself: any name, alias, abbreviation, plural or
possessive of one of our entries becomes the entry's canonical name, on the page and in
its translations alike. The link text stays what the writer wrote.

The canonical name is only a proposal: which term a citation means is decided once
every page is read (:mod:`.term_targets`), where a term of the project's own wins over
ours, whatever the canonical name says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.roles import XRefRole

from .citations import WRITTEN_TARGET
from .domain import session_of

if TYPE_CHECKING:
    from docutils.nodes import Element
    from sphinx.environment import BuildEnvironment


class CanonicalTermRole(XRefRole):
    """Sphinx's ``term`` role, with targets that name one of our entries made canonical."""

    def process_link(
        self, env: BuildEnvironment, refnode: Element, has_explicit_title: bool, title: str, target: str
    ) -> tuple[str, str]:
        title, target = super().process_link(env, refnode, has_explicit_title, title, target)
        session = session_of(env)
        glossary = session.glossary()
        entry = glossary.get(session.pattern(glossary, ()).entry_of(target) or "")
        if entry is not None and target != entry.name.lower():
            if has_explicit_title and target.lower() != entry.name.lower():
                # without a title the node's text says what was written (see
                # written_target), a case variant resolves like the canonical name, and
                # an attribute on every reference would cost memory for the whole build
                refnode[WRITTEN_TARGET] = target
            target = entry.name.lower()
        return title, target


def term_role() -> CanonicalTermRole:
    """A role configured like the standard domain's own ``term`` role."""
    from sphinx.domains.std import StandardDomain

    original = StandardDomain.roles["term"]
    return CanonicalTermRole(
        fix_parens=getattr(original, "fix_parens", False),
        lowercase=getattr(original, "lowercase", False),
        nodeclass=getattr(original, "nodeclass", None) or XRefRole.nodeclass,
        innernodeclass=getattr(original, "innernodeclass", nodes.inline),
        warn_dangling=getattr(original, "warn_dangling", True),
    )
