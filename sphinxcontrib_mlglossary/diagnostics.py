"""Warning type and subtypes, so users can silence one kind with ``suppress_warnings``."""

from __future__ import annotations

from enum import Enum
from typing import Any

from sphinx.util import logging

WARNING_TYPE = "mlglossary"

logger = logging.getLogger("sphinxcontrib_mlglossary")


class MlGlossaryWarning(Enum):
    """Each member is a subtype: ``suppress_warnings = ["mlglossary.<value>"]``."""

    UNKNOWN_TERM = "unknown_term"
    """A term reference matches no glossary entry."""

    AMBIGUOUS_TERM = "ambiguous_term"
    """A plural or possessive form matches two entries; the reference stays unlinked."""

    NO_GLOSSARY_PAGE = "no_glossary_page"
    """Terms of the bundled glossary are cited but no page holds the directive."""

    DUPLICATE_TERM = "duplicate_term"
    """Two definitions claim the same term: the project's own wins, else the page first by name."""

    DATA = "data"
    """A glossary data file is broken."""

    CONFIG = "config"
    """A configuration value is wrong; its default is used instead."""

    OPTION = "option"
    """A directive option names an unknown term or tag."""

    LANGUAGE = "language"
    """The requested glossary language is not shipped; English is used."""

    UNUSED_TERM = "unused_term"
    """With ``mlglossary_report_unused = "warning"``: entries no page cites."""

    MARKUP = "markup"
    """An entry's body or summary could not be rendered."""

    EXTERNAL_CARDS = "external_cards"
    """With ``mlglossary_external_cards``: a site mapped through intersphinx could not be read."""


def warn(kind: MlGlossaryWarning, message: str, *, location: Any = None, once: bool = False) -> None:
    """Log a warning carrying our type and the given subtype."""
    logger.warning(message, type=WARNING_TYPE, subtype=kind.value, location=location, once=once)
