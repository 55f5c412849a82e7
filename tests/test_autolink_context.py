"""Context decides the everyday words: "tokenizer" or "epoch" are auto-linked in a section
about machine learning (one naming three glossary entries, or on a page importing an ML
library) and left alone elsewhere. rST and MyST twins; ``-j 2`` and incremental builds
give the serial result.

Every build shows the whole glossary page (auto-linking knows only the entries a page
shows). The tests that only read what one page's auto-links are under the default
settings, or under ``mlglossary_autolink = "all"``, have their pages built together, one
project per format and mode (``built_together``): each test's pages keep their own text and
title under names of their own, and what a page links depends on the page alone (its
sections, sentences and imports), so each test reads what a project of its own would give.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from .conftest import read_html

FORMATS = ["rst", "md"]

ML_TEXT = (
    "Backpropagation computes the gradients and gradient descent applies them with the learning rate. "
    "After every epoch there is less overfitting. The tokenizer splits each sentence."
)
EVERYDAY_TEXT = (
    "The tokenizer of our config lexer splits the file into words, "
    "and the log stamps each line with seconds since the Unix epoch."
)
IMPORT_TEXT = "The tokenizer is loaded once and reused for every request."


def _heading(fmt: str, text: str) -> str:
    return f"# {text}\n\n" if fmt == "md" else f"{text}\n{'=' * len(text)}\n\n"


def _code(fmt: str, code: str) -> str:
    if fmt == "md":
        return f"```python\n{code}\n```\n\n"
    return ".. code-block:: python\n\n" + "".join(f"   {line}\n" for line in code.splitlines()) + "\n"


def _write(src: Path, fmt: str, pages: dict[str, str], titles: dict[str, str] | None = None, **conf: object) -> None:
    src.mkdir(parents=True, exist_ok=True)
    settings = {"mlglossary_autolink": "first", **conf}
    extensions = ["myst_parser", "sphinxcontrib_mlglossary"] if fmt == "md" else ["sphinxcontrib_mlglossary"]
    (src / "conf.py").write_text(
        f"extensions = {extensions!r}\n" + "".join(f"{key} = {value!r}\n" for key, value in settings.items()),
        encoding="utf-8",
    )
    names = "\n".join([*pages, "glossary"])
    toctree = (
        f"```{{toctree}}\n{names}\n```\n"
        if fmt == "md"
        else ".. toctree::\n\n" + "".join(f"   {name}\n" for name in [*pages, "glossary"])
    )
    (src / f"index.{fmt}").write_text(_heading(fmt, "Home") + toctree, encoding="utf-8")
    directive = "```{mlglossary}\n```\n" if fmt == "md" else ".. mlglossary::\n"
    (src / f"glossary.{fmt}").write_text(_heading(fmt, "Glossary") + directive, encoding="utf-8")
    for name, body in pages.items():
        title = (titles or {}).get(name, name.title())
        (src / f"{name}.{fmt}").write_text(_heading(fmt, title) + body, encoding="utf-8")


def _pages(fmt: str) -> dict[str, str]:
    return {
        "training": ML_TEXT + "\n",
        "logging": EVERYDAY_TEXT + "\n",
        "serving": _code(fmt, "from transformers import AutoTokenizer") + IMPORT_TEXT + "\n",
    }


def _build(src: Path, out: Path, parallel: int = 0, fresh: bool = True) -> SphinxTestApp:
    app = SphinxTestApp(
        "html", srcdir=src, builddir=out, freshenv=fresh, parallel=parallel, status=StringIO(), warning=StringIO()
    )
    try:
        app.build()
    finally:
        app.cleanup()
    return app


def _autolinks(app: SphinxTestApp, page: str) -> list[tuple[str, str]]:
    soup = read_html(app.outdir / f"{page}.html")
    return [
        (" ".join(a.get_text().split()), a["href"].rsplit("#term-", 1)[1])
        for a in soup.select("a")
        if a.select_one(".mlglossary-autolink")
    ]


@pytest.mark.parametrize("fmt", FORMATS)
def test_everyday_words_are_linked_on_ml_pages_only(built_together, fmt):
    links = built_together(fmt, "first", "everyday")
    training = dict(links("training"))
    assert training["tokenizer"] == "tokenizer"
    assert training["epoch"] == "epoch"
    assert training["learning rate"] == "learning-rate"
    assert links("logging") == []
    # no glossary entry is named on the serving page, but its code imports an ML library
    assert links("serving") == [("tokenizer", "tokenizer")]


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_innermost_section_decides(tmp_path, fmt):
    sub = "## " if fmt == "md" else ""
    under = "" if fmt == "md" else "\n" + "-" * 20
    page = f"{sub}Training the model{under}\n\n{ML_TEXT}\n\n{sub}Reading the logs{under}\n\n{EVERYDAY_TEXT}\n"
    src = tmp_path / "src"
    _write(src, fmt, {"mixed": page}, mlglossary_autolink="section")
    links = _autolinks(_build(src, tmp_path / "out"), "mixed")
    assert links.count(("tokenizer", "tokenizer")) == 1  # the ML section's only
    assert links.count(("epoch", "epoch")) == 1


@pytest.mark.parametrize(
    ("setting", "value"),
    [("mlglossary_autolink_context", 0), ("mlglossary_autolink_context_names", [])],
)
def test_context_linking_can_be_turned_off(tmp_path, setting, value):
    src = tmp_path / "src"
    _write(src, "rst", _pages("rst"), **{setting: value})
    app = _build(src, tmp_path / "out")
    linked = {target for _, target in _autolinks(app, "training") + _autolinks(app, "serving")}
    assert "tokenizer" not in linked
    assert "epoch" not in linked
    assert "learning-rate" in linked  # the names linked anyway still are


def test_a_higher_threshold_asks_for_more_named_entries(tmp_path):
    src = tmp_path / "src"
    _write(src, "rst", _pages("rst"), mlglossary_autolink_context=10)
    app = _build(src, tmp_path / "out")
    linked = {target for _, target in _autolinks(app, "training")}
    assert "tokenizer" not in linked
    assert "epoch" in linked  # its own sentence names another entry: overfitting
    assert ("tokenizer", "tokenizer") in _autolinks(app, "serving")  # the import still decides


def _model_sentence_pages(fmt: str) -> dict[str, str]:
    serving = (
        "The logs count milliseconds since the epoch. Send an inference request, and read\n"
        "the output tensors of the model. The tokenizer of the config lexer reads the file.\n"
    )
    server = "The queue is fair. Dynamic batching groups each inference call on the server.\n"
    return {"serving": serving, "server": server}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_sentence_about_a_model_or_naming_an_entry_links_its_everyday_word(built_together, fmt):
    """Outside the sections about ML, an everyday word is linked in a sentence that speaks
    of a model or names another entry (a serving page), and nowhere else."""
    links = built_together(fmt, "first", "model-sentence")
    assert links("serving") == [("inference", "inference"), ("tensors", "tensor")]
    assert links("server") == [("Dynamic batching", "dynamic-batching"), ("inference", "inference")]


def _quotes_pages(fmt: str) -> dict[str, str]:
    text = (
        "Backpropagation computes the gradients and gradient descent applies them with the learning rate. "
        'The dataset needs a column named "label" with one class per row, and the '
        "\u201ctensor\u201d mode returns raw outputs. Every tensor of the batch has labels."
    )
    return {"training": text + "\n"}


def _bodies(app: SphinxTestApp) -> dict[str, str]:
    return {
        page: str(read_html(app.outdir / f"{page}.html").select_one("div.body"))
        for page in ("training", "logging", "serving")
    }


def test_parallel_and_incremental_builds_equal_the_serial_one(tmp_path):
    src = tmp_path / "src"
    _write(src, "rst", _pages("rst"))
    serial = _bodies(_build(src, tmp_path / "serial"))
    assert _bodies(_build(src, tmp_path / "parallel", parallel=2)) == serial
    # incremental: the everyday page first holds ML text, then is edited back
    shutil.copytree(src, tmp_path / "src2")
    src2 = tmp_path / "src2"
    (src2 / "logging.rst").write_text(_heading("rst", "Logging") + ML_TEXT + "\n", encoding="utf-8")
    first = _build(src2, tmp_path / "incremental")
    assert ("tokenizer", "tokenizer") in _autolinks(first, "logging")
    (src2 / "logging.rst").write_text(_heading("rst", "Logging") + EVERYDAY_TEXT + "\n", encoding="utf-8")
    again = _build(src2, tmp_path / "incremental", fresh=False)
    assert _bodies(again) == serial


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_everyday_word_in_quotes_names_a_column_not_the_concept(built_together, fmt):
    links = built_together(fmt, "first", "quotes")("training")
    # the quoted names are left alone, so the first unquoted mentions take the links
    assert ("tensor", "tensor") in links
    assert ("labels", "labels") in links
    assert ("label", "labels") not in links


@pytest.mark.parametrize("fmt", FORMATS)
def test_words_of_two_senses_need_a_cue_in_their_sentence(built_together, fmt):
    """ "parameters", "loss", "metrics" and "batch" are linked in a section about ML only in
    a sentence that names another entry (any name) or a model in the same clause, and never
    outside the sections about ML."""
    links = built_together(fmt, "first", "two-senses")
    training = links("training")
    assert ("weights", "parameters") in training  # its clause names the model
    assert ("loss", "loss-function") in training  # its sentence names the learning rate
    assert ("batch", "batch-size") in training  # the second: its sentence names padding
    assert ("parameters", "parameters") not in training  # a request's, with no cue
    assert links("logging") == []  # no section about ML: never, whatever the cue


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_sentence_speaking_of_the_other_sense_leaves_the_word_alone(built_together, fmt):
    """A sentence about a model still uses "token" and "epoch" in their other sense when it
    speaks of access or of clock time; the word is left alone there."""
    assert built_together(fmt, "first", "other-sense")("serving") == [("tensors", "tensor")]


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_everyday_word_next_to_a_name_says_what_the_name_is(built_together, fmt):
    """Right before or after code or a quoted word, an everyday word names the kind of
    thing that name is (the ``truncate_dim`` parameter, the "reason" label), not the
    concept; a verb before code, a possessive or a quoted value with its comma is no exception."""
    links = built_together(fmt, "all", "next-to-a-name")("training")
    assert ("weights", "parameters") in links
    assert ("labels", "labels") in links
    assert ("checkpoint\u2019s", "checkpoint") in links  # the apostrophe curled by smart quotes
    assert ("fine-tune", "finetuned-models") in links
    assert links.count(("loss", "loss-function")) == 1  # the model's, not the quoted mode
    assert not [link for link in links if link[0] in ("parameter", "label")]


def _next_to_a_name_pages(fmt: str) -> dict[str, str]:
    def code(name: str) -> str:
        return f"`{name}`" if fmt == "md" else f"``{name}``"

    text = (
        ML_TEXT + f" Set the {code('truncate_dim')} parameter of the model, and the parameter {code('by_epoch')}.\n"
        "Then save the weights of the model. In training the mode is \u201closs,\u201d for the model\u2019s loss.\n"
        'The model reports the "reason" label of each failure. The model predicts labels.\n'
        f"Read the checkpoint's {code('config.json')}, then fine-tune {code('Encoder')} models.\n"
    )
    return {"training": text}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_sentence_is_read_across_inline_markup(built_together, fmt):
    """Code, emphasis or a link splits a sentence into several text nodes; its cues are
    read in the whole sentence, as the reader sees it."""
    links = built_together(fmt, "first", "inline-markup")
    assert ("parameters", "parameters") in links("training")
    assert links("serving") == [("tensors", "tensor")]


def _inline_markup_pages(fmt: str) -> dict[str, str]:
    code = "`mpnet-base`" if fmt == "md" else "``mpnet-base``"
    training = ML_TEXT + f" Model being trained: {code} (133M parameters).\n"
    serving = "The queue is fair. Read the output *tensors* of the model.\n"
    return {"training": training, "serving": serving}


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_name_linked_anyway_is_held_back_where_its_other_sense_is_meant(built_together, fmt):
    """Some names the data links anyway have an everyday sense too; a sentence speaking
    of it (staff learning, video codecs, bulk imports) leaves them alone."""
    links = built_together(fmt, "first", "linked-anyway")
    assert links("logging") == []
    assert {target for _, target in links("training")} >= {"learning-rate", "encoder-models", "batch-size"}


def _linked_anyway_pages(fmt: str) -> dict[str, str]:
    everyday = (
        "The learning rate of new staff shows in the onboarding survey.\n"
        "Our transcoder ships the encoder models of x265 and HEVC.\n"
        "Raise the batch size of the bulk upload to 200 rows.\n"
    )
    ml = "Lower the learning rate when the encoder models overfit, and halve the batch size.\n"
    return {"logging": everyday, "training": ml}


def test_the_words_of_two_senses_can_be_turned_off_and_are_checked(tmp_path):
    text = ML_TEXT + " Save the weights of the model.\n"
    src = tmp_path / "src"
    _write(src, "rst", {"training": text}, mlglossary_autolink_context_cued_names=[])
    assert ("weights", "parameters") not in _autolinks(_build(src, tmp_path / "off"), "training")
    src2 = tmp_path / "src2"
    _write(src2, "rst", {"training": text}, mlglossary_autolink_context_cued_names=["weights", "wieghts"])
    app = _build(src2, tmp_path / "checked")
    assert ("weights", "parameters") in _autolinks(app, "training")
    warnings = app.warning.getvalue()
    assert "mlglossary_autolink_context_cued_names: 'wieghts' names no entry" in warnings
    assert "did you mean 'weights'?" in warnings


@pytest.mark.parametrize("fmt", FORMATS)
def test_precision_of_a_metric_not_of_numbers(built_together, fmt):
    """ "precision" is an evaluation metric next to a model, but the precision of numbers
    (int8, fp16, half precision) in the same section is its other sense."""
    links = built_together(fmt, "all", "precision")("training")
    assert links.count(("precision", "precision-and-recall")) == 1


def _precision_pages(fmt: str) -> dict[str, str]:
    text = (
        ML_TEXT + " Quantize the model to int8 precision for the CPU.\n"
        "The re-ranking model gives a better precision than the first stage.\n"
    )
    return {"training": text}


def _two_senses_pages(fmt: str) -> dict[str, str]:
    cued = (
        ML_TEXT + " Set the parameters of each request in its header, and check the batch job later.\n"
        "Save the weights of the model after training. The loss is logged with the learning rate.\n"
        "Each batch holds the sequences after padding.\n"
    )
    everyday = "The model's weights are checked. The loss of one server slows the model down.\n"
    return {"training": cued, "logging": everyday}


def _other_sense_pages(fmt: str) -> dict[str, str]:
    serving = (
        "For gated models, set your token first: export it in the shell.\n"
        "The timestamp of the last request made for this model, as milliseconds since the epoch.\n"
        "Read the output tensors of the model.\n"
    )
    return {"serving": serving}


#: auto-link mode -> test -> its pages in a format, built together (``built_together``)
TOGETHER: dict[str, dict[str, Callable[[str], dict[str, str]]]] = {
    "first": {
        "everyday": _pages,
        "model-sentence": _model_sentence_pages,
        "quotes": _quotes_pages,
        "two-senses": _two_senses_pages,
        "other-sense": _other_sense_pages,
        "inline-markup": _inline_markup_pages,
        "linked-anyway": _linked_anyway_pages,
    },
    "all": {"next-to-a-name": _next_to_a_name_pages, "precision": _precision_pages},
}


@pytest.fixture(scope="module")
def built_together(tmp_path_factory):
    """``built_together(fmt, mode, test)(page)``: the auto-links of a test's page, from one build
    of every test's pages in ``TOGETHER[mode]`` (named ``<test>-<page>``, each with its own title)."""
    builds: dict[tuple[str, str], SphinxTestApp] = {}

    def factory(fmt: str, mode: str, test: str) -> Callable[[str], list[tuple[str, str]]]:
        if (fmt, mode) not in builds:
            pages: dict[str, str] = {}
            titles: dict[str, str] = {}
            for key, make in TOGETHER[mode].items():
                for name, body in make(fmt).items():
                    pages[f"{key}-{name}"] = body
                    titles[f"{key}-{name}"] = name.title()
            src = tmp_path_factory.mktemp(f"together-{fmt}-{mode}") / "src"
            _write(src, fmt, pages, titles, mlglossary_autolink=mode)
            builds[(fmt, mode)] = _build(src, src.parent / "out")
        app = builds[(fmt, mode)]
        assert test in TOGETHER[mode]
        return lambda page: _autolinks(app, f"{test}-{page}")

    return factory
