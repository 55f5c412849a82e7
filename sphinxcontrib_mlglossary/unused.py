"""``mlglossary_report_unused``: one line at the end of a build naming entries no page cites."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .backlinks import cached_index
from .diagnostics import MlGlossaryWarning, logger, warn
from .domain import glossary_domain
from .sources import entry_for

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def unused_entries(app: Sphinx) -> tuple[list[str], int]:
    """Names of the entries shown on glossary pages that no page cites, and how many are shown."""
    domain = glossary_domain(app.env)
    index = cached_index(domain, False, 0)
    shown: dict[str, tuple[str, str]] = {}
    for docname in sorted(domain.definitions):
        for entry_id, anchor in domain.definitions[docname].items():
            shown.setdefault(entry_id, (docname, anchor))
    unused = []
    for entry_id, home in shown.items():
        cited = index.get(home)
        if cited is None or not cited.total:
            entry = entry_for(domain, home[0], entry_id)
            unused.append(entry.name if entry is not None else entry_id)
    return sorted(unused, key=str.casefold), len(shown)


def report_unused(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: say which entries no page cites (info line or warning, by config)."""
    level = glossary_domain(app.env).session.settings.report_unused
    if exception is not None or level == "off" or app.builder.format == "gettext":
        return
    unused, shown = unused_entries(app)
    if not shown:
        return
    if not unused:
        logger.info(f"mlglossary: all {shown} glossary entries are cited")
        return
    message = f"{len(unused)} of {shown} glossary entries are cited by no page: {', '.join(unused)}"
    if level == "warning":
        warn(MlGlossaryWarning.UNUSED_TERM, message)
    else:
        logger.info(f"mlglossary: {message}")
