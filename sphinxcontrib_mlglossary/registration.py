"""Our entries' names in Sphinx's standard domain, registered once every page is read.

The ``mlglossary`` directive registers nothing while its page is read: a name registered
then would clash with the project's own ``glossary`` term in whichever process reads
both (Sphinx's duplicate warning, and the later one winning), and under ``-j`` with
nobody (the merge keeps whichever arrives last, silently). Instead, on ``env-updated``,
in the main process, :func:`~.precedence.settle` decides and this module applies the
decision: our names go into the standard domain's public ``objects`` (where ``{term}``,
``objects.inv`` and intersphinx look), the general index loses the entries left out,
and each clash is one warning.

Before the next reading phase the names are taken out again (``env-before-read-docs``),
so a page read in that build meets only the project's own terms, as in a clean build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from .diagnostics import MlGlossaryWarning, warn
from .domain import glossary_domain
from .precedence import Clash, Settlement

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from .domain import MlGlossaryDomain

#: the index entry Sphinx keeps per page: (type, text, target id, main, category key)
IndexEntry = tuple[str, str, str, str, Any]


def withdraw_names(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """``env-before-read-docs``: take our names out of the standard domain before pages are read."""
    _withdraw(glossary_domain(env))


def _withdraw(domain: MlGlossaryDomain) -> None:
    objects = _std_objects(domain.env)
    for name, place in domain.registered.items():
        if objects.get(("term", name)) == tuple(place):
            del objects[("term", name)]
    domain.registered.clear()


def settle_after_reading(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``, connected after the domain's :func:`.domain.reading_done`."""
    apply_settlement(env)


def apply_settlement(env: BuildEnvironment) -> Settlement:
    """``env-updated``: decide who owns each term, register our names, trim the index, warn."""
    domain = glossary_domain(env)
    _withdraw(domain)  # (done before reading already; safe to repeat)
    domain.session.resolved.settlement = None
    settled = domain.settlement()
    objects = _std_objects(env)
    for name, place in settled.names.items():
        objects[("term", name)] = place
    domain.registered.update(settled.names)
    _trim_index(env, domain, settled)
    purged: set[str] = domain.data["purged"]
    for clash in settled.clashes:
        if clash.docname in purged or clash.winner in purged:
            _report(env, clash)
    return settled


def _trim_index(env: BuildEnvironment, domain: MlGlossaryDomain, settled: Settlement) -> None:
    """The general index lists the entries shown, under the names they keep, and no others."""
    entries = cast("dict[str, list[IndexEntry]]", env.get_domain("index").entries)  # type: ignore[attr-defined]
    for docname, made in domain.made_definitions.items():
        ours = set(made.values())
        left_out = set(settled.dropped.get(docname, {}).values())
        kept = [
            entry
            for entry in domain.index_entries.get(docname, ())
            if entry[2] not in left_out and entry[1] in settled.names
        ]
        others = [entry for entry in entries.get(docname, []) if entry[2] not in ours]
        if kept or others or docname in entries:
            entries[docname] = [*others, *kept]


def _report(env: BuildEnvironment, clash: Clash) -> None:
    where = env.doc2path(clash.winner, False)
    if not clash.project and not clash.dropped:
        message = (
            f"glossary entry {clash.entry_name!r}: {' and '.join(map(repr, clash.names))} is already the name "
            f"of another entry shown on {where}, which comes first in name order: citations of it go there"
        )
    elif not clash.project:
        message = (
            f"glossary entry {clash.entry_name!r} ({clash.entry_id}) is already shown on {where}, the first "
            "page in name order to show it: it is left out here; remove it from one of the two directives"
        )
    elif clash.dropped:
        message = (
            f"glossary entry {clash.entry_name!r} is replaced by your own term of that name in {where}: it is "
            f"left out, and its names ({', '.join(map(repr, clash.names))}) lead to your term; "
            "remove your term to show ours"
        )
    else:
        message = (
            f"glossary entry {clash.entry_name!r}: your own term in {where} takes its name "
            f"{' and '.join(map(repr, clash.names))}; citations of it go to your term"
        )
    warn(MlGlossaryWarning.DUPLICATE_TERM, message, location=(clash.docname, clash.line or None))


def _std_objects(env: BuildEnvironment) -> dict[tuple[str, str], tuple[str, str]]:
    """The standard domain's public ``(type, name) -> (docname, anchor)`` registry."""
    return cast("dict[tuple[str, str], tuple[str, str]]", env.get_domain("std").objects)  # type: ignore[attr-defined]
