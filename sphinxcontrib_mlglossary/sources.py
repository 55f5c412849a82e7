"""Which glossary a directive shows: the bundled one, a file of the project's, or both merged.

A page records a :class:`SourceSpec` per entry it defines (in the domain's data), so
the process that writes another page (tooltips), or a later incremental build, loads
the same glossary again without re-reading the page. Loading is cached for the build
(:class:`GlossaryFiles`, kept by the build's session) and keyed by the file's size and
modification time.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .confinement import DEFAULT_MAX_BYTES, inside_any, outside_message
from .diagnostics import MlGlossaryWarning, logger, warn
from .loader import REFERENCE_LANGUAGE, GlossaryDataError, bundled_glossary
from .model import Entry, Glossary, fold
from .names import LookAlike, look_alike_message, look_alikes

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment

    from .importing import Notice
    from .session import BuildSession


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """Where a glossary comes from: picklable, so it can live in the environment."""

    #: absolute path of the project's file; "" for the bundled glossary
    path: str = ""
    #: the file's entries on top of the bundled glossary's (same id: the file's wins)
    merge: bool = False

    @property
    def bundled(self) -> bool:
        return not self.path


BUNDLED = SourceSpec()


def configured_sources(session: BuildSession) -> dict[str, SourceSpec]:
    """``mlglossary_sources``: name -> spec, paths relative to the configuration directory."""
    found: dict[str, SourceSpec] = {}
    for name, value in (session.config.mlglossary_sources or {}).items():
        if isinstance(value, str):
            path, merge = value, False
        elif isinstance(value, dict) and isinstance(value.get("path"), str):
            path, merge = value["path"], bool(value.get("merge", False))
        else:
            warn(
                MlGlossaryWarning.CONFIG,
                f"mlglossary_sources[{name!r}] = {value!r} is neither a path nor "
                "{'path': ..., 'merge': True|False}; it is ignored",
                once=True,
            )
            continue
        found[str(name)] = SourceSpec(str((session.confdir / path).resolve()), merge)
    return found


def resolve_option(env: BuildEnvironment, session: BuildSession, value: str, merge: bool) -> SourceSpec:
    """The spec a ``:source:`` option names: a configured name, or a path like ``include`` takes."""
    named = configured_sources(session).get(value)
    if named is not None:
        return SourceSpec(named.path, merge or named.merge)
    _relative, absolute = env.relfn2path(value)
    return SourceSpec(str(Path(absolute).resolve()), merge)


class GlossaryFiles:
    """The project's glossary files, each version read once per build.

    Only files inside ``allowed`` folders (the source directory and the folders the
    project trusts) are read, only regular files, and only up to ``max_bytes``.
    """

    def __init__(self, link_base: str, *, allowed: tuple[Path, ...] = (), max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.link_base = link_base
        self.allowed = allowed
        self.max_bytes = max_bytes
        #: file versions whose names were compared with the bundled glossary's
        self._merge_checked: set[tuple[str, int, int, str]] = set()
        #: file versions whose notices were reported
        self._reported: set[tuple[str, int, int, str]] = set()
        #: (path, mtime, size, language) -> the file's glossary and notices
        self._read: dict[tuple[str, int, int, str], tuple[Glossary, tuple[Notice, ...]]] = {}

    def load(self, spec: SourceSpec, language: str, *, location: Any = None, report: bool = True) -> Glossary:
        """The glossary a spec stands for; errors raise GlossaryDataError.

        With ``report``, the file's notices (and, merged, its look-alikes of bundled names)
        become warnings, once per file version. Only the main process reports, after
        reading (:mod:`.file_notices`): pages showing one file may be read by several
        ``-j`` workers, and each would report them again.
        """
        if spec.bundled:
            return bundled_glossary(language)
        path = Path(spec.path)
        try:
            stat = path.stat()
        except OSError:
            raise GlossaryDataError(
                path,
                "no such glossary file",
                hint="check the :source: path (relative to the page) or mlglossary_sources",
            ) from None
        if self.allowed and not inside_any(path, self.allowed):
            raise GlossaryDataError(path, outside_message(path, self.allowed[0]))
        key = (spec.path, stat.st_mtime_ns, stat.st_size, language)
        if key not in self._read:
            self._read[key] = self._read_file(path, language)
        if report and key not in self._reported:
            # report a file's notices once per build, not once per page that shows it
            self._reported.add(key)
            for notice in self._read[key][1]:
                _report(notice, location)
        glossary = self._read[key][0]
        if spec.merge:
            combined = merged(bundled_glossary(language), glossary)
            if report and key not in self._merge_checked:
                self._merge_checked.add(key)
                _report_look_alikes(spec, glossary, combined, location)
            return combined
        return glossary

    def source_of(self, entry: Entry) -> Path | None:
        """The file this entry was read from (None when no file read in this build holds it)."""
        for glossary, _notices in self._read.values():
            if glossary.get(entry.id) is entry:
                return glossary.source
        return None

    def _read_file(self, path: Path, language: str) -> tuple[Glossary, tuple[Notice, ...]]:
        from .importing import read_source

        reference = bundled_glossary(REFERENCE_LANGUAGE) if language != REFERENCE_LANGUAGE else None
        result = read_source(
            path, language=language, link_base=self.link_base, reference=reference, max_bytes=self.max_bytes
        )
        return result.glossary, result.notices


def glossary_files(session: BuildSession) -> GlossaryFiles:
    """The build's glossary files (read once per file version)."""

    def make() -> GlossaryFiles:
        settings = session.settings
        srcdir = session.srcdir or session.confdir
        trusted = tuple(session.confdir / folder for folder in settings.trusted_dirs)
        return GlossaryFiles(
            session.config.mlglossary_link_base or "", allowed=(srcdir, *trusted), max_bytes=settings.max_file_bytes
        )

    return session.keep(GlossaryFiles, make)


def load(
    session: BuildSession, spec: SourceSpec, language: str, *, location: Any = None, report: bool = True
) -> Glossary:
    """The glossary a spec stands for, through the session's cache."""
    return glossary_files(session).load(spec, language, location=location, report=report)


def data_location(session: BuildSession, entry: Entry) -> str | None:
    """``path:line`` of an entry in the file it comes from: where warnings about its text point."""
    files = session.kept.get(GlossaryFiles)
    source = files.source_of(entry) if isinstance(files, GlossaryFiles) else None
    if source is None:
        bundled = bundled_glossary(session.settings.language)
        if entry.id in bundled:
            source = bundled.source
    return f"{source}:{entry.line}" if source is not None else None


def _report_look_alikes(spec: SourceSpec, overlay: Glossary, combined: Glossary, location: Any) -> None:
    """A file's name that looks like a name of the bundled glossary it is merged with."""
    ours = {entry.id for entry in overlay}
    for pair in look_alikes((name, entry.id) for entry in combined for name in entry.names):
        if (pair.owner in ours) == (pair.other_owner in ours):
            continue  # both in the file: reported when it was read
        if pair.owner not in ours:
            pair = LookAlike(pair.other_name, pair.other_owner, pair.name, pair.owner)
        entry = overlay.get(pair.owner)
        line = entry.line if entry is not None else 0
        message = look_alike_message(pair).replace(" of entry ", " of the bundled glossary's entry ", 1)
        warn(MlGlossaryWarning.DATA, f"{spec.path}:{line}: entry {pair.owner!r}: {message}", location=location)


#: problems of one refused file reported as warnings in a build; ``check`` lists the rest
MAX_REPORTED_PROBLEMS = 50


def report_refused(error: GlossaryDataError, label: str, location: Any) -> None:
    """A refused data file: one warning per problem (and per warning found before it was
    refused), so a build shows what ``check`` shows, up to :data:`MAX_REPORTED_PROBLEMS`."""
    for message in (*error.warnings, *map(str, error.problems))[:MAX_REPORTED_PROBLEMS]:
        warn(MlGlossaryWarning.DATA, f"{label}: {message}", location=location)
    rest = len(error.warnings) + len(error.problems) - MAX_REPORTED_PROBLEMS
    if rest > 0:
        warn(
            MlGlossaryWarning.DATA,
            f"{label}: {rest} more problems in {error.path}; "
            f"python -m sphinxcontrib_mlglossary check {error.path} lists them all",
            location=location,
        )


def _report(notice: Notice, location: Any) -> None:
    if notice.level == "info":
        logger.info(f"mlglossary: {notice.message}")
        return
    kind = MlGlossaryWarning.MARKUP if notice.subtype == "markup" else MlGlossaryWarning.DATA
    warn(kind, notice.message, location=location)


def merged(base: Glossary, overlay: Glossary) -> Glossary:
    """``base`` with ``overlay``'s entries on top: same id replaced, new ids added (in base order, then new).

    A name of the file's entries is theirs: a bundled entry keeping it as an alias or
    abbreviation would make the two entries answer to one name, so it gives it up.
    """
    replaced = {entry.id: entry for entry in overlay}
    taken = {fold(name) for entry in overlay for name in entry.names}
    entries = [replaced.pop(entry.id) if entry.id in replaced else _without_names(entry, taken) for entry in base]
    entries.extend(entry for entry in overlay if entry.id in replaced)
    return Glossary(base.language, tuple(entries), overlay.source)


def _without_names(entry: Entry, taken: set[str]) -> Entry:
    keep = [name for name in entry.aliases if fold(name) not in taken]
    short = [name for name in entry.abbreviations if fold(name) not in taken]
    if len(keep) == len(entry.aliases) and len(short) == len(entry.abbreviations):
        return entry
    return replace(entry, aliases=tuple(keep), abbreviations=tuple(short))


class ShowsEntries(Protocol):
    """What :func:`entry_for` needs of the domain (named here so this module needn't import it)."""

    @property
    def session(self) -> BuildSession: ...

    @property
    def definition_sources(self) -> dict[str, dict[str, SourceSpec]]: ...


def entry_for(domain: ShowsEntries, docname: str, entry_id: str) -> Entry | None:
    """The entry a page defines under ``entry_id``, from whichever glossary the page shows."""
    spec = domain.definition_sources.get(docname, {}).get(entry_id, BUNDLED)
    try:
        # quiet: the page showing the file reported its notices when it was read
        return load(domain.session, spec, domain.session.settings.language, report=False).get(entry_id)
    except GlossaryDataError:
        return None  # reported when the page was read
