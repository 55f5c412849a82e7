"""One compiled pattern that finds every glossary term in running text.

Auto-linking scans every text node of every page, so the cost must not grow with the
number of terms: the names, abbreviations, aliases and plural forms auto-linking may
use (each entry's data says which; see ``Entry.linkable_names``) go into a single
regular expression, arranged as a prefix tree so the regex engine never retries dozens
of alternatives at each position. Every name, linked or not, is still known to
``entry_of``, which tells which entry an explicit ``{term}`` cites.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING

from .inflection import loose_key
from .model import fold, has_own_case
from .names import heading_parts
from .spellings import spellings_of

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from .model import Entry, Glossary

_POSSESSIVE = re.compile(r"['’]s$")


def _one_word(name: str) -> bool:
    """A name of one word, without hyphens or spaces."""
    return not any(char.isspace() or char == "-" for char in name)


def _same_spelling(written: str, exact: str) -> bool:
    """Exact spelling, except that a sentence may capitalise the first letter."""
    return written[1:] == exact[1:] and written[:1].lower() == exact[:1].lower()


def forms_of(name: str, language: str, *, abbreviation: bool, siblings: Iterable[str] = ()) -> list[str]:
    """The written forms auto-linking recognises for one name (see :mod:`.spellings`)."""
    return spellings_of(name, language, abbreviation=abbreviation, siblings=siblings)


def _trie_regex(words: Iterable[str]) -> str:
    """A regex source matching exactly ``words``, longest alternative first at each branch."""
    trie: dict[str, dict] = {}  # type: ignore[type-arg]
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def piece(char: str) -> str:
        return r"\s+" if char == " " else re.escape(char)

    def emit(node: dict) -> str:  # type: ignore[type-arg]
        # Runs of single-child nodes are walked in a loop, so recursion happens only at
        # branch points: a 1,000-character name costs no 1,000 stack frames.
        ending = "" in node
        # branch rest (what follows its first character) -> the first characters leading to it
        leads: dict[str, list[str]] = {}
        for char, child in sorted(node.items()):
            if not char:
                continue
            run = [piece(char)]
            while len(child) == 1 and "" not in child:
                ((char, child),) = child.items()
                run.append(piece(char))
            leads.setdefault("".join(run[1:]) + emit(child), []).append(run[0])
        # Branches whose rest is the same are written once behind their first characters
        # ("4 bit ..." and "4-bit ..." as ``4(?:\s+|\-)bit...``): the same words, half the
        # source for a name spelt with a space or a hyphen, and Python's compiler reads the
        # source a character at a time. A branch point's first characters differ, so at most
        # one of them matches where a branch is tried, whichever the order.
        branches = [
            (first[0] if len(first) == 1 else "(?:" + "|".join(first) + ")") + rest for rest, first in leads.items()
        ]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ending:
            return "(?:" + body + ")?"
        return body

    return emit(trie)


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    entry_id: str


@dataclass(frozen=True)
class TermPattern:
    """Finds glossary terms in text; one per glossary, exclusion and inclusion list.

    The regular expression is written and compiled when text is first searched: the
    ``term`` role only asks ``entry_of``, and arranging and compiling some 2,400 forms is
    most of what the pattern costs, paid for nothing by a project that does not auto-link.
    """

    #: folded form the regex finds -> (entry id, spelling required or "" for any case,
    #: whether a capital first letter is that spelling too)
    forms: dict[str, tuple[str, str, bool]]
    #: loose key of every form (see ``inflection.loose_key``) -> entry id, None when two entries share it
    loose: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)
    #: target as written -> entry id (or None), filled by ``entry_of``
    named: dict[str, str | None] = field(default_factory=dict, compare=False, repr=False)
    #: folded form of every name, linked or not -> entry id (what ``entry_of`` knows)
    every: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def source(self) -> str:
        """The regex source finding every form in ``forms``, whole words only."""
        # whole words only: not inside a longer word, a hyphenated compound ("multi-token"), a
        # file name, a dotted name or an address ("tokenizer.json", "model.safetensors")
        found = _trie_regex(sorted(self.forms)) or r"(?!x)x"  # (?!x)x matches nothing
        return rf"(?<![\w-])(?<!\w[./@#])(?:{found})(?:['’]s)?(?![\w-])(?![./@]\w)"

    @cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(self.source, re.IGNORECASE)

    def finditer(self, text: str) -> Iterator[Match]:
        for found in self.regex.finditer(text):
            written = _POSSESSIVE.sub("", found.group())
            known = self.forms.get(fold(written))
            if known is None:
                known = self.forms.get(fold(found.group()))
                written = found.group()
            if known is None:
                continue
            entry_id, exact, capital = known
            if exact:
                spaced = " ".join(written.split())
                if spaced != exact and not (capital and _same_spelling(spaced, exact)):
                    continue
            yield Match(found.start(), found.end(), entry_id)

    def entry_of(self, target: str) -> str | None:
        """The entry an explicit ``{term}`` target names, when it is one of ours.

        Answers are remembered: a project writes the same few dozen targets thousands of times.
        A heading as shown, ``name (abbreviation)``, names its entry when both parts do.
        """
        if target not in self.named:
            written = " ".join(target.split())
            candidates = (self.every.get(fold(c)) for c in (written, _POSSESSIVE.sub("", written)))
            found = next((known for known in candidates if known is not None), None)
            if found is None and (parts := heading_parts(written)) is not None:
                first, second = (self.entry_of(part) for part in parts)
                found = first if first is not None and first == second else None
            self.named[target] = found if found is not None else self.loose.get(loose_key(written))
        return self.named[target]


def linked_names(entry: Entry, excluded: set[str], included: set[str]) -> tuple[str, ...]:
    """The entry's names auto-linking uses: its data's choice plus the project's opt-ins
    (``included``: folded names, or ids for every name), none when ``excluded`` names it."""
    if fold(entry.id) in excluded or any(fold(name) in excluded for name in entry.names):
        return ()
    if fold(entry.id) in included:
        return entry.names
    chosen = set(entry.linkable_names)
    return tuple(name for name in entry.names if name in chosen or fold(name) in included)


def build_pattern(glossary: Glossary, excluded: Iterable[str] = (), included: Iterable[str] = ()) -> TermPattern:
    """Compile the pattern for ``glossary``.

    It finds the names each entry lets auto-linking use (``Entry.linkable_names``), plus
    the entries (by id: every name) and names in ``included``, minus the entries named
    (by id or any name) in ``excluded``. A form of a linked name that is itself a name
    left unlinked (``hidden state`` from ``hidden states``) stays unlinked.

    Case: names of several words match in any case, or, when one of their words has its
    own case (``input IDs``), as written but for a capital first letter; abbreviations and
    one-word names in their own case (``DP``, ``LoRA``) only as written. A one-word name
    the data links has no everyday meaning, so a capital at the start of a sentence is
    still the term (``Softmax``); a one-word name a project opts in is an everyday word,
    linked only as written: ``Patch`` at the start of a bullet is not ``patch``.
    """
    skip = {fold(item) for item in excluded}
    add = {fold(item) for item in included}
    forms: dict[str, tuple[str, str, bool]] = {}
    every: dict[str, str] = {}
    clashes: set[str] = set()
    for entry in glossary.entries:
        chosen = set(linked_names(entry, skip, add))
        unlinked = {fold(name) for name in entry.names if name not in chosen}
        linkable = set(entry.linkable_names)
        for name in entry.names:
            abbreviation = name in entry.abbreviations
            own_case = abbreviation or has_own_case(name)
            exact = own_case or _one_word(name)
            # a capital first letter: a sentence may start with "Input IDs" or "Softmax"
            capital = (not abbreviation and " " in name) or (not own_case and name in linkable)
            for form in forms_of(name, glossary.language, abbreviation=abbreviation, siblings=entry.names):
                key = fold(form)
                if every.setdefault(key, entry.id) != entry.id:
                    clashes.add(key)  # two entries answer to this form: link neither
                if name in chosen and key not in unlinked:
                    forms.setdefault(key, (entry.id, form if exact else "", capital))
    for key in clashes:
        forms.pop(key, None)
        del every[key]
    loose: dict[str, str | None] = {}
    for key, entry_id in every.items():
        loose[loose_key(key)] = entry_id if loose.get(loose_key(key), entry_id) == entry_id else None
    return TermPattern(forms, loose, every=every)


def shipped_pattern(glossary: Glossary, excluded: tuple[str, ...], included: tuple[str, ...]) -> TermPattern | None:
    """The pattern of a shipped glossary (as ``loader.bundled_glossary`` gives it) that no
    project setting narrows or widens, made once per process; None for any other.

    Those are the two every build asks for: ``{term}``'s (nothing included) and
    auto-linking's every-name one (every entry included). The shipped data can't change
    while the process runs, and a process that runs many builds (a test session, a server
    rebuilding on each edit) spent 50-80 ms of CPU making the same pattern for each.
    """
    from .loader import BUNDLED_LANGUAGES, bundled_glossary

    if excluded or glossary.language not in BUNDLED_LANGUAGES or glossary is not bundled_glossary(glossary.language):
        return None
    if not included:
        return _pattern_of_shipped(glossary, every_name=False)
    if included == tuple(entry.id for entry in glossary.entries):
        return _pattern_of_shipped(glossary, every_name=True)
    return None


@cache
def _pattern_of_shipped(glossary: Glossary, *, every_name: bool) -> TermPattern:
    """Keyed by the glossary itself: a reloaded shipped file (tests that change it) is a new key."""
    return build_pattern(glossary, (), tuple(entry.id for entry in glossary.entries) if every_name else ())
