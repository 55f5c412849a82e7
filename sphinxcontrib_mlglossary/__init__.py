"""Cite a curated machine-learning glossary from any Sphinx project."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def setup(app: Sphinx) -> dict[str, Any]:
    """Register everything the extension adds; the one place that wires it together."""
    from . import (
        assets,
        card_asset,
        card_marks,
        config,
        external_terms,
        first_use,
        legacy_anchors,
        link_resolution,
        linked_bodies,
        nodes,
        page_direction,
        page_terms,
        prerendered,
        single_page,
        structured_data,
    )
    from .autolink import AutoLinker
    from .backlinks import Backlinks
    from .body_expansion import StoredBodies
    from .cited_only import CitedOnly
    from .directives import MlGlossaryDirective
    from .domain import MlGlossaryDomain, reading_done, start_session
    from .entry_definitions import ExpandDefinitions
    from .file_notices import report_file_notices
    from .glossary_json import write_glossary_json
    from .i18n import CATALOG, LOCALE_DIR
    from .invalidation import pages_to_rewrite
    from .left_out import LeftOut
    from .registration import settle_after_reading, withdraw_names
    from .roles import term_role
    from .term_targets import TermTargets
    from .unresolved import on_warn_missing_reference
    from .unused import report_unused

    config.register(app)
    app.add_domain(MlGlossaryDomain)
    nodes.register(app)
    app.add_directive("mlglossary", MlGlossaryDirective)
    page_terms.register(app)
    # the term role proposes canonical names for our entries (quiet translations);
    # TermTargets decides, once all pages are read, with the project's own terms first
    app.add_role_to_domain("std", "term", term_role(), override=True)
    app.add_transform(AutoLinker)
    legacy_anchors.register(app)
    prerendered.register(app)
    linked_bodies.register(app)
    app.add_post_transform(ExpandDefinitions)
    app.add_post_transform(StoredBodies)
    app.add_post_transform(TermTargets)
    app.add_post_transform(LeftOut)
    first_use.register(app)
    link_resolution.register(app)
    app.add_post_transform(CitedOnly)
    single_page.register(app)
    card_marks.register(app)
    app.add_post_transform(Backlinks)
    structured_data.register(app)
    app.connect("builder-inited", start_session)
    # our names leave the standard domain before pages are read and come back, decided
    # once all pages are known, on env-updated (see .registration)
    app.connect("env-before-read-docs", withdraw_names)
    app.connect("env-updated", reading_done)
    app.connect("env-updated", settle_after_reading)  # after reading_done: registration order
    app.connect("env-updated", report_file_notices)  # once per build, not once per -j worker
    app.connect("env-get-updated", pages_to_rewrite)
    app.connect("build-finished", write_glossary_json)
    app.connect("build-finished", report_unused)
    card_asset.register(app)
    external_terms.register(app)
    assets.register(app)
    page_direction.register(app)
    app.connect("warn-missing-reference", on_warn_missing_reference)
    app.add_message_catalog(CATALOG, str(LOCALE_DIR))
    return {
        "version": __version__,
        "env_version": 8,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
