"""Read any supported glossary file: our TOML data format or the Transformers Markdown dialect."""

from __future__ import annotations

from pathlib import Path

from ..confinement import DEFAULT_MAX_BYTES, read_data_file
from ..loader import GlossaryDataError, bundled_tags, parse_glossary
from ..model import Glossary
from .encoding import decode_source
from .result import ImportResult, Notice
from .transformers_md import read_transformers_markdown

MARKDOWN_SUFFIXES = (".md", ".markdown", ".txt")
TOML_SUFFIXES = (".toml",)


def read_source(
    path: Path,
    *,
    language: str | None = None,
    link_base: str = "",
    reference: Glossary | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> ImportResult:
    """Read a glossary file, picking the format by suffix (or by content when the suffix says nothing).

    Problems that leave a usable glossary come back as notices; the rest raise
    :class:`~sphinxcontrib_mlglossary.loader.GlossaryDataError`. Only regular files up to
    ``max_bytes`` are read (:func:`~sphinxcontrib_mlglossary.confinement.read_data_file`).
    """
    path = Path(path)
    raw = read_data_file(path, max_bytes=max_bytes)
    try:
        return _parse(path, raw, language=language, link_base=link_base, reference=reference)
    except GlossaryDataError:
        raise
    except Exception as exc:  # a data file must never end a build with a traceback
        raise unreadable(path, exc) from None


def unreadable(path: Path, exc: BaseException) -> GlossaryDataError:
    """Our error for an exception a parser raised on a file (deep nesting, a parser's own bug)."""
    if isinstance(exc, RecursionError):
        return GlossaryDataError(
            path,
            "brackets, tables or blocks are nested too deeply to read",
            hint="flatten the nesting; a glossary needs at most a few levels",
        )
    return GlossaryDataError(
        path, f"the file could not be read ({type(exc).__name__}: {exc})", hint="check the file's syntax"
    )


def _parse(path: Path, raw: bytes, *, language: str | None, link_base: str, reference: Glossary | None) -> ImportResult:
    decoded = decode_source(raw, path)
    if _is_toml(path, decoded.text):
        found: list[tuple[int, str]] = []
        glossary = parse_glossary(decoded.text, path, reference=reference, warnings=found, tags=bundled_tags())
        if language and glossary.language != language:
            raise GlossaryDataError(
                path,
                f"the file says language = {glossary.language!r}, but {language!r} was asked for",
                field="language",
                hint="fix the file's language or ask for the language it declares",
            )
        notices = tuple(Notice("warning", "data", message, line=line) for line, message in found)
        return ImportResult(glossary, decoded.notices + notices)
    result = read_transformers_markdown(decoded.text, path, language=language, link_base=link_base, reference=reference)
    return ImportResult(result.glossary, decoded.notices + result.notices)


def _is_toml(path: Path, text: str) -> bool:
    suffix = path.suffix.lower()
    if suffix in TOML_SUFFIXES:
        return True
    if suffix in MARKDOWN_SUFFIXES:
        return False
    return "[[term]]" in text and "format" in text
