"""The data loader: each kind of broken file gets a message naming file, entry, field and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from sphinxcontrib_mlglossary.loader import (
    BUNDLED_LANGUAGES,
    GlossaryDataError,
    bundled_path,
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
    assert "unknown field 'seealso' (did you mean 'see_also'?)" in str(error)


def test_a_misspelt_required_field_is_one_problem_with_its_spelling():
    error = error_of(GOOD.replace('summary = "The second letter."', 'sumary = "The second letter."'))
    assert [str(problem) for problem in error.problems] == [
        "glossary.toml:13: entry 'beta': unknown field 'sumary' (did you mean 'summary'?)"
    ]


def test_an_unknown_field_like_no_known_one_lists_the_known_fields():
    error = error_of(GOOD.replace('tags = ["general"]', 'tags = ["general"]\ncolour = "red"'))
    assert "unknown field 'colour' (known fields: abbreviations, aliases, autolink, body, id, name," in str(error)


def test_every_problem_of_a_file_is_reported_at_once():
    """Two entries with a mistake each, a name taken twice and a misspelt top-level key: four problems, one run."""
    text = (
        GOOD.replace('language = "en"', 'language = "en"\nlangauge = "en"')
        .replace('tags = ["general"]', 'tags = "general"')
        .replace('id = "beta"', 'id = "Beta Term"')
        + '\n[[term]]\nid = "gamma"\nname = "gamma"\nsummary = "s"\nbody = "b"\n'
        + '\n[[term]]\nid = "delta"\nname = "Gamma"\nsummary = "s"\nbody = "b"\n'
    )
    error = error_of(text)
    found = [(problem.line, problem.entry, problem.field) for problem in error.problems]
    assert found == [(0, "", ""), (5, "alpha", "tags"), (14, "Beta Term", "id"), (27, "delta", "name")]
    assert "unknown top-level key 'langauge' (did you mean 'language'?)" in str(error.problems[0])
    assert "'Gamma' is already a name of entry 'gamma' (line 21)" in str(error.problems[3])
    # the error itself stands for the first problem, and its text lists them all
    assert (error.line, error.entry) == (0, "")
    assert str(error).splitlines() == [str(problem) for problem in error.problems]


def test_an_entry_refused_for_a_mistake_is_still_a_known_id():
    """A see_also naming an entry refused for another reason is not a second report."""
    error = error_of(GOOD.replace('body = "Beta comes second."', 'body = ""'))
    assert [(problem.entry, problem.field) for problem in error.problems] == [("beta", "body")]


def test_a_misspelt_see_also_id_is_suggested():
    error = error_of(GOOD.replace('see_also = ["beta"]', 'see_also = ["betta"]'))
    assert "see_also names unknown id 'betta' (did you mean 'beta'?)" in str(error)


def test_a_tag_only_one_entry_has_spelt_like_a_known_tag_is_a_warning_with_its_spelling():
    found: list[tuple[int, str]] = []
    glossary = parse(
        GOOD.replace('body = "Beta comes second."', 'body = "Beta comes second."\ntags = ["paralelism"]'),
        warnings=found,
        tags={"parallelism", "training"},
    )
    assert glossary.get("beta").tags == ("paralelism",)  # a new tag is allowed: a warning only
    assert found == [
        (
            13,
            "glossary.toml:13: entry 'beta': field 'tags': no other entry has the tag 'paralelism'; "
            "did you mean 'parallelism'?",
        )
    ]


def test_new_tags_unlike_any_other_are_no_warning():
    found: list[tuple[int, str]] = []
    parse(
        GOOD.replace('body = "Beta comes second."', 'body = "Beta."\ntags = ["cooking"]'), warnings=found, tags={"nlp"}
    )
    assert found == []


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

    reference_ids = [entry.id for entry in bundled_glossary("en")]
    assert len(reference_ids) >= 156
    for language in BUNDLED_LANGUAGES:
        glossary = bundled_glossary(language)
        assert [entry.id for entry in glossary] == reference_ids, language  # same entries, same order
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


@pytest.mark.parametrize("language", BUNDLED_LANGUAGES)
def test_bundled_text_stays_in_the_basic_multilingual_plane(language):
    """One character beyond U+FFFF (an emoji, say) anywhere on the written glossary page makes
    Python hold the whole 2-million-character page at 4 bytes a character instead of 2: 13 MiB
    more at the build's peak (BENCHMARKS.md, 2026-12-03). The bundled text keeps to the BMP."""
    lines = bundled_path(language).read_text(encoding="utf-8").splitlines()
    beyond = [
        f"line {number}: {char!r} (U+{ord(char):X})"
        for number, line in enumerate(lines, 1)
        for char in line
        if ord(char) > 0xFFFF
    ]
    assert beyond == []
