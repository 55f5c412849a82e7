"""Read and validate glossary data files (TOML, format 1).

Every problem is reported as a :class:`GlossaryDataError` naming the file, the entry,
the field and, where it can be found, the line, so a user can fix the file without
reading our code. Reading goes on past a broken entry, so one run reports every
problem of a file (:attr:`GlossaryDataError.problems`); only text that isn't TOML stops
it at the first mistake. A misspelt field or tag comes with the likely spelling.
"""

from __future__ import annotations

import difflib
import re
import tomllib
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .model import Entry, Glossary, fold, slugify
from .names import clean_name, inventory_problem, look_alike_message, look_alikes, removal_message
from .stored_tables import stored_tables

FORMAT_VERSION = 1
#: languages shipped with the package; English is the reference every other file follows
BUNDLED_LANGUAGES = ("en", "es", "ar")
REFERENCE_LANGUAGE = "en"

_ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_TERM_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*term[ \t]*\]\]", re.MULTILINE)
_TOML_LINE = re.compile(r"at line (\d+)")

_STRING_FIELDS = ("id", "name", "summary", "body")
_LIST_FIELDS = ("abbreviations", "aliases", "see_also", "tags", "autolink")
_REQUIRED = ("id", "name", "summary", "body")
_KNOWN = frozenset(_STRING_FIELDS + _LIST_FIELDS)
_TOP_LEVEL = frozenset(("format", "language", "term"))
_NAME_FIELDS = ("name", "abbreviations", "aliases", "autolink")
#: control characters (Unicode category Cc) and lone surrogates, except the white space text may hold
_BAD_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
#: in names also tabs, line breaks and line and paragraph separators (invisible and
#: direction-control characters are removed with a warning: :func:`names.clean_name`)
_BAD_IN_NAME = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029]")

#: how alike a misspelling and a known word must be to be suggested (difflib's ratio):
#: "sumary" and "summary" score 0.92, "paralelism" and "parallelism" 0.95
SUGGESTION_CUTOFF = 0.8

#: (line, message) of problems a file can be used despite; None: not collected
Warnings = list[tuple[int, str]] | None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """The known word ``word`` is most likely a misspelling of ("" when none is close)."""
    close = difflib.get_close_matches(word, sorted(set(known)), n=1, cutoff=SUGGESTION_CUTOFF)
    return close[0] if close else ""


class GlossaryDataError(ValueError):
    """A glossary data file that can't be used as it is."""

    def __init__(
        self,
        path: Path | str,
        message: str,
        *,
        line: int = 0,
        entry: str = "",
        field: str = "",
        hint: str = "",
    ) -> None:
        self.path = Path(path)
        self.line = line
        self.entry = entry
        self.field = field
        self.problem = message
        self.hint = hint
        where = f"{self.path}:{line}" if line else str(self.path)
        parts = [where]
        if entry:
            parts.append(f"entry {entry!r}")
        if field:
            parts.append(f"field {field!r}")
        text = ": ".join(parts) + f": {message}"
        if hint:
            text += f" ({hint})"
        super().__init__(text)
        #: every problem found in the file, this one first (one each, for a report per problem)
        self.problems: tuple[GlossaryDataError, ...] = (self,)
        #: warnings found in the same file before it was refused (messages naming file and line)
        self.warnings: tuple[str, ...] = ()

    @classmethod
    def of(cls, problems: Sequence[GlossaryDataError]) -> GlossaryDataError:
        """One error standing for all ``problems`` of a file: the first's details, every message."""
        first = problems[0]
        if len(problems) == 1:
            return first
        error = cls(first.path, first.problem, line=first.line, entry=first.entry, field=first.field, hint=first.hint)
        error.args = ("\n".join(str(problem) for problem in problems),)
        error.problems = tuple(problems)
        return error


class _Problems:
    """The problems found so far in one file: reading goes on past each, the file is refused at the end."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.found: list[GlossaryDataError] = []

    def add(self, message: str, *, line: int = 0, entry: str = "", field: str = "", hint: str = "") -> None:
        self.found.append(GlossaryDataError(self.path, message, line=line, entry=entry, field=field, hint=hint))

    def __len__(self) -> int:
        return len(self.found)

    def raise_any(self, warnings: Sequence[tuple[int, str]] = ()) -> None:
        """Refuse the file if anything was found, with the warnings found so far: one run, one report."""
        if self.found:
            error = GlossaryDataError.of(self.found)
            error.warnings = tuple(message for _line, message in warnings)
            raise error


def load_glossary(path: Path | str, *, reference: Glossary | None = None) -> Glossary:
    """Load one data file; a translated file inherits what it lacks from ``reference``."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise GlossaryDataError(path, f"cannot read the file: {exc.strerror}") from None
    return parse_glossary(raw, path, reference=reference)


def parse_glossary(
    raw: bytes | str,
    path: Path | str,
    *,
    reference: Glossary | None = None,
    warnings: Warnings = None,
    tags: Collection[str] = (),
    tables: Mapping[str, Any] | None = None,
) -> Glossary:
    """Parse and validate the text of a data file (``path`` is used in messages only).

    ``tables``: the file's TOML tables, already read (the stored copy of a shipped file,
    :mod:`.stored_tables`); they are checked as read ones are.

    Problems the glossary can be used despite (invisible characters removed from a name,
    names that look alike, a tag that looks misspelt: ``tags`` are ones known to be
    right, besides the reference's and those several entries share) are appended to
    ``warnings`` as (line, message).
    """
    path = Path(path)
    text = _decode(raw, path)
    if tables is not None:
        return _build(tables, path, _header_lines(text), reference, [] if warnings is None else warnings, tags)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = _TOML_LINE.search(str(exc))
        raise GlossaryDataError(
            path,
            f"not valid TOML: {exc}",
            line=int(found.group(1)) if found else 0,
            hint="check quotes and brackets around that line",
        ) from None
    except RecursionError:  # nested brackets: tomllib recurses once per level
        raise GlossaryDataError(
            path, "brackets or tables are nested too deeply to read", hint="flatten the nesting"
        ) from None
    lines = _header_lines(text)
    return _build(data, path, lines, reference, [] if warnings is None else warnings, tags)


def _header_lines(text: str) -> list[int]:
    """Line number of each ``[[term]]`` header, counted in one pass (large files stay linear)."""
    lines, line, position = [], 1, 0
    for match in _TERM_HEADER.finditer(text):
        line += text.count("\n", position, match.start())
        position = match.start()
        lines.append(line)
    return lines


def _decode(raw: bytes | str, path: Path) -> str:
    if isinstance(raw, str):
        return raw
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise GlossaryDataError(path, "not valid UTF-8", line=line, hint="save the file as UTF-8") from None


def _build(
    data: Mapping[str, Any],
    path: Path,
    lines: list[int],
    reference: Glossary | None,
    warnings: list[tuple[int, str]],
    tags: Collection[str],
) -> Glossary:
    """Every entry checked, every problem collected; the file is refused at the end if any was found."""
    problems = _Problems(path)
    version = data.get("format")
    if version != FORMAT_VERSION:
        problems.add(
            f"unsupported or missing 'format' {version!r}",
            field="format",
            hint=f"this version reads format = {FORMAT_VERSION}",
        )
    language = data.get("language")
    if not isinstance(language, str) or not language:
        problems.add("missing language code", field="language", hint='e.g. language = "en"')
    for key in sorted(set(data) - _TOP_LEVEL):
        problems.add(f"unknown top-level key {key!r}", hint=_spelling_hint(key, _TOP_LEVEL, "keys"))
    terms = data.get("term", [])
    if not isinstance(terms, list) or not all(isinstance(t, dict) for t in terms):
        problems.add("entries must be [[term]] tables", field="term")
        problems.raise_any()

    entries: list[Entry] = []
    seen_ids: dict[str, int] = {}
    for index, table in enumerate(terms):
        line = lines[index] if index < len(lines) else 0
        entry = _entry(table, path, line, warnings, problems)
        if entry is None:
            continue
        if entry.id in seen_ids:
            problems.add(
                f"duplicate id (first defined at line {seen_ids[entry.id]})",
                line=line,
                entry=entry.id,
                field="id",
                hint="give each entry a unique id",
            )
            continue
        seen_ids[entry.id] = line
        entries.append(entry)

    # ids of entries refused above still count as known: one mistake, one report
    written_ids = {table["id"] for table in terms if isinstance(table.get("id"), str)}
    if reference is not None:
        entries = _check_translation(entries, reference, written_ids, problems)
    _check_see_also(entries, written_ids, problems)
    _check_names(entries, path, warnings, problems)
    _check_tags(entries, path, warnings, {*tags, *(tag for entry in reference or () for tag in entry.tags)})
    problems.raise_any(warnings)
    assert isinstance(language, str)  # a missing language is a problem raised above
    return Glossary(language=language, entries=tuple(entries), source=path)


def _spelling_hint(word: str, known: Collection[str], what: str) -> str:
    """``did you mean 'summary'?`` for a misspelt field or key, else the list of known ones."""
    close = did_you_mean(word, known)
    return f"did you mean {close!r}?" if close else f"known {what}: {', '.join(sorted(known))}"


def _entry(
    table: Mapping[str, Any], path: Path, line: int, warnings: list[tuple[int, str]], problems: _Problems
) -> Entry | None:
    """The entry a ``[[term]]`` table describes; None when it has problems (each one added)."""
    label = str(table.get("id") or table.get("name") or f"#{line}")
    before = len(problems)
    _check_fields(table, line, label, problems)
    if len(problems) > before:
        return None
    _check_characters(table, line, label, problems)
    entry_id = table["id"]
    if not _ID_PATTERN.match(entry_id):
        problems.add(
            f"id {entry_id!r} is not a slug",
            line=line,
            entry=label,
            field="id",
            hint=f"use lower-case letters, digits and hyphens, e.g. {slugify(table['name']) or 'my-term'!r}",
        )

    def name_of(text: str, field: str) -> str:
        return _name(text, path, line, label, field, warnings, problems)

    abbreviations = tuple(name_of(s, "abbreviations") for s in table.get("abbreviations", []))
    name = name_of(table["name"], "name")
    aliases = tuple(name_of(s, "aliases") for s in table.get("aliases", []))
    autolink = _autolink(table, (name, *abbreviations, *aliases), line, label, name_of, problems)
    if len(problems) > before:
        return None
    return Entry(
        id=entry_id,
        name=name,
        summary=table["summary"].strip(),
        body=table["body"].strip("\n"),
        abbreviations=abbreviations,
        aliases=aliases,
        see_also=tuple(table.get("see_also", [])),
        tags=tuple(table.get("tags", [])),
        legacy_anchor=slugify(f"{name} ({abbreviations[0]})" if abbreviations else name),
        line=line,
        autolink=autolink,
    )


def _check_fields(table: Mapping[str, Any], line: int, label: str, problems: _Problems) -> None:
    """Each field known, present when required, of its type; a misspelt one is named with its spelling."""
    unknown = sorted(set(table) - _KNOWN)
    for field in unknown:
        problems.add(f"unknown field {field!r}", line=line, entry=label, hint=_spelling_hint(field, _KNOWN, "fields"))
    suggested = {did_you_mean(field, _KNOWN) for field in unknown}
    for name in _REQUIRED:
        if name not in table and name not in suggested:  # a misspelt field is reported once
            problems.add("missing required field", line=line, entry=label, field=name)
    for name in _STRING_FIELDS:
        value = table.get(name)
        if name in table and (not isinstance(value, str) or not value.strip()):
            problems.add("must be a non-empty string", line=line, entry=label, field=name)
    for name in _LIST_FIELDS:
        value = table.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            problems.add("must be a list of non-empty strings", line=line, entry=label, field=name)


def _autolink(
    table: Mapping[str, Any],
    names: tuple[str, ...],
    line: int,
    label: str,
    name_of: Callable[[str, str], str],
    problems: _Problems,
) -> tuple[str, ...] | None:
    """The names the entry lets auto-linking use (None: not said, the default rule applies)."""
    if "autolink" not in table:
        return None
    known = {fold(name) for name in names}
    chosen = tuple(name_of(s, "autolink") for s in table["autolink"])
    for name in chosen:
        if name and fold(name) not in known:
            problems.add(
                f"{name!r} is not a name of this entry",
                line=line,
                entry=label,
                field="autolink",
                hint="list names from name, abbreviations or aliases; [] keeps the entry from being auto-linked",
            )
    return chosen


_INVENTORY_HINT = "a name may not hold a 'domain:role' word followed by a number; reword it"


def _name(
    text: str, path: Path, line: int, label: str, field: str, warnings: list[tuple[int, str]], problems: _Problems
) -> str:
    """A name as it is matched (:func:`names.clean_name`); what was removed is a warning ("": a problem added)."""
    cleaned = clean_name(text)
    if not cleaned.text:
        problems.add("holds only invisible characters", line=line, entry=label, field=field)
        return ""
    problem = inventory_problem(cleaned.text)
    if problem:
        problems.add(f"{cleaned.text!r}: {problem}", line=line, entry=label, field=field, hint=_INVENTORY_HINT)
        return ""
    if cleaned.removed:
        where = f"{path}:{line}: entry {label!r}: field {field!r}"
        warnings.append((line, f"{where}: {removal_message(cleaned.removed, cleaned.text)}"))
    return cleaned.text


def _check_characters(table: Mapping[str, Any], line: int, label: str, problems: _Problems) -> None:
    """Refuse characters that break output formats (XML, objects.inv) or disguise a name."""
    for field in (*_STRING_FIELDS, *_LIST_FIELDS):
        value = table.get(field, [])
        for text in [value] if isinstance(value, str) else value:
            is_name = field in _NAME_FIELDS
            found = (_BAD_IN_NAME if is_name else _BAD_IN_TEXT).search(text)
            if found is None:
                continue
            bad = found.group()
            what = unicodedata.name(bad, "control character")
            problems.add(
                f"contains U+{ord(bad):04X} ({what}) in {text[:40]!r}",
                line=line,
                entry=label,
                field=field,
                hint="names can't hold control characters or line breaks"
                if is_name
                else "remove control characters other than tabs and line breaks",
            )


def _check_translation(
    entries: list[Entry], reference: Glossary, written_ids: set[str], problems: _Problems
) -> list[Entry]:
    """Same ids as the reference; inherit tags, see-also, legacy anchors; English names become aliases."""
    missing = [entry.id for entry in reference if entry.id not in written_ids]
    if missing:
        problems.add(
            f"missing entries present in the {reference.language} glossary: {', '.join(missing)}",
            hint="translate them or copy them over",
        )
    merged = []
    for entry in entries:
        original = reference.get(entry.id)
        if original is None:
            close = did_you_mean(entry.id, (other.id for other in reference))
            problems.add(
                f"id not in the {reference.language} glossary",
                line=entry.line,
                entry=entry.id,
                field="id",
                hint=f"did you mean {close!r}?" if close else "translated files must use the reference ids",
            )
            continue
        inherited = tuple(n for n in (original.name, *original.abbreviations) if n not in entry.names)
        # an inherited name auto-links as it does in the reference
        linkable = tuple(n for n in inherited if n in original.linkable_names)
        merged.append(
            replace(
                entry,
                aliases=entry.aliases + inherited,
                autolink=None if entry.autolink is None else entry.autolink + linkable,
                tags=entry.tags or original.tags,
                see_also=entry.see_also or original.see_also,
                legacy_anchor=original.legacy_anchor,
            )
        )
    return merged


def _check_see_also(entries: list[Entry], written_ids: set[str], problems: _Problems) -> None:
    for entry in entries:
        for target in entry.see_also:
            if target not in written_ids:
                close = did_you_mean(target, written_ids)
                problems.add(
                    f"see_also names unknown id {target!r}",
                    line=entry.line,
                    entry=entry.id,
                    field="see_also",
                    hint=f"did you mean {close!r}?" if close else "use the id of another entry in this file",
                )


def _check_tags(entries: list[Entry], path: Path, warnings: list[tuple[int, str]], known: Collection[str]) -> None:
    """A tag only one entry has, spelt nearly like another tag, is most likely that tag misspelt.

    A warning, not an error: a new tag is allowed. ``known``: tags of the glossary this one follows.
    """
    users: dict[str, list[Entry]] = {}
    for entry in entries:
        for tag in entry.tags:
            users.setdefault(tag, []).append(entry)
    vocabulary = set(known) | {tag for tag, having in users.items() if len(having) > 1}
    for tag, having in users.items():
        if len(having) > 1 or tag in vocabulary:
            continue
        close = did_you_mean(tag, vocabulary)
        if close:
            entry = having[0]
            warnings.append(
                (
                    entry.line,
                    f"{path}:{entry.line}: entry {entry.id!r}: field 'tags': no other entry has the tag {tag!r}; "
                    f"did you mean {close!r}?",
                )
            )


def _check_names(entries: list[Entry], path: Path, warnings: list[tuple[int, str]], problems: _Problems) -> None:
    """Two entries must never answer to the same name, or citations would be ambiguous; nor look alike."""
    owner: dict[str, Entry] = {}
    for entry in entries:
        for name in entry.names:
            key = fold(name)
            other = owner.setdefault(key, entry)
            if other is not entry:
                field = "name" if name == entry.name else "aliases"
                if name in entry.abbreviations:
                    field = "abbreviations"
                problems.add(
                    f"{name!r} is already a name of entry {other.id!r} (line {other.line})",
                    line=entry.line,
                    entry=entry.id,
                    field=field,
                    hint="remove it from one of the two entries",
                )
    by_id = {entry.id: entry for entry in entries}
    for pair in look_alikes((name, entry.id) for entry in entries for name in entry.names):
        entry, other = by_id[pair.owner], by_id[pair.other_owner]
        message = look_alike_message(pair, other.line)
        warnings.append((entry.line, f"{path}:{entry.line}: entry {entry.id!r}: {message}"))


def bundled_path(language: str) -> Path:
    """Path of a shipped data file."""
    return Path(str(resources.files(__package__).joinpath("glossaries", f"{language}.toml")))


@cache
def bundled_glossary(language: str = REFERENCE_LANGUAGE) -> Glossary:
    """A shipped glossary, loaded once per process."""
    if language not in BUNDLED_LANGUAGES:
        raise KeyError(language)
    reference = None if language == REFERENCE_LANGUAGE else bundled_glossary(REFERENCE_LANGUAGE)
    path = bundled_path(language)
    try:
        raw = path.read_bytes()
    except OSError:
        return load_glossary(path, reference=reference)  # reports the file that can't be read
    return parse_glossary(raw, path, reference=reference, tables=stored_tables(raw, language))


def bundled_tags() -> frozenset[str]:
    """The tags of the shipped glossary: the vocabulary a misspelt tag is compared with."""
    return frozenset(tag for entry in bundled_glossary(REFERENCE_LANGUAGE) for tag in entry.tags)


def resolve_language(requested: str | None) -> str | None:
    """Map a Sphinx language tag (``es_MX``, ``ar-EG``, ``en``) to a shipped glossary, or None."""
    if not requested:
        return REFERENCE_LANGUAGE
    base = re.split(r"[-_@.]", requested.strip(), maxsplit=1)[0].lower()
    return base if base in BUNDLED_LANGUAGES else None
