"""Glossaries from the project's own files: ``:source:``, ``:merge:`` and ``mlglossary_sources``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import inventory_terms, read_html, read_html_with_cards
from .sphinx_process import quiet_build

FIXTURES = Path(__file__).parent / "fixtures" / "transformers_md"

OWN_TOML = """format = 1
language = "en"

[[term]]
id = "attention-mask"
name = "attention mask"
summary = "Our own summary of the attention mask."
body = "A body written for this project."
tags = ["inputs"]

[[term]]
id = "warmup"
name = "warmup"
abbreviations = ["WU"]
summary = "A few steps at a small learning rate before the real schedule starts."
body = "Warmup keeps the first updates small. See {term}`attention mask` for something unrelated."
tags = ["training"]
"""


def project(tmp_path: Path, glossary_page: str, *, conf: str = "", files: dict[str, str] | None = None) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\n' + conf)
    (src / "index.md").write_text(
        "# Home\n\n```{toctree}\nguide\nglossary\n```\n\nCites the {term}`attention mask` and the {term}`warmup`.\n"
    )
    (src / "guide.md").write_text("# Guide\n\n## Batching\n\nThe {term}`attention mask` again, and {term}`WU`.\n")
    (src / "glossary.md").write_text(glossary_page)
    for name, text in (files or {}).items():
        path = src / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return src


def glossary_directive(*options: str) -> str:
    return "# Glossary\n\n```{mlglossary}\n" + "".join(f"{option}\n" for option in options) + "```\n"


def build(make_app, src: Path, **kwargs):
    app = make_app("html", srcdir=src, freshenv=True, **kwargs)
    app.build()
    return app


def card_text(app, page: str, anchor: str) -> str:
    soup = read_html_with_cards(app.outdir / f"{page}.html")
    card = soup.select_one(f'.mlglossary-card[data-mlglossary-href="glossary.html#{anchor}"]')
    assert card is not None, f"no card for {anchor} on {page}"
    return card.get_text(" ", strip=True)


def test_source_file_relative_to_the_page(make_app, tmp_path):
    src = project(tmp_path, glossary_directive(":source: data/own.toml"), files={"data/own.toml": OWN_TOML})
    app = build(make_app, src)
    assert app._warning.getvalue() == ""
    glossary = read_html(app.outdir / "glossary.html")
    assert [dt["id"] for dt in glossary.select("dl.glossary > dt")] == ["term-attention-mask", "term-warmup"]
    assert "Our own summary" in card_text(app, "guide", "term-attention-mask")
    assert "small learning rate" in card_text(app, "guide", "term-warmup")
    # backlinks and intersphinx work for the file's terms as for the bundled ones
    box = glossary.find(id="term-warmup").find_next_sibling("dd").select_one(".mlglossary-backlinks")
    assert [a["href"] for a in box.select("li > p > a")] == [
        "index.html#mlglossary-cite-index-1",
        "guide.html#mlglossary-cite-guide-1",
    ]
    terms = inventory_terms(app.outdir / "objects.inv")
    assert {"warmup", "WU", "attention mask"} <= set(terms)
    assert "bert" not in " ".join(terms).lower()  # the bundled glossary is not shown


def test_merge_puts_the_file_on_top_of_the_bundled_glossary(make_app, tmp_path):
    src = project(tmp_path, glossary_directive(":source: own.toml", ":merge:"), files={"own.toml": OWN_TOML})
    app = build(make_app, src)
    assert app._warning.getvalue() == ""
    ids = [dt["id"] for dt in read_html(app.outdir / "glossary.html").select("dl.glossary > dt")]
    assert (
        len(ids) == len(bundled_glossary("en")) + 1 and "term-warmup" in ids and "term-zero-redundancy-optimizer" in ids
    )
    assert "Our own summary" in card_text(app, "index", "term-attention-mask")  # the file's entry wins


def test_transformers_markdown_file_is_imported(make_app, tmp_path):
    src = project(
        tmp_path,
        glossary_directive(":source: hf.md"),
        conf='exclude_patterns = ["hf.md"]  # a glossary file, not a page\n',
        files={"hf.md": (FIXTURES / "glossary_en.md").read_text(encoding="utf-8")},
    )
    (src / "index.md").write_text(
        "# Home\n\n```{toctree}\nguide\nglossary\n```\n\nCites {term}`CTC` and {term}`input IDs`.\n"
    )
    (src / "guide.md").write_text("# Guide\n\nThe {term}`attention masks`.\n")
    app = build(make_app, src)
    assert app._warning.getvalue() == ""
    status = app._status.getvalue()
    # the importer's notes are info lines, given once although three pages use the file
    assert status.count("relative links were kept as plain text") == 1
    glossary = read_html(app.outdir / "glossary.html")
    assert glossary.find(id="term-connectionist-temporal-classification") is not None
    assert "tokenizer turns text into" in card_text(app, "index", "term-input-ids")
    assert "real tokens" in card_text(app, "guide", "term-attention-mask")


def test_configured_source_by_name(make_app, tmp_path):
    src = project(
        tmp_path,
        glossary_directive(":source: ours"),
        conf='mlglossary_sources = {"ours": "glossaries/own.toml"}\n',
        files={"glossaries/own.toml": OWN_TOML},
    )
    app = build(make_app, src)
    assert app._warning.getvalue() == ""
    assert "small learning rate" in card_text(app, "index", "term-warmup")


@pytest.mark.parametrize(
    ("option", "files", "expected"),
    [
        (":source: missing.toml", {}, "no such glossary file"),
        (
            ":source: broken.toml",
            {"broken.toml": "format = 1\nlanguage = 'en'\n[[term]]\nid = 3\nname = 'x'\nsummary = 's'\nbody = 'b'\n"},
            "broken.toml",
        ),
        (":source: empty.md", {"empty.md": ""}, "empty.md"),
    ],
)
def test_bad_source_is_one_clear_warning(make_app, tmp_path, option, files, expected):
    # a Markdown glossary among the pages is also built as one (a warning of its own): keep it out
    conf = "exclude_patterns = ['empty.md']\n" if "empty.md" in files else ""
    src = project(tmp_path, glossary_directive(option), conf=conf, files=files)
    app = build(make_app, src)
    warnings = app._warning.getvalue()
    assert "Traceback" not in warnings
    data = [line for line in warnings.splitlines() if "[mlglossary.data]" in line]
    assert len(data) == 1 and expected in data[0] and "glossary.md" in data[0]


def test_every_problem_of_a_source_file_is_its_own_warning(make_app, tmp_path):
    """A build reports what ``check`` reports: each problem once, naming file, line and entry."""
    broken = OWN_TOML.replace('summary = "Our own', 'sumary = "Our own').replace(
        'abbreviations = ["WU"]', 'abbreviations = "WU"'
    )
    src = project(tmp_path, glossary_directive(":source: own.toml"), files={"own.toml": broken})
    app = build(make_app, src)
    data = [line for line in app._warning.getvalue().splitlines() if "[mlglossary.data]" in line]
    own = src / "own.toml"
    assert len(data) == 2, data
    assert all("glossary.md" in line and "mlglossary :source: own.toml" in line for line in data)
    assert f"{own}:4: entry 'attention-mask': unknown field 'sumary' (did you mean 'summary'?)" in data[0]
    assert f"{own}:11: entry 'warmup': field 'abbreviations': must be a list of non-empty strings" in data[1]


def test_a_misspelt_tag_in_a_source_file_is_a_warning_with_its_spelling(make_app, tmp_path):
    src = project(
        tmp_path,
        glossary_directive(":source: own.toml"),
        files={"own.toml": OWN_TOML.replace('tags = ["training"]', 'tags = ["trainng"]')},
    )
    app = build(make_app, src)
    data = [line for line in app._warning.getvalue().splitlines() if "[mlglossary.data]" in line]
    assert len(data) == 1
    assert "entry 'warmup': field 'tags': no other entry has the tag 'trainng'; did you mean 'training'?" in data[0]
    assert "small learning rate" in card_text(app, "index", "term-warmup")  # the file is used


def test_merge_without_source_is_reported(make_app, tmp_path):
    src = project(tmp_path, glossary_directive(":merge:"))
    app = build(make_app, src)
    assert "needs :source:" in app._warning.getvalue()


def test_editing_the_file_rewrites_citing_pages(tmp_path):
    src = project(tmp_path, glossary_directive(":source: own.toml"), files={"own.toml": OWN_TOML})
    out = tmp_path / "out"

    def sphinx_build(*extra: str) -> None:
        assert quiet_build(src, out, *extra) == ""

    sphinx_build()
    (src / "own.toml").write_text(OWN_TOML.replace("Our own summary", "A revised summary"))
    sphinx_build()
    guide = read_html_with_cards(out / "guide.html").select_one(
        '.mlglossary-card[data-mlglossary-href="glossary.html#term-attention-mask"]'
    )
    assert "A revised summary" in guide.get_text()
    # and the result equals a clean build
    clean = tmp_path / "clean"
    shutil.rmtree(clean, ignore_errors=True)
    quiet_build(src, clean, "-E")
    from .test_parallel import assert_same_output

    assert_same_output(clean, out)


def test_link_base_makes_relative_links_absolute(make_app, tmp_path):
    src = project(
        tmp_path,
        glossary_directive(":source: hf.md"),
        conf='exclude_patterns = ["hf.md"]\nmlglossary_link_base = "https://docs.example.org/en"\n',
        files={"hf.md": (FIXTURES / "glossary_en.md").read_text(encoding="utf-8")},
    )
    (src / "index.md").write_text("# Home\n\n```{toctree}\nguide\nglossary\n```\n")
    (src / "guide.md").write_text("# Guide\n\nThe {term}`DP`.\n")
    app = build(make_app, src)
    assert app._warning.getvalue() == ""
    hrefs = [a["href"] for a in read_html(app.outdir / "glossary.html").select("a.reference.external")]
    assert "https://docs.example.org/en/perf_train_gpu_many#dataparallel" in hrefs


def test_parallel_build_with_a_source_file_matches_serial(tmp_path):
    from .test_parallel import assert_same_output, clean_build

    src = project(tmp_path, glossary_directive(":source: own.toml", ":merge:"), files={"own.toml": OWN_TOML})
    for n in range(8):
        (src / f"extra{n}.md").write_text(
            f"---\norphan: true\n---\n# Extra {n}\n\nThe {{term}}`warmup` and {{term}}`MLM`.\n"
        )
    serial = clean_build(src, tmp_path, "serial")
    parallel = tmp_path / "parallel"
    assert quiet_build(src, parallel, "-E", "-j", "2") == ""
    assert_same_output(serial, parallel)
    assert (
        "small learning rate"
        in read_html_with_cards(parallel / "extra5.html").select_one(".mlglossary-card").get_text()
    )


def test_a_source_naming_an_entry_otherwise_still_takes_its_abbreviation(make_app, tmp_path):
    """``{term}`MLM``` is made canonical for the bundled glossary ("masked language
    modeling"); a ``:source:`` file calling that entry something else must still receive
    the citation, written plainly or behind an explicit title."""
    own = """format = 1
language = "en"

[[term]]
id = "masked-language-modeling"
name = "masked token prediction"
abbreviations = ["MLM"]
summary = "Predicting hidden tokens from the ones around them."
body = "Some tokens of the input are hidden and the model learns to fill them in."
"""
    src = project(tmp_path, glossary_directive(":source: own.toml"), files={"own.toml": own})
    (src / "index.md").write_text("# Home\n\n```{toctree}\nguide\nglossary\n```\n")
    (src / "guide.md").write_text("# Guide\n\nThe {term}`MLM` objective, also {term}`named so <MLM>`.\n")
    app = build(make_app, src)
    assert app._warning.getvalue() == ""
    paragraph = next(p for p in read_html(app.outdir / "guide.html").select("p") if "objective" in p.get_text())
    assert [(a.get_text(), a["href"]) for a in paragraph.select("a.reference")] == [
        ("MLM", "glossary.html#term-masked-language-modeling"),
        ("named so", "glossary.html#term-masked-language-modeling"),
    ]
