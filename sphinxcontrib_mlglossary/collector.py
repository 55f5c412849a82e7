"""What the environment remembers between builds, kept per document.

Keyed by docname so that purge is a ``pop`` and a parallel merge copies exactly the
documents a worker read (appending everything would double-count under ``-j``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sphinx.environment.collectors import EnvironmentCollector

if TYPE_CHECKING:
    from collections.abc import Set

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: attribute on the environment: docname -> {entry id: anchor} defined on that page
DEFINITIONS = "mlglossary_definitions"


def definitions(env: BuildEnvironment) -> dict[str, dict[str, str]]:
    """Glossary entries defined per page (created on first use)."""
    if not hasattr(env, DEFINITIONS):
        setattr(env, DEFINITIONS, {})
    return getattr(env, DEFINITIONS)  # type: ignore[no-any-return]


#: attribute on the environment: docname -> {entry id: SourceSpec} for entries not from the bundled glossary
DEFINITION_SOURCES = "mlglossary_definition_sources"


def definition_sources(env: BuildEnvironment) -> dict[str, dict[str, Any]]:
    """Where each page's entries come from, when not from the bundled glossary."""
    if not hasattr(env, DEFINITION_SOURCES):
        setattr(env, DEFINITION_SOURCES, {})
    return getattr(env, DEFINITION_SOURCES)  # type: ignore[no-any-return]


def glossary_page_of(env: BuildEnvironment, entry_id: str) -> str | None:
    """The page that defines an entry, if any (the first in sorted order, for stability)."""
    for docname in sorted(definitions(env)):
        if entry_id in definitions(env)[docname]:
            return docname
    return None


class DefinitionsCollector(EnvironmentCollector):
    """Tracks which pages hold an ``mlglossary`` directive and which entries they define."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        definitions(env).pop(docname, None)
        definition_sources(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
        for table in (definitions, definition_sources):
            theirs = table(other)
            ours = table(env)
            for docname in docnames:
                if docname in theirs:
                    ours[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        """Nothing to do: the directive records its entries while the page is read."""


#: attribute on the environment: docname -> {anchor: (term text, first paragraph or None)}
USER_TERMS = "mlglossary_user_terms"


def user_terms(env: BuildEnvironment) -> dict[str, dict[str, tuple[str, nodes.paragraph | None]]]:
    """Terms of the project's own ``glossary`` directives, per page (for their tooltips)."""
    if not hasattr(env, USER_TERMS):
        setattr(env, USER_TERMS, {})
    return getattr(env, USER_TERMS)  # type: ignore[no-any-return]


class UserTermsCollector(EnvironmentCollector):
    """Remembers each term of the project's own glossaries with its first paragraph.

    Read at read time (in the reading process) so tooltips for those terms work
    under ``-j`` without reopening other pages' doctrees.
    """

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        user_terms(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
        theirs = user_terms(other)
        ours = user_terms(env)
        for docname in docnames:
            if docname in theirs:
                ours[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        from docutils import nodes
        from sphinx import addnodes

        found: dict[str, tuple[str, nodes.paragraph | None]] = {}
        for glossary in doctree.findall(addnodes.glossary):
            if _inside_mlglossary(glossary):
                continue
            for item in glossary.findall(nodes.definition_list_item):
                definition = next(iter(item.findall(nodes.definition)), None)
                paragraph = next(iter(definition.findall(nodes.paragraph)), None) if definition else None
                for term in item.findall(nodes.term):
                    if term["ids"]:
                        text = term.astext()
                        found[term["ids"][0]] = (text, paragraph.deepcopy() if paragraph else None)
        if found:
            user_terms(app.env)[app.env.docname] = found


def _inside_mlglossary(node: nodes.Element) -> bool:
    from .nodes import glossary_block

    parent = node.parent
    while parent is not None:
        if isinstance(parent, glossary_block):
            return True
        parent = parent.parent
    return False
