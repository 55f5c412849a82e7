"""The data loader: each kind of broken file gets a message naming file, entry, field and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from sphinxcontrib_mlglossary.loader import (
    GlossaryDataError,
    load_glossary,
    parse_glossary,
    resolve_language,
)

GOOD = """\
format = 1
language = "en"

[[term]]
id = "alpha"
name = "alpha"
abbreviations = ["A1"]
summary = "The first letter."
body = "Alpha comes first."
see_also = ["beta"]
tags = ["general"]

[[term]]
id = "beta"
name = "beta"
aliases = ["second letter"]
summary = "The second letter."
body = "Beta comes second."
"""


def parse(text: str, **kwargs):
    return parse_glossary(text, "glossary.toml", **kwargs)


def error_of(text: str, **kwargs) -> GlossaryDataError:
    with pytest.raises(GlossaryDataError) as info:
        parse(text, **kwargs)
    return info.value


def test_good_file_loads_with_lines_and_lookups():
    glossary = parse(GOOD)
    assert [e.id for e in glossary] == ["alpha", "beta"]
    alpha = glossary.get("alpha")
    assert alpha is not None
    assert alpha.line == 4
    assert glossary.get("beta").line == 13
    assert alpha.anchor == "term-alpha"
    assert alpha.legacy_anchor == "alpha-a1"
    assert glossary.find("a1") is alpha
    assert glossary.find("  Second   Letter ").id == "beta"
    assert glossary.find("gamma") is None


def test_file_on_disk(tmp_path: Path):
    path = tmp_path / "g.toml"
    path.write_text(GOOD, encoding="utf-8")
    assert len(load_glossary(path)) == 2


def test_missing_file_names_the_path(tmp_path: Path):
    with pytest.raises(GlossaryDataError) as info:
        load_glossary(tmp_path / "nope.toml")
    assert "nope.toml" in str(info.value)
    assert "cannot read" in str(info.value)


def test_bad_syntax_names_the_line():
    error = error_of(GOOD.replace('name = "beta"', 'name = "beta'))
    assert error.line == 15
    assert "glossary.toml:15" in str(error)
    assert "not valid TOML" in str(error)


def test_missing_field_names_entry_and_field():
    error = error_of(GOOD.replace('summary = "The second letter."\n', ""))
    assert (error.entry, error.field, error.line) == ("beta", "summary", 13)
    assert "entry 'beta': field 'summary': missing required field" in str(error)


def test_wrong_type():
    error = error_of(GOOD.replace('tags = ["general"]', 'tags = "general"'))
    assert (error.entry, error.field) == ("alpha", "tags")


def test_empty_string():
    error = error_of(GOOD.replace('body = "Beta comes second."', 'body = "  "'))
    assert (error.entry, error.field) == ("beta", "body")


def test_unknown_field_is_a_typo_not_ignored():
    error = error_of(GOOD.replace("see_also =", "seealso ="))
    assert error.entry == "alpha"
    assert "seealso" in str(error)
    assert "known fields" in str(error)


def test_duplicate_id():
    error = error_of(GOOD.replace('id = "beta"', 'id = "alpha"'))
    assert (error.entry, error.field, error.line) == ("alpha", "id", 13)
    assert "first defined at line 4" in str(error)


def test_id_must_be_a_slug():
    error = error_of(GOOD.replace('id = "beta"', 'id = "Beta Term"'))
    assert error.field == "id"
    assert "e.g. 'beta'" in str(error)


def test_see_also_unknown_id():
    error = error_of(GOOD.replace('see_also = ["beta"]', 'see_also = ["gamma"]'))
    assert (error.entry, error.field) == ("alpha", "see_also")
    assert "'gamma'" in str(error)


def test_alias_colliding_with_another_term():
    error = error_of(GOOD.replace('aliases = ["second letter"]', 'aliases = ["A1"]'))
    assert (error.entry, error.field) == ("beta", "aliases")
    assert "already a name of entry 'alpha'" in str(error)


def test_name_colliding_case_insensitively():
    error = error_of(GOOD.replace('name = "beta"', 'name = "Alpha"'))
    assert (error.entry, error.field) == ("beta", "name")


def test_format_version_and_language_required():
    assert error_of(GOOD.replace("format = 1", "format = 2")).field == "format"
    assert error_of(GOOD.replace('language = "en"\n', "")).field == "language"


def test_entries_must_be_tables():
    assert error_of('format = 1\nlanguage = "en"\nterm = "x"\n').field == "term"


def test_not_utf8_names_the_line():
    raw = GOOD.replace("Beta comes second.", "B\u00e9ta").encode("latin-1")
    with pytest.raises(GlossaryDataError) as info:
        parse_glossary(raw, "g.toml")
    assert info.value.line == 18
    assert "UTF-8" in str(info.value)


def test_utf8_bom_is_accepted():
    assert len(parse_glossary(b"\xef\xbb\xbf" + GOOD.encode(), "g.toml")) == 2


TRANSLATED = """\
format = 1
language = "es"

[[term]]
id = "alpha"
name = "alfa"
summary = "La primera letra."
body = "Alfa va primero."

[[term]]
id = "beta"
name = "beta"
summary = "La segunda letra."
body = "Beta va segunda."
"""


def test_translation_inherits_from_reference():
    reference = parse(GOOD)
    spanish = parse(TRANSLATED, reference=reference)
    alfa = spanish.get("alpha")
    assert alfa.name == "alfa"
    assert alfa.tags == ("general",)
    assert alfa.see_also == ("beta",)
    assert alfa.legacy_anchor == "alpha-a1"
    assert spanish.find("alpha") is alfa  # English name kept as an alias
    assert spanish.find("A1") is alfa


def test_translation_missing_an_entry():
    reference = parse(GOOD)
    text = TRANSLATED.split("[[term]]")
    error = error_of("[[term]]".join(text[:2]), reference=reference)
    assert "missing entries" in str(error)
    assert "beta" in str(error)


def test_translation_with_an_extra_entry():
    reference = parse(GOOD)
    text = TRANSLATED + '\n[[term]]\nid = "gamma"\nname = "gama"\nsummary = "x."\nbody = "y"\n'
    error = error_of(text, reference=reference)
    assert (error.entry, error.field) == ("gamma", "id")


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("en", "en"),
        ("es", "es"),
        ("es_MX", "es"),
        ("ar-EG", "ar"),
        ("AR", "ar"),
        ("fr", None),
        ("zh_CN", None),
    ],
)
def test_resolve_language(tag, expected):
    assert resolve_language(tag) == expected


def test_autolink_names_which_names_link_without_asking():
    text = GOOD.replace(
        'aliases = ["second letter"]', 'aliases = ["second letter", "letter two"]\nautolink = ["letter two"]'
    )
    glossary = parse(text)
    assert glossary.get("beta").linkable_names == ("letter two",)
    # not said: the default rule, names of several words and abbreviations in their own case
    assert glossary.get("alpha").autolink is None
    assert glossary.get("alpha").linkable_names == ("A1",)
    assert parse(GOOD).get("beta").linkable_names == ("second letter",)


def test_an_empty_autolink_list_keeps_the_entry_from_auto_linking():
    glossary = parse(GOOD.replace('aliases = ["second letter"]', 'aliases = ["second letter"]\nautolink = []'))
    assert glossary.get("beta").linkable_names == ()


@pytest.mark.parametrize(
    ("value", "message"),
    [('["gamma"]', "'gamma' is not a name of this entry"), ('"beta"', "must be a list"), ("[1]", "must be a list")],
)
def test_autolink_must_list_names_of_the_entry(value, message):
    error = error_of(GOOD.replace('aliases = ["second letter"]', f"autolink = {value}"))
    assert (error.entry, error.field, error.line) == ("beta", "autolink", 13)
    assert message in str(error)


def test_a_translation_links_inherited_names_as_the_reference_does():
    reference = parse(GOOD.replace('aliases = ["second letter"]', 'aliases = ["second letter"]\nautolink = []'))
    spanish = parse(TRANSLATED.replace('name = "alfa"', 'name = "alfa"\nautolink = ["alfa"]'), reference=reference)
    alfa = spanish.get("alpha")
    assert alfa.aliases == ("alpha", "A1")
    assert alfa.linkable_names == ("alfa", "A1")  # "alpha" is one everyday-style word in English: not linked


def test_every_bundled_entry_says_which_names_auto_link():
    from sphinxcontrib_mlglossary.loader import BUNDLED_LANGUAGES, bundled_glossary
    from sphinxcontrib_mlglossary.model import safe_to_autolink

    for language in BUNDLED_LANGUAGES:
        glossary = bundled_glossary(language)
        assert len(glossary) == 179
        for entry in glossary:
            assert entry.autolink is not None, (language, entry.id)
        # most names of several words link; a minority of single words do (chosen one by one)
        names = [(name, entry) for entry in glossary for name in entry.names]
        several = [name for name, entry in names if safe_to_autolink(name, name in entry.abbreviations)]
        single = [name for name, entry in names if not safe_to_autolink(name, name in entry.abbreviations)]
        assert sum(name in entry.linkable_names for name, entry in names if name in several) > 0.8 * len(several)
        assert sum(name in entry.linkable_names for name, entry in names if name in single) < 0.5 * len(single)
    english = bundled_glossary("en")
    for word in ("patch", "labels", "attention", "batch", "prompt", "temperature", "checkpoint", "inference"):
        assert word not in english.find(word).linkable_names, word
    for name in ("attention mask", "MLM", "softmax", "input IDs"):
        assert name in english.find(name).linkable_names, name
