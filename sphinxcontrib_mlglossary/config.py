"""The ``mlglossary_*`` configuration values, validated once when the config is read."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .confinement import DEFAULT_MAX_MB, MAX_FILE_MB
from .diagnostics import MlGlossaryWarning, logger, warn
from .loader import resolve_language
from .ml_context import DEFAULT_CONTEXT_ENTRIES, DEFAULT_CUED_ENTRIES

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

    from .model import Glossary
    from .term_pattern import TermPattern

#: name -> (default, rebuild, accepted types)
OPTIONS: dict[str, tuple[Any, Literal["env", "html", ""], tuple[type, ...]]] = {
    # glossary language; None follows the project's ``language``
    "mlglossary_language": (None, "env", (str, type(None))),
    # warn about {term} references that match nothing (with "did you mean")
    "mlglossary_warn_unknown": (True, "env", (bool,)),
    # hover/focus/tap cards on term links (HTML builders)
    "mlglossary_tooltips": (True, "html", (bool,)),
    # "hover" (hover, focus and tap) or "click" (click/tap and focus only)
    "mlglossary_tooltip_trigger": ("hover", "html", (str,)),
    # cards for terms that intersphinx links to another site, read from that site at build time
    "mlglossary_external_cards": (False, "html", (bool,)),
    # "Cited in" lists under each glossary entry
    "mlglossary_backlinks": (True, "env", (bool,)),
    # pages listed per entry before "and N more pages"
    "mlglossary_backlinks_max": (10, "env", (int,)),
    # also list citations made inside glossary entries (one term mentioning another)
    "mlglossary_backlinks_from_glossary": (False, "env", (bool,)),
    # also draw backlinks under the terms of the project's own glossary directives
    "mlglossary_backlinks_user_glossaries": (True, "env", (bool,)),
    # link plain-text mentions of terms: False/"off", "first" (per page), "section", "all"
    "mlglossary_autolink": (False, "env", (bool, str)),
    # ids or names of entries auto-linking leaves alone, and phrases it links nothing inside
    # ("Cross Encoder": a product name holding a glossary name)
    "mlglossary_autolink_exclude": ([], "env", (list, tuple)),
    # names (or entry ids: all their names) auto-linking may link although the glossary
    # data keeps them for {term} only (single everyday words such as "tokenizer" or "batch")
    "mlglossary_autolink_include": ([], "env", (list, tuple)),
    # auto-link the everyday names of mlglossary_autolink_context_names in sections that
    # already name this many other glossary entries (or on pages importing an ML library); 0 turns it off
    "mlglossary_autolink_context": (3, "env", (int,)),
    # entries (ids, or single names) whose names kept for {term} are auto-linked in ML sections
    "mlglossary_autolink_context_names": (list(DEFAULT_CONTEXT_ENTRIES), "env", (list, tuple)),
    # entries whose names kept for {term} are auto-linked in ML sections only in a sentence
    # that names another entry or a model ("parameters", "loss", "metrics", "batch")
    "mlglossary_autolink_context_cued_names": (list(DEFAULT_CUED_ENTRIES), "env", (list, tuple)),
    # spell out a page's first citation of an abbreviation: "masked language modeling (MLM)"
    # (a page's "mlglossary-first-use" metadata switches it on or off there)
    "mlglossary_first_use": (False, "env", (bool,)),
    # count auto-links as citations in backlinks (and for the unused report)
    "mlglossary_autolink_backlinks": (False, "env", (bool,)),
    # report entries no page cites: False, True/"info" (one info line) or "warning"
    "mlglossary_report_unused": (False, "", (bool, str)),
    # glossary files of the project, by name: {"hf": "glossaries/hf.md"} (paths relative to conf.py)
    "mlglossary_sources": ({}, "env", (dict,)),
    # base URL for relative links in imported Transformers Markdown glossaries
    "mlglossary_link_base": ("", "env", (str,)),
    # folders outside the source directory that glossary files may be read from (relative to conf.py)
    "mlglossary_trusted_dirs": ([], "env", (list, tuple)),
    # the largest glossary file read, in MB
    "mlglossary_max_file_mb": (DEFAULT_MAX_MB, "env", (int, float)),
}

#: auto-linking modes besides "off"
AUTOLINK_MODES = ("first", "section", "all")
_REPORT_LEVELS = ("off", "info", "warning")

_TRIGGERS = ("hover", "click")


@dataclass(frozen=True, slots=True)
class Settings:
    """The validated settings of one build."""

    #: language of the glossary to load ("en", "es", "ar")
    language: str
    warn_unknown: bool
    tooltips: bool
    tooltip_trigger: str
    backlinks: bool
    backlinks_max: int
    backlinks_from_glossary: bool
    backlinks_user_glossaries: bool
    #: "off", "first", "section" or "all"
    autolink: str
    autolink_exclude: tuple[str, ...]
    autolink_include: tuple[str, ...]
    autolink_backlinks: bool
    #: "off", "info" or "warning"
    report_unused: str
    #: folders outside the source directory glossary files may come from, as written in conf.py
    trusted_dirs: tuple[str, ...] = ()
    #: the largest glossary file read
    max_file_bytes: int = DEFAULT_MAX_MB * 1024 * 1024
    #: entries a section must name before the everyday names are linked there (0: never)
    autolink_context: int = 3
    #: entries (or names) whose names kept for {term} are linked in ML sections
    autolink_context_names: tuple[str, ...] = ()
    #: entries (or names) whose names kept for {term} are linked in ML sections, in a sentence with a cue
    autolink_context_cued_names: tuple[str, ...] = ()

    def context_included(self) -> tuple[str, ...] | None:
        """The names auto-linking's context pattern links on top of the data's (None: the
        context rule is off). One definition: the main process makes this pattern before
        ``-j`` forks the readers, under the key they ask for."""
        if not self.autolink_context or not (self.autolink_context_names or self.autolink_context_cued_names):
            return None
        return self.autolink_include + self.autolink_context_names + self.autolink_context_cued_names


def register(app: Sphinx) -> None:
    for name, (default, rebuild, types) in OPTIONS.items():
        app.add_config_value(name, default, rebuild, types)
    app.connect("config-inited", _validate)


def _validate(app: Sphinx, config: Config) -> None:
    _warn_unknown_names(app)
    for name, (default, _rebuild, types) in OPTIONS.items():
        value = getattr(config, name)
        if not isinstance(value, types):
            warn(
                MlGlossaryWarning.CONFIG,
                f"{name} = {value!r} is not a {' or '.join(t.__name__ for t in types)}; using {default!r}",
            )
            setattr(config, name, default)
    if config.mlglossary_tooltip_trigger not in _TRIGGERS:
        warn(
            MlGlossaryWarning.CONFIG,
            f"mlglossary_tooltip_trigger = {config.mlglossary_tooltip_trigger!r} is not one of "
            f"{', '.join(map(repr, _TRIGGERS))}; using 'hover'",
        )
        config.mlglossary_tooltip_trigger = "hover"
    config.mlglossary_autolink = _choice(
        "mlglossary_autolink", config.mlglossary_autolink, ("off", *AUTOLINK_MODES), true="first"
    )
    config.mlglossary_report_unused = _choice(
        "mlglossary_report_unused", config.mlglossary_report_unused, _REPORT_LEVELS, true="info"
    )
    _validate_file_limits(config)
    requested = config.mlglossary_language or config.language
    if resolve_language(requested) is None:
        logger.info(f"mlglossary: no glossary in {requested!r}; using English")
    context = config.mlglossary_autolink_context
    if isinstance(context, bool):  # False: off; True: the default
        config.mlglossary_autolink_context = context = 3 if context else 0
    if not _number_in_range(context, 0, 1000, integer=True):
        warn(
            MlGlossaryWarning.CONFIG,
            f"mlglossary_autolink_context = {context!r} is not a whole number from 0 (off) to 1000; using 3",
        )
        config.mlglossary_autolink_context = 3
    language = resolve_language(requested) or "en"
    for name in ("mlglossary_autolink_exclude", "mlglossary_autolink_include"):
        setattr(config, name, _autolink_names(name, getattr(config, name), language))
    for name, default in (
        ("mlglossary_autolink_context_names", DEFAULT_CONTEXT_ENTRIES),
        ("mlglossary_autolink_context_cued_names", DEFAULT_CUED_ENTRIES),
    ):
        names = getattr(config, name)
        if list(names) == list(default):
            # our own default names no mistake of the user's: keep, quietly, the entries the
            # glossary in use has (a glossary replaced or trimmed may lack some)
            setattr(config, name, _known_entries(names, language))
        else:
            setattr(config, name, _autolink_names(name, names, language))


def _known_entries(ids: list[str] | tuple[str, ...], language: str) -> list[str]:
    from .loader import bundled_glossary

    glossary = bundled_glossary(language)
    return [entry_id for entry_id in ids if glossary.get(entry_id) is not None]


def _autolink_names(option: str, values: list[Any] | tuple[Any, ...], language: str) -> list[str]:
    """Keep the strings that name an entry (by id or any name), and for the exclusions the
    phrases that hold a name (see :mod:`.exclusions`); say what the others are."""
    if not values:
        return []
    import difflib

    from .loader import bundled_glossary
    from .model import fold

    glossary = bundled_glossary(language)
    known = {fold(entry.id) for entry in glossary} | {fold(name) for entry in glossary for name in entry.names}
    phrases = option == "mlglossary_autolink_exclude"
    every_name: list[TermPattern] = []  # built when first needed, once
    kept = []
    for value in values:
        if not isinstance(value, str) or not value.strip():
            warn(MlGlossaryWarning.CONFIG, f"{option}: {value!r} is not an entry id or name; it is ignored")
            continue
        if fold(value) not in known and not (phrases and _holds_a_name(glossary, value, every_name)):
            names = [name for entry in glossary for name in (entry.id, *entry.names)]
            close = difflib.get_close_matches(value, names, n=1, cutoff=0.7)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            holds = " and holds none of its names" if phrases else ""
            warn(
                MlGlossaryWarning.CONFIG,
                f"{option}: {value!r} names no entry of the glossary{holds}; it is ignored{hint}",
            )
            continue
        kept.append(value)
    return kept


def _holds_a_name(glossary: Glossary, value: str, every_name: list[TermPattern]) -> bool:
    """Whether an exclusion that names no entry holds one of the glossary's names (a phrase)."""
    from .exclusions import every_name_pattern

    if not every_name:
        every_name.append(every_name_pattern(glossary))
    return any(True for _ in every_name[0].finditer(value))


def _validate_file_limits(config: Config) -> None:
    """``mlglossary_trusted_dirs`` holds folder paths; ``mlglossary_max_file_mb`` is a positive number."""
    trusted = [item for item in config.mlglossary_trusted_dirs if isinstance(item, str) and item.strip()]
    if len(trusted) != len(config.mlglossary_trusted_dirs):
        warn(
            MlGlossaryWarning.CONFIG,
            f"mlglossary_trusted_dirs = {config.mlglossary_trusted_dirs!r} should hold folder paths only "
            "(strings, relative to conf.py); the other items are ignored",
        )
        config.mlglossary_trusted_dirs = trusted
    limit = config.mlglossary_max_file_mb
    if not _number_in_range(limit, 0, MAX_FILE_MB, low_included=False):
        warn(
            MlGlossaryWarning.CONFIG,
            f"mlglossary_max_file_mb = {limit!r} is not a number of megabytes above 0 and at most "
            f"{MAX_FILE_MB}; using {DEFAULT_MAX_MB}",
        )
        config.mlglossary_max_file_mb = DEFAULT_MAX_MB
    shown = config.mlglossary_backlinks_max
    if not _number_in_range(shown, 1, MAX_BACKLINKS, integer=True):
        warn(
            MlGlossaryWarning.CONFIG,
            f"mlglossary_backlinks_max = {shown!r} is not a whole number from 1 to {MAX_BACKLINKS}; using 10",
        )
        config.mlglossary_backlinks_max = 10


#: the most pages a "Cited in" list may show before "and N more pages"
MAX_BACKLINKS = 10_000


def _number_in_range(value: Any, low: float, high: float, *, low_included: bool = True, integer: bool = False) -> bool:
    """A finite int or float (not a bool) within ``low``..``high``: ``inf`` and ``nan`` are no sizes."""
    if isinstance(value, bool) or not isinstance(value, int | float) or (integer and not isinstance(value, int)):
        return False
    if not math.isfinite(value):
        return False
    return (low <= value if low_included else low < value) and value <= high


def _names_set_in(conf_py: Path) -> set[str]:
    """Top-level names conf.py assigns, read from its syntax tree (it is not run again)."""
    import ast

    try:
        tree = ast.parse(conf_py.read_bytes(), filename=str(conf_py))
    except (OSError, SyntaxError, ValueError):
        return set()  # Sphinx has read it already, or reported why it couldn't
    names: set[str] = set()
    for statement in tree.body:
        targets: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            targets = list(statement.targets)
        elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
            targets = [statement.target]
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    names.add(node.id)
    return names


def _warn_unknown_names(app: Sphinx) -> None:
    """A misspelt ``mlglossary_*`` name would otherwise be ignored without a word."""
    import difflib

    if not app.confdir:
        return
    for name in sorted(_names_set_in(Path(app.confdir) / "conf.py")):
        if name.startswith("mlglossary_") and name not in OPTIONS:
            close = difflib.get_close_matches(name, list(OPTIONS), n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else f"; known options: {', '.join(OPTIONS)}"
            warn(MlGlossaryWarning.CONFIG, f"unknown option {name!r} in conf.py is ignored{hint}")


def _choice(name: str, value: bool | str, allowed: tuple[str, ...], *, true: str) -> str:
    """A bool-or-string option as one of ``allowed`` (True means ``true``, False "off")."""
    if isinstance(value, bool):
        return true if value else "off"
    if value in allowed:
        return value
    warn(
        MlGlossaryWarning.CONFIG,
        f"{name} = {value!r} is not one of {', '.join(map(repr, allowed))}; using 'off'",
    )
    return "off"


def settings_of(config: Config) -> Settings:
    """The settings of a validated config (the build's session keeps them)."""
    return Settings(
        language=resolve_language(config.mlglossary_language or config.language) or "en",
        warn_unknown=bool(config.mlglossary_warn_unknown),
        tooltips=bool(config.mlglossary_tooltips),
        tooltip_trigger=config.mlglossary_tooltip_trigger,
        backlinks=bool(config.mlglossary_backlinks),
        backlinks_max=config.mlglossary_backlinks_max
        if _number_in_range(config.mlglossary_backlinks_max, 1, MAX_BACKLINKS, integer=True)
        else 10,
        backlinks_from_glossary=bool(config.mlglossary_backlinks_from_glossary),
        backlinks_user_glossaries=bool(config.mlglossary_backlinks_user_glossaries),
        autolink=_mode(config.mlglossary_autolink, ("off", *AUTOLINK_MODES), "first"),
        autolink_exclude=tuple(str(item) for item in config.mlglossary_autolink_exclude),
        autolink_include=tuple(str(item) for item in config.mlglossary_autolink_include),
        autolink_context=int(config.mlglossary_autolink_context),
        autolink_context_names=tuple(str(item) for item in config.mlglossary_autolink_context_names),
        autolink_context_cued_names=tuple(str(item) for item in config.mlglossary_autolink_context_cued_names),
        autolink_backlinks=bool(config.mlglossary_autolink_backlinks),
        report_unused=_mode(config.mlglossary_report_unused, _REPORT_LEVELS, "info"),
        trusted_dirs=tuple(str(item) for item in config.mlglossary_trusted_dirs if isinstance(item, str)),
        max_file_bytes=_max_bytes(config.mlglossary_max_file_mb),
    )


def _max_bytes(megabytes: Any) -> int:
    valid = _number_in_range(megabytes, 0, MAX_FILE_MB, low_included=False)
    return round((megabytes if valid else DEFAULT_MAX_MB) * 1024 * 1024)


def _mode(value: bool | str, allowed: tuple[str, ...], true: str) -> str:
    """Quiet version of ``_choice`` for configs already validated (or read back from a pickle)."""
    if isinstance(value, bool):
        return true if value else "off"
    return value if value in allowed else "off"
