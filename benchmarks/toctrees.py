"""Drop toctree entries that name a page the prepared site doesn't have.

A real site's toctrees name pages the benchmark strips (API pages, notebooks) or pages
its own build copies in from other repositories; Sphinx warns once per such entry. The
entries are removed from the source text, in reST (``.. toctree::``) and MyST (a
backtick or colon fence around ``{toctree}``) alike; everything else stays as written.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable

_RST_START = re.compile(r"^(?P<indent>\s*)\.\. toctree::\s*$")
_MYST_START = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|:{3,})\{toctree\}")
_TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")

#: answers whether a document name (no suffix, relative to the source folder) exists
Exists = Callable[[str], bool]


def entry_target(entry: str) -> str:
    """The document an entry line names: ``Title <path>`` or a bare ``path``."""
    entry = entry.strip()
    titled = _TITLED.match(entry)
    return titled["target"].strip() if titled else entry


def resolve(target: str, docname: str, suffixes: tuple[str, ...]) -> str:
    """The document name a toctree entry of ``docname`` points to, its suffix dropped."""
    for suffix in suffixes:
        if target.endswith(suffix):
            target = target[: -len(suffix)]
            break
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(posixpath.dirname(docname), target))


def _keeps(line: str, docname: str, suffixes: tuple[str, ...], exists: Exists, globbed: bool) -> bool:
    target = entry_target(line)
    if not target or target == "self" or "://" in target or target.startswith("mailto:"):
        return True
    if globbed and any(char in target for char in "*?["):
        return True  # a pattern matches what is there; a stripped page simply drops out
    return exists(resolve(target, docname, suffixes))


def prune(text: str, docname: str, suffixes: tuple[str, ...], exists: Exists) -> tuple[str, list[str]]:
    """``text`` without the toctree entries naming missing pages, and the entries removed."""
    lines = text.splitlines(keepends=True)
    kept: list[str] = []
    removed: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        kept.append(line)
        index += 1
        rst, myst = _RST_START.match(line), _MYST_START.match(line)
        if not rst and not myst:
            continue
        body: list[str] = []
        if rst:
            indent = len(rst["indent"])
            while index < len(lines):
                candidate = lines[index]
                if candidate.strip() and len(candidate) - len(candidate.lstrip()) <= indent:
                    break
                body.append(candidate)
                index += 1
        else:
            assert myst is not None
            fence = myst["fence"]
            while index < len(lines) and not lines[index].strip().startswith(fence):
                body.append(lines[index])
                index += 1
        globbed = any(entry.strip() == ":glob:" or entry.strip() == "glob: true" for entry in body)
        in_front_matter = False
        for entry in body:
            stripped = entry.strip()
            if stripped == "---":
                in_front_matter = not in_front_matter
            if (
                in_front_matter
                or stripped == "---"
                or not stripped
                or stripped.startswith(":")
                or _keeps(stripped, docname, suffixes, exists, globbed)
            ):
                kept.append(entry)
            else:
                removed.append(stripped)
    return "".join(kept), removed
