"""glossary.json: written beside objects.inv on HTML builds, valid against its schema."""

from __future__ import annotations

import json

import jsonschema
import pytest

from sphinxcontrib_mlglossary.glossary_json import SCHEMA_PATH
from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import TWIN_CITED, ids_of, read_html
from .sphinx_process import quiet_build

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def load(app):
    return json.loads((app.outdir / "glossary.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("builder", "glossary_url", "citation_url"),
    [
        ("html", "glossary.html#term-attention-mask", "index.html#mlglossary-cite-index-0"),
        ("dirhtml", "glossary/#term-attention-mask", "#mlglossary-cite-index-0"),
        ("singlehtml", "index.html#term-attention-mask", "index.html#mlglossary-cite-index-0"),
    ],
)
def test_schema_urls_and_backlinks(root_app, builder, glossary_url, citation_url):
    app = root_app(builder, "tooltips")
    app.build()
    data = load(app)
    jsonschema.validate(data, SCHEMA)
    assert (app.outdir / "objects.inv").exists()
    assert data["version"] == 1 and data["language"] == "en"
    terms = {term["id"]: term for term in data["terms"]}
    assert len([t for t in data["terms"] if t["origin"] == "mlglossary"]) == len(bundled_glossary("en"))
    mask = terms["attention-mask"]
    assert mask["url"] == glossary_url
    assert mask["summary"]["text"].startswith("An optional model input")
    assert "<code" in mask["summary"]["html"]  # inline formatting kept
    assert "<script" not in json.dumps(data)
    assert mask["backlinks"][0]["url"] == citation_url
    assert mask["backlinks"][0]["page"] == "index" and mask["backlinks"][0]["count"] >= 1
    # the project's own glossary terms are listed too
    assert terms["savepoint"]["origin"] == "project"


def test_backlinks_match_the_glossary_page(built_root):
    app = built_root("basic-md")
    data = load(app)
    ids = ids_of(read_html(app.outdir / "glossary.html"))
    for term in data["terms"]:
        anchor = term["url"].partition("#")[2]
        box = ids[anchor].find_next_sibling("dd").select_one("div.mlglossary-backlinks")
        shown = [a["href"] for a in box.select("li > p > a")] if box else []
        assert shown == [link["url"] for link in term["backlinks"]], term["id"]


def test_summary_links_resolve_from_the_output_root(built_root):
    app = built_root("basic-md", "dirhtml")
    terms = {term["id"]: term for term in load(app)["terms"]}
    linked = [t for t in terms.values() if "<a " in t["summary"]["html"]]
    assert linked, "some bundled summaries cite other terms"
    for term in linked:
        soup = read_html_fragment(term["summary"]["html"])
        for a in soup.select("a"):
            assert a["href"].startswith("glossary/#term-"), a["href"]


def read_html_fragment(html):
    from bs4 import BeautifulSoup

    return BeautifulSoup(html, "html.parser")


@pytest.mark.parametrize("builder", ["epub", "text", "latex"])
def test_not_written_by_other_builders(root_app, builder):
    # the page of the entries the twin cites: any glossary page would be written to the file
    app = root_app(builder, "basic-md", page=TWIN_CITED)
    app.build()
    assert not (app.outdir / "glossary.json").exists()


def test_spanish_build_writes_spanish_names(root_app):
    app = root_app("html", "basic-md", confoverrides={"language": "es"})
    app.build()
    data = load(app)
    jsonschema.validate(data, SCHEMA)
    terms = {term["id"]: term for term in data["terms"]}
    assert data["language"] == "es"
    assert terms["attention-mask"]["name"] == "máscara de atención"
    assert "attention mask" in terms["attention-mask"]["aliases"]


def test_terms_say_which_names_auto_link_in_this_build(root_app, built_root):
    overrides = {
        "mlglossary_autolink": "first",
        "mlglossary_autolink_include": ["batch-size", "patch"],
        "mlglossary_autolink_exclude": ["MLM"],
    }
    app = root_app("html", "basic-md", confoverrides=overrides)
    app.build()
    data = load(app)
    jsonschema.validate(data, SCHEMA)
    terms = {term["id"]: term for term in data["terms"]}
    assert terms["attention-mask"]["autolink"] == ["attention mask"]
    assert terms["image-patch"]["autolink"] == ["image patch", "patch"]  # "patch" opted in by name
    assert terms["labels"]["autolink"] == []  # an everyday word
    assert terms["batch-size"]["autolink"] == ["batch size", "batch", "mini-batch"]  # opted in by id
    assert terms["masked-language-modeling"]["autolink"] == []  # excluded
    off = built_root("basic-md")
    assert all(term.get("autolink", []) == [] for term in load(off)["terms"])


def test_unused_report_is_one_info_line(root_app):
    app = root_app("html", "basic-md", confoverrides={"mlglossary_report_unused": True})
    app.build()
    status = app._status.getvalue()
    lines = [line for line in status.splitlines() if "glossary entries are cited by no page" in line]
    assert len(lines) == 1
    assert "backbone" in lines[0] and "attention mask," not in lines[0]
    assert "unused_term" not in app._warning.getvalue()


def test_unused_report_as_a_warning(root_app):
    app = root_app("html", "basic-md", confoverrides={"mlglossary_report_unused": "warning"})
    app.build()
    warnings = app._warning.getvalue()
    assert warnings.count("cited by no page") == 1
    assert "[mlglossary.unused_term]" in warnings


def test_unused_report_off_by_default(built_root):
    app = built_root("basic-md")
    assert "cited by no page" not in app._status.getvalue() + app._warning.getvalue()


def test_incremental_builds_rewrite_the_file_only_when_its_inputs_change(tmp_path):
    import shutil

    from .conftest import ROOTS

    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-basic-md", src)
    out, clean = tmp_path / "out", tmp_path / "clean"

    def build(target, *extra):
        assert quiet_build(src, target, *extra) == ""

    build(out)
    written = (out / "glossary.json").stat().st_mtime_ns
    (src / "guide.md").write_text((src / "guide.md").read_text() + "\nPlain words, no citation.\n")
    build(out)
    assert (out / "glossary.json").stat().st_mtime_ns == written  # nothing it shows changed
    (src / "guide.md").write_text((src / "guide.md").read_text() + "\nNow citing {term}`ZeRO` again.\n")
    build(out)
    build(clean, "-E")
    assert (out / "glossary.json").read_text() == (clean / "glossary.json").read_text()
    assert (out / "glossary.json").stat().st_mtime_ns != written
