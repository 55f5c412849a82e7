"""Which glossary a directive shows: the bundled one, a file of the project's, or both merged.

A page records a :class:`SourceSpec` per entry it defines (in the environment), so the
process that writes another page (tooltips), or a later incremental build, loads the
same glossary again without re-reading the page. Loading is cached per process and
keyed by the file's size and modification time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .loader import REFERENCE_LANGUAGE, GlossaryDataError, bundled_glossary
from .model import Entry, Glossary
from .warnings_ import MlGlossaryWarning, logger, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from .importing import Notice


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


def configured_sources(app: Sphinx) -> dict[str, SourceSpec]:
    """``mlglossary_sources``: name -> spec, paths relative to the configuration directory."""
    found: dict[str, SourceSpec] = {}
    for name, value in (app.config.mlglossary_sources or {}).items():
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
        found[str(name)] = SourceSpec(str((Path(app.confdir) / path).resolve()), merge)
    return found


def resolve_option(env: BuildEnvironment, app: Sphinx, value: str, merge: bool) -> SourceSpec:
    """The spec a ``:source:`` option names: a configured name, or a path like ``include`` takes."""
    named = configured_sources(app).get(value)
    if named is not None:
        return SourceSpec(named.path, merge or named.merge)
    _relative, absolute = env.relfn2path(value)
    return SourceSpec(str(Path(absolute).resolve()), merge)


def load(app: Sphinx, spec: SourceSpec, language: str, *, location: Any = None) -> Glossary:
    """The glossary a spec stands for; notices become warnings, errors raise GlossaryDataError."""
    if spec.bundled:
        return bundled_glossary(language)
    path = Path(spec.path)
    try:
        stat = path.stat()
    except OSError:
        raise GlossaryDataError(
            path, "no such glossary file", hint="check the :source: path (relative to the page) or mlglossary_sources"
        ) from None
    glossary, notices, fresh = _load_file(
        spec.path, stat.st_mtime_ns, stat.st_size, language, app.config.mlglossary_link_base or ""
    )
    if fresh:  # report a file's notices once per process, not once per page that shows it
        for notice in notices:
            _report(notice, location)
    if spec.merge:
        return merged(bundled_glossary(language), glossary)
    return glossary


_SEEN: set[tuple[str, int, int, str, str]] = set()


@lru_cache(maxsize=32)
def _cached_read(
    path: str, mtime_ns: int, size: int, language: str, link_base: str
) -> tuple[Glossary, tuple[Notice, ...]]:
    from .importing import read_source

    reference = bundled_glossary(REFERENCE_LANGUAGE) if language != REFERENCE_LANGUAGE else None
    result = read_source(Path(path), language=language, link_base=link_base, reference=reference)
    return result.glossary, result.notices


def _load_file(
    path: str, mtime_ns: int, size: int, language: str, link_base: str
) -> tuple[Glossary, tuple[Notice, ...], bool]:
    glossary, notices = _cached_read(path, mtime_ns, size, language, link_base)
    key = (path, mtime_ns, size, language, link_base)
    fresh = key not in _SEEN
    _SEEN.add(key)
    return glossary, notices, fresh


def _report(notice: Notice, location: Any) -> None:
    if notice.level == "info":
        logger.info(f"mlglossary: {notice.message}")
        return
    kind = MlGlossaryWarning.MARKUP if notice.subtype == "markup" else MlGlossaryWarning.DATA
    warn(kind, notice.message, location=location)


def merged(base: Glossary, overlay: Glossary) -> Glossary:
    """``base`` with ``overlay``'s entries on top: same id replaced, new ids added (in base order, then new)."""
    replaced = {entry.id: entry for entry in overlay}
    entries = [replaced.pop(entry.id, entry) for entry in base]
    entries.extend(entry for entry in overlay if entry.id in replaced)
    return Glossary(base.language, tuple(entries), overlay.source)


def entry_for(app: Sphinx, docname: str, entry_id: str, language: str) -> Entry | None:
    """The entry a page defines under ``entry_id``, from whichever glossary the page shows."""
    from .collector import definition_sources

    spec = definition_sources(app.env).get(docname, {}).get(entry_id, BUNDLED)
    try:
        return load(app, spec, language).get(entry_id)
    except GlossaryDataError:
        return None  # reported when the page was read
