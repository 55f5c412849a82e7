"""Auto-linking: which plain mentions become term links, on MyST and reST twins."""

from __future__ import annotations

import pytest

from sphinxcontrib_mlglossary.nodes import AUTOLINK

from .conftest import read_html, read_html_with_cards
from .test_backlinks import backlink_box

TWINS = ["autolink-md", "autolink-rst"]


def autolinks(app, page):
    """(text, href) of every auto-link on a page, in document order."""
    soup = read_html(app.outdir / f"{page}.html")
    body = soup.select_one("div.body") or soup
    return [(a.get_text(), a.get("href")) for a in body.select("a") if a.select_one(".mlglossary-autolink")]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each twin built once per mode (module-scoped: a build per test would be slow)."""
    import shutil
    from io import StringIO

    from sphinx.testing.util import SphinxTestApp

    from .conftest import ROOTS

    cache: dict = {}

    def factory(name, mode, **overrides):
        key = (name, mode, repr(sorted(overrides.items())))
        if key not in cache:
            srcdir = tmp_path_factory.mktemp(name) / "src"
            shutil.copytree(ROOTS / f"test-{name}", srcdir)
            app = SphinxTestApp(
                "html",
                srcdir=srcdir,
                freshenv=True,
                confoverrides={"mlglossary_autolink": mode, **overrides},
                status=StringIO(),
                warning=StringIO(),
            )
            try:
                app.build()
            finally:
                app.cleanup()  # unregisters our nodes before the next app registers them
            cache[key] = app
        return cache[key]

    return factory


@pytest.mark.parametrize("name", TWINS)
def test_prose_mentions_are_linked_with_the_writers_text(built, name):
    app = built(name, "all")
    assert autolinks(app, "rules") == [
        ("attention mask", "glossary.html#term-attention-mask"),
        ("attention masks", "glossary.html#term-attention-mask"),
        ("LLMs", "glossary.html#term-large-language-models"),
        ("ZeRO’s", "glossary.html#term-zero-redundancy-optimizer"),  # smart quotes turn ' into ’
        ("Masked language modeling", "glossary.html#term-masked-language-modeling"),  # longest match wins
        ("transformer", "glossary.html#term-transformer"),  # admonition body
        ("convolution", "glossary.html#term-convolution"),  # table cell
        ("channel", "glossary.html#term-channel"),  # footnote text
    ]
    assert not app._warning.getvalue()


@pytest.mark.parametrize("name", TWINS)
def test_never_inside_code_math_headings_links_roles_or_glossaries(built, name):
    app = built(name, "all")
    soup = read_html(app.outdir / "rules.html")
    for selector in ("code", "pre", "h1", "h2", "p.rubric", "dl.glossary", "span.math", "div.math"):
        for element in soup.select(selector):
            assert not element.select(".mlglossary-autolink"), (selector, element)
    texts = [text for text, _href in autolinks(app, "rules")]
    for never in ("backbone", "pooling", "inference", "pipeline", "stride", "language modeling"):
        assert never not in texts
    # the explicit role keeps its own text and target
    explicit = [a for a in soup.select("a") if a.get_text() == "the stride"]
    assert [a["href"] for a in explicit] == ["glossary.html#term-stride"]
    # the link written by the author keeps its target
    assert [a["href"] for a in soup.select("a") if a.get_text() == "backbone"] == ["scopes.html"]


@pytest.mark.parametrize("name", TWINS)
def test_never_in_captions_gui_labels_field_lists_table_heads_compounds_or_file_names(built, name):
    app = built(name, "all")
    assert autolinks(app, "contexts") == [("attention mask", "glossary.html#term-attention-mask")]
    soup = read_html(app.outdir / "contexts.html")
    assert "Only this sentence" in soup.select_one(".mlglossary-autolink").find_parent("p").get_text()
    # each context is really on the page, and rendered as the parser makes it
    for selector in (".caption-text", ".guilabel", ".menuselection", "kbd", "dl.field-list", "thead"):
        element = soup.select_one(selector)
        assert element is not None, selector
    assert not app._warning.getvalue()


@pytest.mark.parametrize("name", TWINS)
def test_nothing_on_a_page_holding_the_projects_own_glossary(built, name):
    app = built(name, "all")
    soup = read_html(app.outdir / "terms.html")
    assert "attention mask mentioned here" in soup.get_text()
    assert autolinks(app, "terms") == []


@pytest.mark.parametrize("name", TWINS)
def test_whole_words_and_exact_spelling_of_abbreviations(built, name):
    app = built(name, "all")
    assert autolinks(app, "words") == [
        ("token", "glossary.html#term-token"),
        ("DP", "glossary.html#term-dataparallel"),
        ("Tensor parallelism", "glossary.html#term-tensor-parallelism"),
    ]


@pytest.mark.parametrize("name", TWINS)
@pytest.mark.parametrize(("mode", "count"), [("first", 1), ("section", 3), ("all", 5)])
def test_scope_of_first_mention(built, name, mode, count):
    app = built(name, mode)
    assert [text for text, _ in autolinks(app, "scopes")] == ["token"] * count


@pytest.mark.parametrize("name", TWINS)
def test_first_mode_skips_terms_the_page_cites_explicitly(built, name):
    app = built(name, "first")
    texts = [text for text, _ in autolinks(app, "rules")]
    assert "attention mask" in texts and "attention masks" not in texts  # one per page
    assert "stride" not in texts


@pytest.mark.parametrize("name", TWINS)
def test_glossary_page_and_opted_out_page_are_untouched(built, name):
    app = built(name, "all")
    assert autolinks(app, "glossary") == []
    assert autolinks(app, "optout") == []
    assert autolinks(app, "index") == [("pipeline", "glossary.html#term-pipeline")]


@pytest.mark.parametrize("name", TWINS)
def test_off_leaves_the_doctree_untouched(built, name):
    app = built(name, False)
    for docname in app.env.found_docs:
        doctree = app.env.get_doctree(docname)
        assert not [n for n in doctree.findall() if getattr(n, "get", None) and n.get(AUTOLINK)]
    assert all(autolinks(app, page) == [] for page in ("rules", "scopes", "words", "index"))


def test_excluded_entries_are_not_linked(built):
    app = built("autolink-md", "all", mlglossary_autolink_exclude=["token", "LLM"])
    assert [text for text, _ in autolinks(app, "scopes")] == []
    texts = [text for text, _ in autolinks(app, "rules")]
    assert "LLMs" not in texts and "attention mask" in texts


def test_autolinks_get_tooltips_but_not_backlinks_by_default(built):
    app = built("autolink-md", "first")
    soup = read_html_with_cards(app.outdir / "index.html")
    link = next(a for a in soup.select("a") if a.select_one(".mlglossary-autolink"))
    assert "mlglossary-term" in link["class"]
    card = soup.select_one(f'.mlglossary-card[data-mlglossary-href="{link["href"]}"]')
    assert card is not None and "pipeline" in card.get_text()
    assert link["title"]  # the no-script fallback
    glossary = read_html(app.outdir / "glossary.html")
    assert backlink_box(glossary, "term-pipeline") is None  # only auto-linked
    assert backlink_box(glossary, "term-stride") is not None  # cited with {term}


def test_autolinks_count_as_citations_when_asked(built):
    app = built("autolink-md", "first", mlglossary_autolink_backlinks=True)
    glossary = read_html(app.outdir / "glossary.html")
    hrefs = [a["href"] for a in backlink_box(glossary, "term-pipeline").select("a")]
    assert hrefs == ["index.html#mlglossary-cite-index-0"]
    assert read_html(app.outdir / "index.html").find(id="mlglossary-cite-index-0") is not None


def test_autolinks_carry_no_citation_ids_when_not_counted(built):
    # nothing lands on them: "Cited in" and glossary.json leave auto-links out by default
    app = built("autolink-md", "first")
    page = read_html(app.outdir / "index.html")
    autolinks = [a for a in page.select("a") if a.select_one(".mlglossary-autolink")]
    assert autolinks and not [a for a in autolinks if a.get("id")]


def test_bad_mode_is_a_config_warning(make_app, tmp_path):
    (tmp_path / "conf.py").write_text('extensions = ["sphinxcontrib_mlglossary"]\nmlglossary_autolink = "sometimes"\n')
    (tmp_path / "index.rst").write_text("Title\n=====\n\nThe token.\n")
    app = make_app("html", srcdir=tmp_path, freshenv=True)
    app.build()
    assert "mlglossary_autolink = 'sometimes' is not one of" in app._warning.getvalue()
    assert "[mlglossary.config]" in app._warning.getvalue()


def test_parallel_build_matches_serial_with_autolinks(tmp_path):
    from .sphinx_process import quiet_build
    from .test_parallel import assert_same_output, backlinks, clean_build, write_project

    src = tmp_path / "src"
    write_project(src)
    with (src / "conf.py").open("a") as conf:
        conf.write(
            'mlglossary_autolink = "section"\nmlglossary_autolink_backlinks = True\nmlglossary_backlinks_max = 20\n'
            'mlglossary_autolink_include = ["pipeline"]\n'
        )
    for n in range(14):
        with (src / f"page{n:02d}.md").open("a") as page:
            page.write("\nPlain prose about the pipeline, pooling and large language models.\n")
    serial = clean_build(src, tmp_path, "serial")
    parallel = tmp_path / "parallel"
    assert quiet_build(src, parallel, "-E", "-j", "2") == ""
    assert_same_output(serial, parallel)
    assert len(backlinks(serial, "term-pipeline")) == 14
    assert read_html(parallel / "page05.html").select(".mlglossary-autolink")


def test_spanish_plurals_and_names(make_app, tmp_path):
    (tmp_path / "conf.py").write_text(
        'extensions = ["sphinxcontrib_mlglossary"]\nlanguage = "es"\nmlglossary_autolink = "all"\n'
        # the names the data links anyway; in this ML paragraph the context rule would link
        # "tokenizador" too (tests/test_autolink_context.py)
        "mlglossary_autolink_context = 0\n"
    )
    (tmp_path / "index.rst").write_text(
        "Inicio\n======\n\n.. toctree::\n\n   glosario\n\n"
        "Las máscaras de atención y los modelos preentrenados; la retropropagación, no el tokenizador.\n"
        "El attention mask también, en inglés.\n"
    )
    (tmp_path / "glosario.rst").write_text("Glosario\n========\n\n.. mlglossary::\n")
    app = make_app("html", srcdir=tmp_path, freshenv=True)
    app.build()
    links = [
        (a.get_text(), a["href"])
        for a in read_html(app.outdir / "index.html").select("a")
        if a.select_one(".mlglossary-autolink")
    ]
    assert links == [
        ("máscaras de atención", "glosario.html#term-attention-mask"),
        ("modelos preentrenados", "glosario.html#term-pretrained-model"),
        ("retropropagación", "glosario.html#term-backpropagation"),
        ("attention mask", "glosario.html#term-attention-mask"),
    ]
    assert not app._warning.getvalue()


def test_everyday_single_words_wait_for_the_writer_by_default(built):
    app = built("autolink-md", "all", mlglossary_autolink_include=[])
    assert autolinks(app, "scopes") == []  # "token" is everyday (an access token, a bus token)
    assert autolinks(app, "index") == []  # so is "pipeline"
    texts = [text for text, _ in autolinks(app, "rules")]
    assert "transformer" not in texts and "channel" not in texts
    assert "transformer" not in texts and "convolution" not in texts  # signal processing has convolutions
    assert "attention mask" in texts and "LLMs" in texts  # several words; an abbreviation as written


def test_a_project_opts_words_in_by_name_or_entry_id(make_app, tmp_path):
    (tmp_path / "conf.py").write_text(
        'extensions = ["sphinxcontrib_mlglossary"]\nmlglossary_autolink = "all"\n'
        'mlglossary_autolink_include = ["labels", "image-patch", "tokn"]\n'
        'mlglossary_autolink_exclude = ["attention mask", "nothing at all"]\n'
    )
    (tmp_path / "index.rst").write_text(
        "Title\n=====\n\n.. toctree::\n\n   glossary\n\n"
        "The labels of each patch, and the attention mask; Patch at a sentence start stays a word.\n"
    )
    (tmp_path / "glossary.rst").write_text("Glossary\n========\n\n.. mlglossary::\n")
    app = make_app("html", srcdir=tmp_path, freshenv=True)
    app.build()
    assert autolinks(app, "index") == [
        ("labels", "glossary.html#term-labels"),
        ("patch", "glossary.html#term-image-patch"),
    ]
    warnings = app._warning.getvalue()
    assert (
        "mlglossary_autolink_include: 'tokn' names no entry of the glossary; it is ignored; did you mean 'token'?"
        in warnings
    )
    assert "mlglossary_autolink_exclude: 'nothing at all' names no entry of the glossary" in warnings
    assert warnings.count("[mlglossary.config]") == 2
