"""A shipped data file's tables are read from their stored JSON copy only while it is exact.

The copy (``glossaries/prerendered/<language>.tables.json``, written by the prerender
command) spares every build ``tomllib``'s slow reading of the long body strings. What
is checked: the stored copies are current, a glossary loaded through them equals the
one read from the TOML, and an edited, damaged or missing copy falls back to the TOML.
"""

from __future__ import annotations

import json
import shutil

import pytest

from sphinxcontrib_mlglossary import loader, stored_tables
from sphinxcontrib_mlglossary.json_lines import dumps_by_line
from sphinxcontrib_mlglossary.loader import BUNDLED_LANGUAGES, REFERENCE_LANGUAGE, load_glossary, parse_glossary


@pytest.fixture(autouse=True)
def _fresh_cache():
    loader.bundled_glossary.cache_clear()
    yield
    loader.bundled_glossary.cache_clear()


@pytest.mark.parametrize("language", BUNDLED_LANGUAGES)
def test_the_stored_tables_are_current(language):
    """The copy holds the shipped file's digest (regenerate: python -m sphinxcontrib_mlglossary.prerender)."""
    raw = loader.bundled_path(language).read_bytes()
    assert stored_tables.tables_path(language).read_text(encoding="utf-8") == stored_tables.serialized_tables(raw)
    assert stored_tables.stored_tables(raw, language) is not None


@pytest.mark.parametrize("language", BUNDLED_LANGUAGES)
def test_a_glossary_from_the_stored_tables_equals_the_one_read_from_toml(language):
    reference = None if language == REFERENCE_LANGUAGE else load_glossary(loader.bundled_path(REFERENCE_LANGUAGE))
    read = load_glossary(loader.bundled_path(language), reference=reference)
    stored = loader.bundled_glossary(language)
    assert stored == read
    assert [entry.line for entry in stored] == [entry.line for entry in read]
    assert len(stored) > 200


def test_an_edited_file_is_read_as_toml(tmp_path, monkeypatch):
    edited = tmp_path / "en.toml"
    text = loader.bundled_path("en").read_text(encoding="utf-8")
    edited.write_text(text.replace('name = "attention"', 'name = "attention span"', 1), encoding="utf-8")
    monkeypatch.setattr(loader, "bundled_path", lambda language: edited)
    assert stored_tables.stored_tables(edited.read_bytes(), "en") is None
    glossary = loader.bundled_glossary("en")
    assert glossary.get("attention").name == "attention span"


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: {**data, "format": 99},
        lambda data: {**data, "tables": ["not", "tables"]},
        lambda data: {key: value for key, value in data.items() if key != "source"},
    ],
)
def test_a_damaged_copy_is_not_used(tmp_path, monkeypatch, damage):
    copy = tmp_path / "en.tables.json"
    data = json.loads(stored_tables.tables_path("en").read_text(encoding="utf-8"))
    copy.write_text(json.dumps(damage(data)), encoding="utf-8")
    monkeypatch.setattr(stored_tables, "tables_path", lambda language: copy)
    raw = loader.bundled_path("en").read_bytes()
    assert stored_tables.stored_tables(raw, "en") is None
    assert loader.bundled_glossary("en") == load_glossary(loader.bundled_path("en"))


def test_a_missing_copy_is_not_needed(tmp_path, monkeypatch):
    monkeypatch.setattr(stored_tables, "tables_path", lambda language: tmp_path / "absent.json")
    assert loader.bundled_glossary("en") == load_glossary(loader.bundled_path("en"))


def test_stored_tables_are_still_checked(tmp_path):
    """Tables given to the parser go through the same checks as tables it reads."""
    shipped = loader.bundled_path("en")
    raw = shipped.read_bytes()
    tables = json.loads(stored_tables.serialized_tables(raw))["tables"]
    tables["term"][0]["sumary"] = "a misspelt field"
    with pytest.raises(loader.GlossaryDataError, match="sumary"):
        parse_glossary(raw, shutil.copy(shipped, tmp_path / "en.toml"), tables=tables)


@pytest.mark.parametrize(
    "name", [f"{language}{suffix}" for language in BUNDLED_LANGUAGES for suffix in ("", ".tables")]
)
def test_each_stored_entry_is_a_line_of_its_own(name):
    """An edited entry changes one line of a stored file, not the whole file, in the history."""
    path = stored_tables.tables_path("en").with_name(f"{name}.json")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) > 200
    assert max(len(line) for line in lines) < 64 * 1024


def test_the_line_layout_reads_back_as_the_same_data():
    data = {"b": [1, {"x": [2, 3]}, []], "a": {"k": "é\n", "empty": {}}, "n": None}
    for levels in range(5):
        assert json.loads(dumps_by_line(data, levels=levels)) == data
    assert dumps_by_line(data, levels=2, sort_keys=True).splitlines()[1] == ' "a":{'
