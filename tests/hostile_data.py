"""Helpers for tests that build with a glossary of their own instead of the bundled one.

Until glossary files can be named in the directive, a test swaps the file behind
``loader.bundled_glossary("en")`` (and empties the caches that remember the old one).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from sphinxcontrib_mlglossary import loader

ROOTS = Path(__file__).parent / "roots"

#: ``project(page=ONE_ENTRY)``: a glossary page of one bundled entry, for a test that checks
#: nothing on the root's bundled page (it only has to build)
ONE_ENTRY = ("attention-mask",)


def toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes are a subset of TOML's."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def glossary_toml(entries: Sequence[Mapping[str, Any]], language: str = "en") -> str:
    """The text of a format-1 data file holding ``entries`` (dicts of the entry fields)."""
    lines = ["format = 1", f"language = {toml_string(language)}", ""]
    for entry in entries:
        lines.append("[[term]]")
        for key, value in entry.items():
            if isinstance(value, str):
                lines.append(f"{key} = {toml_string(value)}")
            else:
                lines.append(f"{key} = [{', '.join(toml_string(v) for v in value)}]")
        lines.append("")
    return "\n".join(lines)


def entry(entry_id: str, name: str, **fields: Any) -> dict[str, Any]:
    """An entry with filler summary and body unless given."""
    return {
        "id": entry_id,
        "name": name,
        "summary": fields.pop("summary", f"Summary of {entry_id}."),
        "body": fields.pop("body", f"Body of {entry_id}."),
        **fields,
    }


def _forget() -> None:
    loader.bundled_glossary.cache_clear()


@pytest.fixture
def use_glossary(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``use_glossary(text_or_bytes)``: builds in this test read that file as the English glossary."""

    def install(data: str | bytes) -> Path:
        path = tmp_path_factory.mktemp("glossary") / "en.toml"
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        monkeypatch.setattr(loader, "bundled_path", lambda language: path)
        _forget()
        return path

    yield install
    _forget()


@pytest.fixture
def project(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``project(pages, root="hostile")``: a copy of ``roots/test-<root>`` plus extra pages (name -> text).

    ``page=("attention-mask", ...)``: the root's glossary page shows only those bundled entries
    (``conftest.show_only``), for a test that is not about the page and names no other entry.
    """

    def make(pages: Mapping[str, str] | None = None, root: str = "hostile", page: Sequence[str] | None = None) -> Path:
        srcdir = tmp_path_factory.mktemp(root) / "src"
        shutil.copytree(ROOTS / f"test-{root}", srcdir)
        if page is not None:
            from .conftest import show_only

            show_only(srcdir, page)
        for name, text in (pages or {}).items():
            (srcdir / name).parent.mkdir(parents=True, exist_ok=True)
            (srcdir / name).write_text(text, encoding="utf-8")
        return srcdir

    return make
