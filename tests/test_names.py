"""Term names: one rule for TOML and Markdown, nothing invisible, look-alikes reported.

Invisible and direction-control characters are removed from names with a warning naming
the file, the line, the entry and the character, whether the glossary is a TOML data
file or an imported Markdown file; the two joiners stay between letters of scripts that
use them. A name spelt with Cyrillic or Greek letters drawn like Latin ones, next to the
Latin name it imitates, is a warning naming both.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sphinxcontrib_mlglossary.importing import read_source
from sphinxcontrib_mlglossary.loader import BUNDLED_LANGUAGES, GlossaryDataError, bundled_path, parse_glossary
from sphinxcontrib_mlglossary.names import clean_name, skeleton

from .conftest import read_html
from .hostile_data import entry, glossary_toml


def as_toml(tmp_path: Path, entries: list[dict]) -> Path:
    path = tmp_path / "names.toml"
    path.write_text(glossary_toml(entries), encoding="utf-8")
    return path


def as_markdown(tmp_path: Path, headings: list[str]) -> Path:
    path = tmp_path / "names.md"
    sections = "".join(f"### {heading}\n\nThe definition of {heading}.\n\n" for heading in headings)
    path.write_text(f"# Glossary\n\n## A\n\n{sections}", encoding="utf-8")
    return path


def warnings_of(result) -> list[str]:
    return [notice.message for notice in result.notices if notice.level == "warning"]


INVISIBLE = [
    ("\u200b", "U+200B (ZERO WIDTH SPACE)"),
    ("\u200c", "U+200C (ZERO WIDTH NON-JOINER)"),
    ("\u200d", "U+200D (ZERO WIDTH JOINER)"),
    ("\u200e", "U+200E (LEFT-TO-RIGHT MARK)"),
    ("\u200f", "U+200F (RIGHT-TO-LEFT MARK)"),
    ("\u061c", "U+061C (ARABIC LETTER MARK)"),
    ("\ufeff", "U+FEFF (ZERO WIDTH NO-BREAK SPACE)"),
    ("\u2060", "U+2060 (WORD JOINER)"),
    ("\u00ad", "U+00AD (SOFT HYPHEN)"),
    ("\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    ("\u2067", "U+2067 (RIGHT-TO-LEFT ISOLATE)"),
]


@pytest.mark.parametrize(("char", "described"), INVISIBLE)
def test_invisible_characters_leave_names_with_a_warning_in_toml_and_markdown(tmp_path, char, described):
    name = f"atten{char}tion mask"
    toml = read_source(as_toml(tmp_path, [entry("attention-mask", name)]))
    markdown = read_source(as_markdown(tmp_path, [name]), language="en")
    for result, line in ((toml, 4), (markdown, 5)):
        (found,) = result.glossary
        assert found.name == "attention mask"
        (warning,) = warnings_of(result)
        assert f"names.{'toml' if result is toml else 'md'}:{line}:" in warning
        assert described in warning and "'attention mask'" in warning
    assert "entry 'attention-mask': field 'name'" in warnings_of(toml)[0]
    assert repr(name) in warnings_of(markdown)[0]  # the heading as written, escapes visible


def test_the_same_name_comes_out_of_both_formats(tmp_path):
    written = ["\u202bweird\u202c  name\u200f", "caf\u0065\u0301 au lait", "\ufeffbyte mark"]
    toml = read_source(as_toml(tmp_path, [entry(f"e{i}", name) for i, name in enumerate(written)]))
    markdown = read_source(as_markdown(tmp_path, written), language="en")
    assert [e.name for e in toml.glossary] == [e.name for e in markdown.glossary]
    assert [e.name for e in toml.glossary] == ["weird name", "café au lait", "byte mark"]
    assert len(warnings_of(toml)) == len(warnings_of(markdown)) == 2


@pytest.mark.parametrize(
    "name",
    [
        "\u0645\u06cc\u200c\u0634\u0648\u062f",  # Persian: the non-joiner belongs between these letters
        "\u0915\u094d\u200d\u0937",  # Devanagari: a joiner asks for a half form
        "\u05e9\u05dc\u05d5\u05dd",  # Hebrew without marks
    ],
)
def test_joiners_stay_where_a_script_needs_them(name):
    assert clean_name(name) == (name, ())


def test_a_joiner_between_latin_letters_goes():
    assert clean_name("zero\u200dwidth") == ("zerowidth", ("\u200d",))


def test_a_name_of_invisible_characters_only_is_refused(tmp_path):
    with pytest.raises(GlossaryDataError) as caught:
        read_source(as_toml(tmp_path, [entry("x", "\u200b\u200f")]))
    assert str(caught.value).endswith("names.toml:4: entry 'x': field 'name': holds only invisible characters")


# -- look-alikes ---------------------------------------------------------------------------------

CYRILLIC_A = "\u0430"
GREEK_OMICRON = "\u03bf"


@pytest.mark.parametrize(
    ("real", "fake", "letter"),
    [
        ("attention mask", f"{CYRILLIC_A}ttention mask", "U+0430 (CYRILLIC SMALL LETTER A)"),
        ("token", f"t{GREEK_OMICRON}ken", "U+03BF (GREEK SMALL LETTER OMICRON)"),
        ("BERT", "\u0412\u0415RT", "U+0412 (CYRILLIC CAPITAL LETTER VE)"),
        ("attention", "attent\u0131on", "U+0131 (LATIN SMALL LETTER DOTLESS I)"),
        ("BERT", "\uff22\uff25\uff32\uff34", "U+FF22 (FULLWIDTH LATIN CAPITAL LETTER B)"),
        ("token", "\U0001d42d\U0001d428\U0001d424\U0001d41e\U0001d427", "U+1D42D (MATHEMATICAL BOLD SMALL T)"),
        ("logits", "\u217cogits", "U+217C (SMALL ROMAN NUMERAL FIFTY)"),
    ],
)
def test_a_look_alike_name_is_a_warning_naming_both(tmp_path, real, fake, letter):
    entries = [entry("real", real), entry("fake", fake)]
    toml = read_source(as_toml(tmp_path, entries))
    markdown = read_source(as_markdown(tmp_path, [real, fake]), language="en")
    for result in (toml, markdown):
        # (Markdown ids are slugs of compatibility-folded headings: a fullwidth copy also repeats an id)
        (warning,) = [warning for warning in warnings_of(result) if "looks like" in warning]
        assert f"the name {fake!r} looks like {real!r}" in warning and letter in warning
        assert "rename one of them" in warning


@pytest.mark.parametrize(
    "names",
    [
        ["GPT", "GPT-2", "GPT-J"],
        ["\u0627\u0644\u0646\u0645\u0648\u0630\u062c (LLM)", "LLM training", "\u0645\u0635\u0641\u0648\u0641\u0629"],
        ["\u03b1-divergence", "\u03b2-VAE", "beta schedule"],
        ["\u0442\u043e\u043a\u0435\u043d", "token"],  # Russian "token" is not drawn like the English word
        ["caf\u00e9", "cafe"],
    ],
)
def test_ordinary_names_and_mixed_scripts_in_separate_names_are_quiet(tmp_path, names):
    toml = read_source(as_toml(tmp_path, [entry(f"e{i}", name) for i, name in enumerate(names)]))
    assert warnings_of(toml) == []


@pytest.mark.parametrize("language", BUNDLED_LANGUAGES)
def test_the_bundled_glossaries_have_no_invisible_or_look_alike_names(language):
    found: list[tuple[int, str]] = []
    reference = None
    if language != "en":
        from sphinxcontrib_mlglossary.loader import bundled_glossary

        reference = bundled_glossary("en")
    parse_glossary(bundled_path(language).read_bytes(), bundled_path(language), reference=reference, warnings=found)
    assert found == []


def test_skeletons_compare_across_case():
    assert skeleton("\u0410TTENTION") == skeleton("attention")
    assert skeleton("\u0627\u0644\u0646\u0645\u0648\u0630\u062c") != skeleton("model")


def test_a_merged_file_imitating_a_bundled_name_is_a_build_warning(project, make_app):
    srcdir = project({"theirs.md": "# Theirs\n\n```{mlglossary}\n:source: theirs.toml\n:merge:\n```\n"})
    (srcdir / "theirs.toml").write_text(
        glossary_toml([entry("ttention-mask", f"{CYRILLIC_A}ttention mask")]), encoding="utf-8"
    )
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = [line for line in app.warning.getvalue().splitlines() if "looks like" in line]
    assert len(warnings) == 1
    assert "theirs.toml:4: entry 'ttention-mask'" in warnings[0]
    assert "of the bundled glossary's entry 'attention-mask'" in warnings[0] and "[mlglossary.data]" in warnings[0]
    assert read_html(Path(app.outdir) / "theirs.html").find(id="term-ttention-mask") is not None


# -- names and Sphinx's inventory ------------------------------------------------------------------

FORGING = "torch.Tensor py:class 1 //evil.example/phish torch.Tensor"


def inventory_items(path: Path) -> dict[str, set[str]]:
    """Type -> names, as another project's intersphinx reads them from ``objects.inv``."""
    from sphinx.util.inventory import InventoryFile

    with path.open("rb") as stream:
        inventory = InventoryFile.load(stream, "https://example.org", lambda base, uri: f"{base}/{uri}")
    data = getattr(inventory, "data", inventory)  # Sphinx 8.2 and later wrap the dict
    return {kind: set(items) for kind, items in data.items()}


@pytest.mark.parametrize("field", ["name", "aliases", "abbreviations"])
def test_a_name_forging_an_inventory_entry_is_refused(field, project, make_app):
    fields = {"name": FORGING} if field == "name" else {field: [FORGING]}
    data = glossary_toml([{**entry("forger", "forger"), **fields}, entry("honest", "honest")])
    srcdir = project({"theirs.md": "# Theirs\n\n```{mlglossary}\n:source: theirs.toml\n```\n"})
    (srcdir / "theirs.toml").write_text(data, encoding="utf-8")
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    warnings = [line for line in app.warning.getvalue().splitlines() if "[mlglossary.data]" in line]
    assert len(warnings) == 1, app.warning.getvalue()
    assert "theirs.toml:4: entry 'forger'" in warnings[0] and f"field {field!r}" in warnings[0]
    assert "as the py:class entry 'torch.Tensor'" in warnings[0]
    items = inventory_items(Path(app.outdir) / "objects.inv")
    assert set(items) <= {"std:doc", "std:label", "std:term"}, set(items)
    # (the bundled glossary has names such as torch.compile of its own: only the forged ones count)
    assert not any("evil" in name or "torch.Tensor" in name for names in items.values() for name in names)


@pytest.mark.parametrize("space", ["\u00a0", "\u2003", "\u3000"])
def test_other_spaces_forge_no_inventory_entry_either(space, tmp_path):
    """Inventory readers split on any Unicode space; names keep single ASCII spaces, then are checked."""
    forging = space.join(["torch.Tensor", "py:class", "1", "//evil.example/phish"])
    with pytest.raises(GlossaryDataError, match=r"as the py:class entry 'torch\.Tensor'"):
        parse_glossary(glossary_toml([entry("forger", forging)]), tmp_path / "g.toml")


def test_a_markdown_heading_forging_an_inventory_entry_is_refused(tmp_path):
    path = as_markdown(tmp_path, ["honest", FORGING])
    with pytest.raises(GlossaryDataError, match=r"as the py:class entry 'torch\.Tensor'"):
        read_source(path, language="en")


@pytest.mark.parametrize(
    "name",
    ["GPT-3", "Llama 2", "layer 12 attention", "top k 5 sampling", "cuantización a 4 bits", "input IDs"],
)
def test_names_with_numbers_that_forge_nothing_are_kept(name, tmp_path):
    glossary = parse_glossary(glossary_toml([entry("numbered", name)]), tmp_path / "g.toml")
    assert glossary.get("numbered").name == name


@pytest.mark.parametrize("language", BUNDLED_LANGUAGES)
def test_every_bundled_name_reads_back_from_the_inventory_as_itself_or_not_at_all(language, root_app):
    """Built and read back: no bundled name becomes another entry in objects.inv."""
    app = root_app("html", "basic-md", confoverrides={"language": language})
    app.build()
    items = inventory_items(Path(app.outdir) / "objects.inv")
    assert set(items) <= {"std:doc", "std:label", "std:term"}, set(items)
