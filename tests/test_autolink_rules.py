"""Auto-linking rules learnt on real documentation: names are whole, invisible text is not
prose, and phrases (for the project or one page) can be left alone. rST and MyST twins."""

from __future__ import annotations

from io import StringIO

import pytest

from sphinxcontrib_mlglossary.name_runs import part_of_longer_name

from .conftest import build_html_quietly, read_html

FORMATS = ["rst", "md"]


def _heading(fmt: str, text: str, level: int) -> str:
    if fmt == "md":
        return f"{'#' * level} {text}\n\n"
    return f"{text}\n{'=-~'[level - 1] * len(text)}\n\n"


def _metadata(fmt: str, fields: dict[str, str]) -> str:
    if not fields:
        return ""
    if fmt == "md":
        return "---\n" + "".join(f"{key}: {value}\n" for key, value in fields.items()) + "---\n\n"
    return "".join(f":{key}: {value}\n" for key, value in fields.items()) + "\n"


def build(tmp_path, fmt: str, sections: list[tuple[str, str]], language: str = "en", meta=None, **conf):
    """Build one page (``sections``: (heading, body), bodies written in the format's syntax).

    Returns (auto-links as (text, target id), warnings).
    """

    src = tmp_path / f"{fmt}-src"
    src.mkdir()
    settings = {"language": language, "mlglossary_autolink": "first", **conf}
    extensions = ["myst_parser", "sphinxcontrib_mlglossary"] if fmt == "md" else ["sphinxcontrib_mlglossary"]
    (src / "conf.py").write_text(
        f"extensions = {extensions!r}\n" + "".join(f"{key} = {value!r}\n" for key, value in settings.items()),
        encoding="utf-8",
    )
    toctree = "```{toctree}\npage\nglossary\n```\n" if fmt == "md" else ".. toctree::\n\n   page\n   glossary\n"
    (src / f"index.{fmt}").write_text(_heading(fmt, "Home", 1) + toctree, encoding="utf-8")
    directive = "```{mlglossary}\n```\n" if fmt == "md" else ".. mlglossary::\n"
    (src / f"glossary.{fmt}").write_text(_heading(fmt, "Glossary", 1) + directive, encoding="utf-8")
    page = _metadata(fmt, meta or {}) + _heading(fmt, "Page", 1)
    page += "".join(_heading(fmt, title, 2) + body + "\n\n" for title, body in sections)
    (src / f"page.{fmt}").write_text(page, encoding="utf-8")
    app, warning_text = build_html_quietly(src)
    soup = read_html(app.outdir / "page.html")
    links = [
        (" ".join(a.get_text().split()), a["href"].rsplit("#term-", 1)[1])
        for a in soup.select("a")
        if a.select_one(".mlglossary-autolink")
    ]
    return links, warning_text


# -- names are whole ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "mention"),
    [
        ("Load your fine-tuned Sparse Encoder models from the hub.", "Encoder models"),  # product name
        ("Sparse Encoder models are trained like the others.", "Encoder models"),  # at a sentence start too
        ("Fully Sharded Data Parallelism (FSDP) shards the weights.", "Data Parallelism"),
        ("Open the Comet Hyperparameters tab to compare runs.", "Hyperparameters"),  # a UI label
        ("Compare runs in the Hyperparameters Panel.", "Hyperparameters"),  # a run after the mention
        ("The Open LLM Leaderboard ranks models.", "LLM"),  # an acronym inside a name
        ("Read the Guide to Attention Masks Explained.", "Attention Masks"),  # a title in Title Case
        ("Hugging Face LLM tooling is new.", "LLM"),
        ("The Acme inference Server runs models.", "inference Server"),  # a product name cased unevenly
    ],
)
def test_a_piece_of_a_longer_name_is_part_of_it(text, mention):
    start = text.index(mention)
    assert part_of_longer_name(text, start, start + len(mention), "en")


@pytest.mark.parametrize(
    ("text", "mention", "language"),
    [
        ("Encoder models map a sentence to vectors.", "Encoder models", "en"),  # sentence start
        ("The Encoder models of this library map text.", "Encoder models", "en"),  # "The" is grammar
        ("Train it. Encoder models then map text.", "Encoder models", "en"),
        ("An LLM generates text.", "LLM", "en"),
        ("Use an LLM (a large model) here.", "LLM", "en"),
        ("The DPO objective needs pairs: LLM outputs.", "LLM", "en"),  # punctuation ends a run
        ("Each LLM API call costs money.", "LLM", "en"),  # an acronym after it is no title
        ("tune the hyperparameters before training.", "hyperparameters", "en"),  # lower case
        ("The Acme inference server runs models.", "inference server", "en"),  # lower case after a name
        ("Cada LLM genera texto.", "LLM", "es"),  # "Cada" is grammar
        ("يستخدم PyTorch قناع الانتباه هنا.", "قناع الانتباه", "ar"),  # Arabic has no capitals
    ],
)
def test_a_term_on_its_own_is_not(text, mention, language):
    start = text.index(mention)
    assert not part_of_longer_name(text, start, start + len(mention), language)


@pytest.mark.parametrize("fmt", FORMATS)
def test_pieces_of_product_names_and_ui_labels_are_left_and_use_up_nothing(tmp_path, fmt):
    links, warnings = build(
        tmp_path,
        fmt,
        [
            (
                "Models",
                "Your fine-tuned Sparse Encoder model ranks well. Fully Sharded Data Parallelism (FSDP) shards it. "
                "The Comet Hyperparameters tab shows the runs. SparseEncoder is the class.",
            ),
            ("Plain", "Encoder models map text to vectors, and we tune the hyperparameters with data parallelism."),
        ],
    )
    assert links == [
        ("FSDP", "fully-sharded-data-parallel"),
        ("Encoder models", "encoder-models"),
        ("hyperparameters", "hyperparameter"),
        ("data parallelism", "dataparallel"),
    ]
    assert warnings == ""


@pytest.mark.parametrize("fmt", FORMATS)
def test_names_and_their_neighbours_are_read_across_line_breaks(tmp_path, fmt):
    """MyST gives each source line of a paragraph its own text node; a name wrapped over
    two lines is still one name, and a product name wrapped before a glossary name still
    makes it a piece of a longer name (and uses up nothing), as in reST."""
    links, warnings = build(
        tmp_path,
        fmt,
        [
            (
                "Serving",
                "We ship the Acme\nInference Server as a library. The server groups requests with dynamic\nbatching.",
            ),
            ("Plain", "Any inference\nserver can group requests."),
        ],
    )
    assert links == [("dynamic batching", "dynamic-batching"), ("inference server", "inference-server")]
    assert warnings == ""


def test_spanish_names_are_whole_and_arabic_unaffected(tmp_path):
    links, _ = build(
        tmp_path,
        "rst",
        [("Uno", "La pestaña Comet Hiperparámetros muestra las ejecuciones; ajuste los hiperparámetros.")],
        language="es",
        mlglossary_autolink="all",
    )
    assert links == [("hiperparámetros", "hyperparameter")]
    (tmp_path / "ar").mkdir()
    arabic, _ = build(
        tmp_path / "ar",
        "md",
        [("واحد", "يستخدم PyTorch قناع الانتباه لتجاهل الحشو.")],
        language="ar",
    )
    # "PyTorch" makes no run in Arabic text; padding is linked too, its sentence naming another entry
    assert arabic == [("قناع الانتباه", "attention-mask"), ("الحشو", "padding")]


# -- invisible nodes ---------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_hidden_duplicate_target_message_does_not_take_the_first_link(tmp_path, fmt):
    # the second heading makes docutils add an INFO system message quoting it (hidden in HTML)
    links, warnings = build(
        tmp_path,
        fmt,
        [
            ("Direct Preference Optimization", "An overview comes first."),
            ("Direct Preference Optimization", "Direct Preference Optimization (DPO) learns from pairs."),
        ],
    )
    assert links == [("Direct Preference Optimization", "direct-preference-optimization")]
    assert warnings == ""


def test_the_system_message_is_really_there_when_auto_linking_runs(tmp_path, monkeypatch):
    from docutils import nodes
    from sphinx.testing.util import SphinxTestApp

    from sphinxcontrib_mlglossary.autolink import AutoLinker

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["sphinxcontrib_mlglossary"]\nmlglossary_autolink = "first"\n')
    (src / "index.rst").write_text("Home\n====\n\nA\n-\n\nText.\n\nA\n-\n\nMore.\n")
    seen = []
    original = AutoLinker.apply

    def spy(self, **kwargs):
        seen.extend(str(m.astext()) for m in self.document.findall(nodes.system_message))
        original(self, **kwargs)

    monkeypatch.setattr(AutoLinker, "apply", spy)
    app = SphinxTestApp("html", srcdir=src, freshenv=True, status=StringIO(), warning=StringIO())
    try:
        app.build()
    finally:
        app.cleanup()
    assert any("Duplicate implicit target name" in text for text in seen)


@pytest.mark.parametrize("fmt", FORMATS)
def test_comments_captions_table_heads_and_other_builders_blocks_use_up_nothing(tmp_path, fmt):
    if fmt == "md":
        body = (
            "% the attention mask, said in a comment\n\n"
            "```{only} latex\nThe attention mask in print.\n```\n\n"
            "| attention mask | value |\n| --- | --- |\n| a | b |\n\n"
            "```{code-block} python\n:caption: the attention mask\n\nx = 1\n```\n\n"
            "The attention mask hides padding."
        )
    else:
        body = (
            ".. the attention mask, said in a comment\n\n"
            ".. |mask| replace:: attention mask\n\n"
            ".. only:: latex\n\n   The attention mask in print.\n\n"
            "+----------------+-------+\n| attention mask | value |\n+================+=======+\n"
            "| a              | b     |\n+----------------+-------+\n\n"
            ".. code-block:: python\n   :caption: the attention mask\n\n   x = 1\n\n"
            "The attention mask hides padding."
        )
    links, warnings = build(tmp_path, fmt, [("Masks", body)])
    # the paragraph's own mention takes the link (padding too: its sentence names another entry)
    assert links == [("attention mask", "attention-mask"), ("padding", "padding")]
    assert warnings == ""


# -- phrases left alone --------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_protected_phrases_from_conf_and_page_metadata(tmp_path, fmt):
    links, warnings = build(
        tmp_path,
        fmt,
        [
            (
                "Runs",
                "The cross encoder reranks. A dual encoder trainer; compare encoder models and the hyperparameters "
                "tab; then a dual encoder and LLMs.",
            )
        ],
        meta={"mlglossary-autolink-exclude": "hyperparameters tab, LLM, attenion mask"},
        mlglossary_autolink="all",
        mlglossary_autolink_exclude=["cross encoder", "dual encoder trainer"],
    )
    assert links == [("encoder models", "encoder-models"), ("dual encoder", "bi-encoder")]
    assert "page metadata mlglossary-autolink-exclude: 'attenion mask' names no entry" in warnings
    assert "page.rst" in warnings or "page.md" in warnings
    assert warnings.count("[mlglossary.config]") == 1


def test_a_phrase_is_kept_and_a_value_without_any_name_is_reported(tmp_path):
    _links, warnings = build(
        tmp_path,
        "rst",
        [("One", "Text.")],
        mlglossary_autolink_exclude=["Comet Hyperparameters", "Sharded Widgets", "atention mask"],
    )
    assert "Comet Hyperparameters" not in warnings
    assert (
        "mlglossary_autolink_exclude: 'Sharded Widgets' names no entry of the glossary and holds none of its names"
        in warnings
    )
    assert (
        "'atention mask' names no entry of the glossary and holds none of its names; "
        "it is ignored; did you mean 'attention mask'?"
    ) in warnings


def test_parallel_and_incremental_builds_keep_page_exclusions(tmp_path):
    from .sphinx_process import quiet_build
    from .test_parallel import PAGES, assert_same_output, clean_build, write_project

    src = tmp_path / "src"
    write_project(src)
    with (src / "conf.py").open("a") as conf:
        conf.write('mlglossary_autolink = "first"\nmlglossary_autolink_exclude = ["Comet Hyperparameters"]\n')
    for n in range(PAGES):
        page = src / f"page{n:02d}.md"
        front = "---\nmlglossary-autolink-exclude: LLM\n---\n" if n % 2 else ""
        page.write_text(
            front + page.read_text() + "\nThe Comet Hyperparameters tab, the Sparse Encoder models, then LLMs, "
            "pre-trained models and the hyperparameters.\n"
        )
    serial = clean_build(src, tmp_path, "serial")
    parallel = tmp_path / "parallel"
    assert quiet_build(src, parallel, "-E", "-j", "2") == ""
    assert_same_output(serial, parallel)
    odd, even = (
        [" ".join(a.get_text().split()) for a in read_html(serial / f"page{n:02d}.html").select(".mlglossary-autolink")]
        for n in (1, 2)
    )
    assert odd == ["pre-trained models", "hyperparameters"]
    assert even == ["LLMs", "pre-trained models", "hyperparameters"]
    # an incremental build after a page drops its exclusion links what a clean build links
    page = src / "page01.md"
    page.write_text(page.read_text().replace("exclude: LLM", "exclude: Comet Hyperparameters"))
    assert quiet_build(src, parallel, "-j", "2") == ""
    assert_same_output(clean_build(src, tmp_path, "again"), parallel)
    assert "LLMs" in [a.get_text() for a in read_html(parallel / "page01.html").select(".mlglossary-autolink")]
