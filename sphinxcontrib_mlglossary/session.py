"""What one build keeps while it runs: the parts of the application it needs, and its caches.

A session is created when the builder is ready (``builder-inited``) and hangs off the
``mlglossary`` domain instance, which Sphinx creates per environment and never
pickles; the next build, in this process or another, starts a new one. Nothing here
outlives its build, so nothing needs scrubbing between builds or tests.

Caches that depend on every page having been read (where terms live, the backlink
index, rendered cards) are kept in a :class:`ResolvePhase`, replaced once reading is
done: the reading phase may look up entries too, but its answers would be stale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from .config import Settings, settings_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.config import Config
    from sphinx.util.tags import Tags

    from .markup import EntryRenderer
    from .model import Glossary
    from .precedence import Settlement
    from .resolution import TermIndex
    from .term_pattern import TermPattern

Kept = TypeVar("Kept")


@dataclass
class Keeper:
    """Objects kept for a while, one per kind, made by whoever needs them.

    The session knows none of the modules that keep things in it (the glossary files
    of :mod:`.sources`, the backlink index, the prepared cards): they sit below it and
    import it, never the other way round.
    """

    kept: dict[type, object] = field(default_factory=dict, kw_only=True)

    def keep(self, kind: type[Kept], make: Callable[[], Kept]) -> Kept:
        """The ``kind`` object kept here, made by ``make`` on first use."""
        if kind not in self.kept:
            self.kept[kind] = make()
        return cast("Kept", self.kept[kind])


@dataclass
class ResolvePhase(Keeper):
    """Caches valid once all pages are read (dropped if another reading phase starts).

    Besides the fields, :meth:`keep` holds the backlink indexes and the prepared cards.
    """

    #: which definition owns each term, and what each page shows (see .precedence)
    settlement: Settlement | None = None
    #: the project's and our terms, for resolving what a citation names
    terms: TermIndex | None = None
    #: docname -> per citation, its number among the page's citations that land on a term
    landings: dict[str, tuple[int, ...]] = field(default_factory=dict)


@dataclass
class BuildSession(Keeper):
    """One build's view of the application, and its per-build caches (:meth:`keep`: the glossary files)."""

    settings: Settings
    config: Config
    confdir: Path
    #: None only outside a real build (the session of a bare environment)
    builder: Builder | None = None
    tags: Tags | None = None
    #: ``-j`` N with N > 1: pages are written by forked processes
    parallel: bool = False
    #: (glossary, exclusions, inclusions) -> the auto-linking pattern
    patterns: dict[tuple[Glossary, tuple[str, ...], tuple[str, ...]], TermPattern] = field(default_factory=dict)
    #: (language, entry id, summary) -> summary rendered to inline nodes, and as text
    summaries: dict[tuple[str, str, str], tuple[tuple[nodes.Node, ...], str]] = field(default_factory=dict)
    #: the scratch document summaries are rendered in, made for the first one (see ``our_summary``)
    summary_document: nodes.document | None = None
    #: MyST renderer for entry bodies and summaries, created on first use
    renderer: EntryRenderer | None = None
    resolved: ResolvePhase = field(default_factory=ResolvePhase)
    #: the project's source directory: what glossary data may reference (None: the configuration directory)
    srcdir: Path | None = None

    @classmethod
    def start(cls, app: Sphinx) -> BuildSession:
        return cls(
            settings=settings_of(app.config),
            config=app.config,
            confdir=Path(app.confdir),
            builder=app.builder,
            tags=app.tags,
            parallel=app.parallel > 1,
            srcdir=Path(app.srcdir),
        )

    @classmethod
    def bare(cls, config: Config, confdir: Path) -> BuildSession:
        """A session for an environment used without ``builder-inited`` (read-only helpers)."""
        return cls(settings=settings_of(config), config=config, confdir=confdir, srcdir=confdir)

    def reading_done(self) -> None:
        """``env-updated``: what was looked up while pages were read may have changed."""
        self.resolved = ResolvePhase()

    def glossary(self) -> Glossary:
        """The bundled glossary in this build's language."""
        from .loader import bundled_glossary

        return bundled_glossary(self.settings.language)

    def pattern(self, glossary: Glossary, excluded: tuple[str, ...], included: tuple[str, ...] = ()) -> TermPattern:
        """The pattern finding ``glossary``'s names in text, compiled once per build."""
        from .term_pattern import build_pattern, shipped_pattern

        key = (glossary, excluded, included)
        if key not in self.patterns:
            shipped = shipped_pattern(glossary, excluded, included)
            self.patterns[key] = shipped if shipped is not None else build_pattern(glossary, excluded, included)
        return self.patterns[key]

    def entry_renderer(self) -> EntryRenderer:
        """The MyST renderer for entry text, created when first needed."""
        if self.renderer is None:
            from .markup import EntryRenderer

            self.renderer = EntryRenderer()
        return self.renderer

    def require_builder(self) -> Builder:
        if self.builder is None:
            raise RuntimeError("mlglossary: no builder in this session (builder-inited was not emitted)")
        return self.builder
