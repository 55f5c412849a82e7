"""Write a glossary in our data format (TOML, format 1), the shape of the bundled files."""

from __future__ import annotations

from ..loader import FORMAT_VERSION
from ..model import Entry, Glossary

_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def to_toml(glossary: Glossary) -> str:
    """The glossary as a data file that :func:`~sphinxcontrib_mlglossary.loader.parse_glossary` reads back."""
    parts = [f"format = {FORMAT_VERSION}\nlanguage = {_string(glossary.language)}\n"]
    parts.extend(_entry(entry) for entry in glossary)
    return "\n".join(parts)


def _entry(entry: Entry) -> str:
    lines = [
        "[[term]]",
        f"id = {_string(entry.id)}",
        f"name = {_string(entry.name)}",
        f"abbreviations = {_list(entry.abbreviations)}",
        f"aliases = {_list(entry.aliases)}",
        *([f"autolink = {_list(entry.autolink)}"] if entry.autolink is not None else []),
        f"summary = {_string(entry.summary)}",
        f"tags = {_list(entry.tags)}",
        f"see_also = {_list(entry.see_also)}",
        f"body = {_body(entry.body)}",
    ]
    return "\n".join(lines) + "\n"


def _string(value: str) -> str:
    """A basic (one-line) TOML string."""
    out = []
    for char in value:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _list(values: tuple[str, ...]) -> str:
    return "[" + ", ".join(_string(value) for value in values) + "]"


def _body(value: str) -> str:
    """A multi-line string that keeps Markdown readable, escaping only what TOML requires."""
    text = value.strip("\n")
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif char in "\n\t":
            out.append(char)
        elif char == "\r" or ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    escaped = "".join(out).replace('"""', '""\\"')
    if escaped.endswith('"'):
        escaped = escaped[:-1] + '\\"'
    return '"""\n' + escaped + '\n"""'
