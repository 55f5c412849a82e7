"""Which definition owns a term, decided once every page is read: one rule, whatever the reading order.

Under ``-j`` pages are read in separate processes and merged in whatever order they
finish, so nothing that depends on another page may be decided while a page is read.
The ``mlglossary`` directive therefore only records what it shows; this module decides,
from those records and the project's own terms, with one rule:

1. The project's own terms win. An entry of ours whose name (in any case) is one of the
   project's terms is replaced by it: it is not shown, and all its names (aliases,
   abbreviations) lead to the project's term. A project term that takes only an alias
   or abbreviation of an entry takes that name; the entry keeps the others.
2. An entry shown by several ``mlglossary`` directives is shown by the first page in
   document-name order; the others leave it out.
3. A name two different entries of ours claim exactly (two glossary files) belongs to the
   entry on the first page; an entry whose own name is taken this way is left out.
   Names of ours differing in case only are different terms, as they always were.

Every clash becomes one :class:`Clash`, reported as one ``duplicate_term`` warning.
The function is pure: the same records give the same decision in every process.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from .model import fold

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from .model import Entry

#: (docname, anchor) of a term
Place = tuple[str, str]


class ProjectTerm(NamedTuple):
    """A term of the project's own, as the standard domain registered it."""

    name: str
    place: Place


class Clash(NamedTuple):
    """One entry shown by a directive that gives way, fully or in part, to another definition."""

    #: the page whose directive shows the entry, and the directive's line
    docname: str
    line: int
    entry_id: str
    entry_name: str
    #: names of the entry that another definition takes (all of them when ``dropped``)
    names: tuple[str, ...]
    #: where the winning definition is: a project page, or the first page showing the entry
    winner: str
    #: whether the winner is the project's own term (else another ``mlglossary`` directive)
    project: bool
    #: whether the entry is left out of the page
    dropped: bool


@dataclass
class Settlement:
    """The decision: what each page shows, and which page each of our names leads to."""

    #: docname -> {entry id: anchor} of the entries the page shows
    shown: dict[str, dict[str, str]] = field(default_factory=dict)
    #: docname -> {entry id: anchor} of the entries the page's directives made but leave out
    dropped: dict[str, dict[str, str]] = field(default_factory=dict)
    #: our name -> the entry it leads to, for the standard domain
    names: dict[str, Place] = field(default_factory=dict)
    #: our name -> the project's term that replaced its entry
    redirects: dict[str, ProjectTerm] = field(default_factory=dict)
    clashes: list[Clash] = field(default_factory=list)

    def our_places(self) -> set[Place]:
        """(docname, anchor) of every entry shown."""
        return {(docname, anchor) for docname, found in self.shown.items() for anchor in found.values()}


def settle(
    made: dict[str, dict[str, str]],
    lines: dict[str, dict[str, int]],
    entry_of: Callable[[str, str], Entry | None],
    project_terms: Iterable[ProjectTerm],
) -> Settlement:
    """Decide, from what every page's directives made and the project's terms.

    ``made``: docname -> {entry id: anchor} in document order; ``lines``: the directive's
    line per entry; ``entry_of(docname, entry id)``: the entry a page shows.
    """
    project: dict[str, ProjectTerm] = {}
    for term in sorted(project_terms):
        project.setdefault(fold(term.name), term)
    result = Settlement()
    #: entry id -> where its first occurrence went: (winning page, whether the project's)
    decided: dict[str, tuple[str, bool]] = {}
    claimed: dict[str, tuple[str, str]] = {}  # name -> (entry id, page) of ours (case kept: see 3.)
    for docname in sorted(made):
        for entry_id, anchor in made[docname].items():
            line = lines.get(docname, {}).get(entry_id, 0)
            entry = entry_of(docname, entry_id)
            if entry is None:
                continue  # its file broke after the page was read: reported when it was loaded
            if entry_id not in decided:
                replacing = project.get(fold(entry.name))
                owner = claimed.get(entry.name)
                if replacing is not None:
                    for name in entry.names:
                        result.redirects.setdefault(name, project.get(fold(name), replacing))
                    decided[entry_id] = (replacing.place[0], True)
                elif owner is not None:
                    decided[entry_id] = (owner[1], False)  # another entry of ours has its name
                else:
                    decided[entry_id] = (docname, False)
            winner, by_project = decided[entry_id]
            if winner != docname or by_project:
                result.clashes.append(Clash(docname, line, entry_id, entry.name, entry.names, winner, by_project, True))
                result.dropped.setdefault(docname, {})[entry_id] = anchor
                continue
            # (winning page, whether the project's) -> the names of this entry it takes
            taken: dict[tuple[str, bool], list[str]] = defaultdict(list)
            for name in entry.names:
                if fold(name) in project:
                    taken[(project[fold(name)].place[0], True)].append(name)
                elif claimed.setdefault(name, (entry_id, docname))[0] == entry_id:
                    result.names.setdefault(name, (docname, anchor))
                else:
                    taken[(claimed[name][1], False)].append(name)
            for (winner, by_project), names in sorted(taken.items()):
                result.clashes.append(
                    Clash(docname, line, entry_id, entry.name, tuple(names), winner, by_project, False)
                )
            result.shown.setdefault(docname, {})[entry_id] = anchor
    return result
