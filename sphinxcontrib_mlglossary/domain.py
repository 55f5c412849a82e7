"""The ``mlglossary`` domain: the one owner of what the extension keeps between builds.

Everything remembered per page lives in the domain's ``data`` (pickled with the
environment), keyed by docname, so purging a page is a ``pop`` and a parallel merge
copies exactly the pages a worker read: appending everything a worker holds would
count its pages twice under ``-j``. Fingerprints that decide what an incremental
build rewrites live here too (see :mod:`.invalidation`).

The domain has no roles or object types of its own: terms are registered in the
standard domain, where ``{term}``, ``objects.inv`` and intersphinx expect them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from sphinx import addnodes
from sphinx.domains import Domain

from .citations import PageCitations, landing_numbers, record_citations
from .precedence import ProjectTerm, Settlement, settle
from .resolution import TermIndex, term_index
from .session import BuildSession
from .sources import entry_for
from .user_terms import UserTerm, collect_user_terms

if TYPE_CHECKING:
    from collections.abc import Iterable, Set

    from docutils import nodes
    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment

    from .model import Glossary
    from .sources import SourceSpec

#: the keys of ``data`` kept per page (the rest are fingerprints of the last build)
_PER_PAGE = (
    "definitions",
    "definition_sources",
    "definition_lines",
    "data_files",
    "index_entries",
    "user_terms",
    "citations",
)


class MlGlossaryDomain(Domain):
    """Per-page records of glossary entries, the project's own terms and citations."""

    name = "mlglossary"
    label = "ML glossary"
    data_version = 3
    initial_data: ClassVar[dict[str, Any]] = {
        # docname -> {entry id: anchor} of the entries an ``mlglossary`` directive made
        # there (what is shown is decided once all pages are read: see .precedence)
        "definitions": {},
        # docname -> {entry id: SourceSpec}, for entries not from the bundled glossary
        "definition_sources": {},
        # docname -> {entry id: line of the directive that made it}
        "definition_lines": {},
        # docname -> [(SourceSpec, line)] of the project's glossary files its directives show
        # (their notices are reported once per build, after reading: see .file_notices)
        "data_files": {},
        # docname -> the general index's entries for the entries made there, as read
        "index_entries": {},
        # our name -> (docname, anchor) we put in the standard domain after reading
        "registered": {},
        # docname -> {anchor: UserTerm} of the project's own ``glossary`` directives
        "user_terms": {},
        # docname -> PageCitations: every term reference of the page, in document order
        "citations": {},
        # pages purged since the last ``env-get-updated`` (re-read or removed)
        "purged": set(),
        # fingerprint of what decides where citations point, at the last build
        "rules": "",
        # citing page -> fingerprint of where its citations point
        "resolutions": {},
        # citing page -> {glossary page: fingerprint of what it adds to its backlinks}
        "contributions": {},
        # glossary page -> fingerprint of its backlinks
        "digests": {},
        # page with ``mlglossary`` directives -> fingerprint of what they leave out
        "left_out": {},
        # places of the terms that had a card at the last build (see .card_contents)
        "carded": frozenset(),
    }

    #: this build's session; created on ``builder-inited`` (never pickled: Sphinx
    #: recreates domain instances for each environment it sets up)
    _session: BuildSession | None = None

    @property
    def session(self) -> BuildSession:
        if self._session is None:
            self._session = BuildSession.bare(self.env.config, Path(self.env.srcdir))
        return self._session

    @session.setter
    def session(self, value: BuildSession) -> None:
        self._session = value

    # -- per-page records ------------------------------------------------------------

    @property
    def made_definitions(self) -> dict[str, dict[str, str]]:
        """docname -> {entry id: anchor} of every entry a directive made there (some may be left out)."""
        return cast("dict[str, dict[str, str]]", self.data["definitions"])

    @property
    def definitions(self) -> dict[str, dict[str, str]]:
        """docname -> {entry id: anchor} of the entries shown (once all pages are read)."""
        return self.settlement().shown

    def settlement(self) -> Settlement:
        """Who owns each term, once all pages are read (see :mod:`.precedence`)."""
        resolved = self.session.resolved
        if resolved.settlement is None:
            resolved.settlement = settle(
                self.made_definitions,
                self.definition_lines,
                lambda docname, entry_id: entry_for(self, docname, entry_id),
                self.project_terms(),
            )
        return resolved.settlement

    def project_terms(self) -> list[ProjectTerm]:
        """The standard domain's terms that are not ours: the project's own."""
        registered = self.registered
        objects = self.env.get_domain("std").objects.items()  # type: ignore[attr-defined]
        return [
            ProjectTerm(name, (place[0], place[1]))
            for (kind, name), place in objects
            if kind == "term" and registered.get(name) != tuple(place)
        ]

    @property
    def definition_lines(self) -> dict[str, dict[str, int]]:
        return cast("dict[str, dict[str, int]]", self.data["definition_lines"])

    @property
    def data_files(self) -> dict[str, list[tuple[SourceSpec, int]]]:
        """docname -> the project's glossary files its directives show, with the directive's line."""
        return cast("dict[str, list[tuple[SourceSpec, int]]]", self.data["data_files"])

    @property
    def index_entries(self) -> dict[str, list[tuple[str, str, str, str, Any]]]:
        return cast("dict[str, list[tuple[str, str, str, str, Any]]]", self.data["index_entries"])

    @property
    def registered(self) -> dict[str, tuple[str, str]]:
        return cast("dict[str, tuple[str, str]]", self.data["registered"])

    @property
    def definition_sources(self) -> dict[str, dict[str, SourceSpec]]:
        return cast("dict[str, dict[str, SourceSpec]]", self.data["definition_sources"])

    @property
    def user_terms(self) -> dict[str, dict[str, UserTerm]]:
        return cast("dict[str, dict[str, UserTerm]]", self.data["user_terms"])

    @property
    def citations(self) -> dict[str, PageCitations]:
        return cast("dict[str, PageCitations]", self.data["citations"])

    def glossary_pages(self, *, with_user_glossaries: bool) -> set[str]:
        """Pages showing our entries (and, if asked, the project's own glossaries)."""
        pages = set(self.definitions)
        return pages | set(self.user_terms) if with_user_glossaries else pages

    def page_defining(self, entry_id: str) -> str | None:
        """The page that shows an entry (the first in sorted order, for stability)."""
        return next((docname for docname in sorted(self.definitions) if entry_id in self.definitions[docname]), None)

    def our_anchors(self) -> set[tuple[str, str]]:
        """(docname, anchor) of every entry of ours shown on a page."""
        return self.settlement().our_places()

    def term_index(self) -> TermIndex:
        """Every term of the project, the project's own apart from ours (once all pages are read)."""
        resolved = self.session.resolved
        if resolved.terms is None:
            std = self.env.get_domain("std")
            settled = self.settlement()
            redirects = {name: (term.name, term.place) for name, term in settled.redirects.items()}
            resolved.terms = term_index(
                std.objects.items(),  # type: ignore[attr-defined]
                settled.our_places(),
                redirects,
                self.session.settings.language,
            )
        return resolved.terms

    def citation_id(self, docname: str, position: int) -> str | None:
        """Id of a page's citation, None when it lands on no term (once all pages are read)."""
        numbers = self.session.resolved.landings
        if docname not in numbers:
            terms = self.term_index()
            numbers[docname] = landing_numbers(self.citations[docname], lambda t: terms.place(t) is not None)
        number = numbers[docname][position]
        return self.citations[docname].node_id(number) if number >= 0 else None

    # -- Sphinx's domain protocol ----------------------------------------------------

    def clear_doc(self, docname: str) -> None:
        for key in _PER_PAGE:
            self.data[key].pop(docname, None)
        self.data["purged"].add(docname)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for key in _PER_PAGE:
            theirs, ours = otherdata[key], self.data[key]
            for docname in docnames:
                if docname in theirs:
                    ours[docname] = theirs[docname]
        for docname in docnames & self.citations.keys():
            record = self.citations[docname]
            # a worker's strings arrive as copies: share them again
            self.citations[docname] = record._replace(targets=tuple(map(sys.intern, record.targets)))

    def process_doc(self, env: BuildEnvironment, docname: str, document: nodes.document) -> None:
        """Record the page's citations and its own glossary terms, once it is read."""
        record = record_citations(document, docname)
        if record is not None:
            self.citations[docname] = record
        found = collect_user_terms(document)
        if found:
            self.user_terms[docname] = found
        made = set(self.made_definitions.get(docname, {}).values())
        if made:
            self.index_entries[docname] = [
                entry for index in document.findall(addnodes.index) for entry in index["entries"] if entry[2] in made
            ]

    def resolve_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        typ: str,
        target: str,
        node: pending_xref,
        contnode: nodes.Element,
    ) -> nodes.reference | None:
        return None  # no roles of our own: terms resolve in the standard domain

    def resolve_any_xref(
        self,
        env: BuildEnvironment,
        fromdocname: str,
        builder: Builder,
        target: str,
        node: pending_xref,
        contnode: nodes.Element,
    ) -> list[tuple[str, nodes.reference]]:
        return []

    def get_objects(self) -> Iterable[tuple[str, str, str, str, str, int]]:
        return ()  # our terms are the standard domain's objects (``std:term`` in objects.inv)


def glossary_domain(env: BuildEnvironment) -> MlGlossaryDomain:
    return cast(MlGlossaryDomain, env.get_domain(MlGlossaryDomain.name))


def session_of(env: BuildEnvironment) -> BuildSession:
    """This build's session (settings, builder, caches)."""
    return glossary_domain(env).session


def start_session(app: Sphinx) -> None:
    """``builder-inited``: this build's session, with the builder and tags it will use.

    The bundled glossary and the patterns the ``term`` role and auto-linking use are made
    here, in the main process: under ``-j`` every reading process is forked from it and
    would otherwise load and compile them again. Auto-linking's regexes are compiled here
    too; the ``term`` role needs none.
    """
    session = BuildSession.start(app)
    glossary_domain(app.env).session = session
    glossary = session.glossary()
    session.pattern(glossary, ())
    if session.settings.autolink != "off":
        _prepare_autolinking(session, glossary)


def _prepare_autolinking(session: BuildSession, glossary: Glossary) -> None:
    """The patterns :class:`~.autolink.AutoLinker` asks for on a page without exclusions of its own.

    Made under the same keys it asks with: each one it missed was made again in every
    reading process ``-j`` forks, a chunk of pages each (measured: 11 patterns made, 2 s of
    CPU, in a ``-j 2`` build of a 96-page site that the serial build made 3 for).
    """
    from .exclusions import exclusions

    settings = session.settings
    every_name = session.pattern(glossary, (), tuple(entry.id for entry in glossary.entries))
    excluded = exclusions(glossary, settings.autolink_exclude, every_name).entries
    session.pattern(glossary, excluded, settings.autolink_include).regex  # noqa: B018
    included = settings.context_included()
    if included is not None:
        session.pattern(glossary, excluded, included).regex  # noqa: B018


def reading_done(app: Sphinx, env: BuildEnvironment) -> None:
    """``env-updated``: answers looked up while pages were read may have changed (then,
    with every page known, :func:`.registration.settle_after_reading` decides who owns
    each term)."""
    glossary_domain(env).session.reading_done()
