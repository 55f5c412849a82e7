"""A shipped data file's TOML tables, stored as JSON: read in a twentieth of the time.

Python's ``tomllib`` reads a basic string a character at a time, and the entry bodies are
long basic strings: reading the English file took 0.07 s of every build, each translated
build read the English file too (0.13 s in all), and the glossary grows. The tables never
change between releases, so ``python -m sphinxcontrib_mlglossary.prerender`` also stores
them, as JSON, in ``glossaries/prerendered/<language>.tables.json`` with the SHA-256 of the
file they were read from. The loader uses them only for a file with exactly that digest and
checks them as it checks any file's tables; an edited file (or a missing, damaged or
older-format copy) is read as TOML, as before.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from .json_lines import dumps_by_line

#: version of the stored layout; a copy of another version is not used
FORMAT = 1


def tables_path(language: str) -> Path:
    """Where a shipped language's tables are stored."""
    return Path(str(resources.files(__package__).joinpath("glossaries", "prerendered", f"{language}.tables.json")))


def source_digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def serialized_tables(raw: bytes) -> str:
    """The stored copy of a data file's tables (the file's text as it is, in the file's order)."""
    tables = tomllib.loads(raw.decode("utf-8-sig"))
    data = {"format": FORMAT, "source": source_digest(raw), "tables": tables}
    return dumps_by_line(data, levels=3)


def stored_tables(raw: bytes, language: str) -> dict[str, Any] | None:
    """The tables of the shipped file whose bytes are ``raw``, if stored for exactly those bytes."""
    try:
        data = json.loads(tables_path(language).read_text(encoding="utf-8"))
        if data["format"] != FORMAT or data["source"] != source_digest(raw) or not isinstance(data["tables"], dict):
            return None
        return dict(data["tables"])
    except (OSError, ValueError, KeyError, TypeError):
        return None  # reading the TOML, as without the stored copy, is always right
