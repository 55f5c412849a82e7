"""Cite a curated machine-learning glossary from any Sphinx project."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def setup(app: Sphinx) -> dict[str, Any]:
    """Register everything the extension adds; the one place that wires it together."""
    from sphinx import locale

    from . import assets, config, nodes
    from .autolink import AutoLinker
    from .backlinks import Backlinks, CitedOnly, reset_cache
    from .canonical_terms import term_role
    from .citations import CitationsCollector, IdentifyCitations
    from .collector import DefinitionsCollector, UserTermsCollector
    from .directives import MlGlossaryDirective
    from .glossary_json import write_glossary_json
    from .i18n import CATALOG, LOCALE_DIR
    from .references import on_missing_reference, on_warn_missing_reference
    from .rewrites import note_touched, pages_to_rewrite
    from .tooltips import TooltipCards, reset_card_cache
    from .unused import report_unused

    config.register(app)
    app.add_directive("mlglossary", MlGlossaryDirective)
    app.add_env_collector(DefinitionsCollector)
    app.add_env_collector(UserTermsCollector)
    nodes.register(app)
    app.add_post_transform(TooltipCards)
    app.add_role_to_domain("std", "term", term_role(), override=True)
    app.add_transform(AutoLinker)
    app.add_env_collector(CitationsCollector)
    app.add_post_transform(IdentifyCitations)
    app.add_post_transform(Backlinks)
    app.add_post_transform(CitedOnly)
    app.connect("env-purge-doc", note_touched)
    app.connect("env-get-updated", pages_to_rewrite)
    app.connect("env-updated", reset_cache)
    app.connect("builder-inited", reset_card_cache)
    app.connect("env-updated", reset_card_cache)
    app.connect("build-finished", write_glossary_json)
    app.connect("build-finished", report_unused)
    assets.register(app)
    app.connect("missing-reference", on_missing_reference)
    app.connect("warn-missing-reference", on_warn_missing_reference)
    # A translator cached by an earlier build in this process would answer in its
    # language (e.g. Spanish labels in an Arabic build): load ours afresh.
    locale.translators.pop(("sphinx", CATALOG), None)
    app.add_message_catalog(CATALOG, str(LOCALE_DIR))
    return {
        "version": __version__,
        "env_version": 5,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
