"""schema.org JSON-LD on glossary pages: valid vocabulary, every entry shown, safely embedded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import ROOTS, TWIN_CITED, read_html
from .hostile_data import entry, glossary_toml
from .sphinx_process import quiet_build

# The vocabulary the JSON-LD may use, as schema.org defines it (schema.org/DefinedTerm and
# schema.org/DefinedTermSet, their tables of properties "from DefinedTerm", "from
# CreativeWork" and "from Thing"). Only the properties we have a use for are listed: a
# property outside this list fails the test even if schema.org has it, so a new one is
# checked against schema.org before it is added here.
#   DefinedTerm < Intangible < Thing: about, inDefinedTermSet, termCode; from Thing:
#   alternateName, description, identifier, name, sameAs, url. (DefinedTerm is no
#   CreativeWork, so it has no inLanguage: the language is the set's.)
#   DefinedTermSet < CreativeWork < Thing: hasDefinedTerm; from CreativeWork: inLanguage;
#   from Thing: description, identifier, name, url.
THING = {"name", "alternateName", "description", "identifier", "sameAs", "url"}
ALLOWED = {
    "DefinedTerm": THING | {"about", "inDefinedTermSet", "termCode"},
    "DefinedTermSet": THING | {"hasDefinedTerm", "inLanguage"},
}
#: keywords of JSON-LD itself, allowed on any node
KEYWORDS = {"@context", "@type", "@id"}


def term_sets(page: Path) -> list[dict]:
    """Every JSON-LD block of a page, parsed (the way a search engine's crawler reads them)."""
    soup = read_html(page)
    return [json.loads(script.string) for script in soup.select('script[type="application/ld+json"]')]


def assert_valid_vocabulary(data: dict) -> None:
    assert data["@context"] == "https://schema.org"
    assert set(data) - KEYWORDS <= ALLOWED["DefinedTermSet"], set(data) - KEYWORDS - ALLOWED["DefinedTermSet"]
    assert data["@type"] == "DefinedTermSet"
    for term in data["hasDefinedTerm"]:
        assert term["@type"] == "DefinedTerm"
        assert set(term) - KEYWORDS <= ALLOWED["DefinedTerm"], set(term) - KEYWORDS - ALLOWED["DefinedTerm"]
        assert term["inDefinedTermSet"] == {"@id": data["@id"]}
        assert all(isinstance(term[key], str) and term[key] for key in ("name", "description", "url", "termCode"))
        assert all(isinstance(name, str) and name for name in term.get("alternateName", []))


def summaries(outdir: Path) -> dict[str, str]:
    """Entry id -> summary as plain text, from the build's ``glossary.json``."""
    data = json.loads((outdir / "glossary.json").read_text(encoding="utf-8"))
    return {term["id"]: term["summary"]["text"] for term in data["terms"] if term["origin"] == "mlglossary"}


def assert_every_entry(data: dict, language: str, outdir: Path, url_prefix: str = "") -> None:
    """Each bundled entry once, with its names in this language and its summary as text."""
    texts = summaries(outdir)
    glossary = bundled_glossary(language)
    terms = {term["termCode"]: term for term in data["hasDefinedTerm"]}
    assert len(terms) == len(data["hasDefinedTerm"]) == len(glossary.entries)
    assert data["inLanguage"] == language
    for item in glossary:
        term = terms[item.id]
        assert term["name"] == item.name
        assert term.get("alternateName", []) == [name for name in item.names if name != item.name]
        assert term["url"] == term["@id"] == f"{url_prefix}#{item.anchor}"
        assert term["description"] == texts[item.id] != ""


@pytest.mark.parametrize(("root", "language"), [("basic-md", "en"), ("basic-rst", "es"), ("basic-md", "ar")])
def test_the_glossary_page_carries_a_valid_term_set_in_its_language(root_app, root, language):
    app = root_app("html", root, confoverrides={"language": language})
    app.build()
    assert "mlglossary" not in app.warning.getvalue()
    [data] = term_sets(app.outdir / "glossary.html")
    assert_valid_vocabulary(data)
    assert_every_entry(data, language, app.outdir)
    assert data["@id"] == "#mlglossary-terms" and "url" not in data  # relative: no html_baseurl
    assert data["name"] == app.env.titles["glossary"].astext()
    if language == "es":
        mask = next(term for term in data["hasDefinedTerm"] if term["termCode"] == "attention-mask")
        assert mask["name"] == "máscara de atención" and "attention mask" in mask["alternateName"]
    # no other page carries one
    assert term_sets(app.outdir / "guide.html") == []
    # glossary.json names the element that holds it
    linked = json.loads((app.outdir / "glossary.json").read_text(encoding="utf-8"))["structured_data"]
    assert linked == ["glossary.html#mlglossary-terms"]
    assert read_html(app.outdir / "glossary.html").find(id="mlglossary-terms").name == "script"


def test_parallel_build_gives_the_serial_term_set(tmp_path, built_root):
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-basic-md", src)
    out = tmp_path / "out"
    assert quiet_build(src, out, "-E", "-j", "2") == ""
    [parallel] = term_sets(out / "glossary.html")
    assert_valid_vocabulary(parallel)
    assert_every_entry(parallel, "en", out)
    assert parallel == term_sets(built_root("basic-md").outdir / "glossary.html")[0]


@pytest.mark.parametrize(
    ("builder", "page", "url_prefix", "element"),
    [
        ("dirhtml", "glossary/index.html", "https://example.org/docs/glossary/", "mlglossary-terms"),
        ("singlehtml", "index.html", "https://example.org/docs/index.html", "mlglossary-terms-glossary"),
    ],
)
def test_urls_are_absolute_under_html_baseurl(root_app, builder, page, url_prefix, element):
    app = root_app(builder, "basic-md", confoverrides={"html_baseurl": "https://example.org/docs/"})
    app.build()
    [data] = term_sets(app.outdir / page)
    assert_valid_vocabulary(data)
    assert_every_entry(data, "en", app.outdir, url_prefix)
    assert data["url"] == url_prefix and data["@id"] == f"{url_prefix}#{element}"
    assert read_html(app.outdir / page).find(id=element).name == "script"
    linked = json.loads((app.outdir / "glossary.json").read_text(encoding="utf-8"))["structured_data"]
    assert linked == [f"{url_prefix.removeprefix('https://example.org/docs/')}#{element}"]


@pytest.mark.parametrize("builder", ["epub", "latex", "text"])
def test_other_builders_carry_none(root_app, builder):
    # the page of the entries the twin cites: a term set of any page would show in the output
    app = root_app(builder, "basic-md", page=TWIN_CITED)
    app.build()
    written = "".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in app.outdir.rglob("*")
        if path.suffix in {".xhtml", ".tex", ".txt"}
    )
    assert written and "ld+json" not in written and "DefinedTerm" not in written


def test_a_closing_script_tag_in_a_summary_cannot_break_out(use_glossary, project, make_app):
    hostile = "Ends `</script><script>alert(1)</script>` here & <!-- there."
    use_glossary(glossary_toml([entry("breaker", "breaker", summary=hostile, aliases=["</script>x"])]))
    app = make_app("html", srcdir=project())
    app.build()
    text = (app.outdir / "glossary.html").read_text(encoding="utf-8")
    start = text.index('<script type="application/ld+json"')
    block = text[start : text.index("</script>", start)]
    assert "<" not in block.partition(">")[2] and "&" not in block.partition(">")[2]
    [data] = term_sets(app.outdir / "glossary.html")
    [term] = data["hasDefinedTerm"]
    assert term["description"] == "Ends </script><script>alert(1)</script> here & <!-- there."
    assert term["alternateName"] == ["</script>x"]
