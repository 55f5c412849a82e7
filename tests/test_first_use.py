"""First-use expansion: a page's first citation of an abbreviation shows the full name too."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from sphinxcontrib_mlglossary.loader import bundled_glossary

from .conftest import ROOTS, card_key, read_html
from .sphinx_process import quiet_build

ON = {"mlglossary_first_use": True}


def citations(page: Path) -> list[tuple[str, str, str | None]]:
    """(text, href, card key) of the page's term links outside the page-terms boxes, in order."""
    soup = read_html(page)
    for box in soup.select("div.mlglossary-page-terms"):
        box.decompose()
    return [
        (a.get_text(), a["href"], card_key(a)) for a in soup.select("div.body a.reference") if "#term-" in a["href"]
    ]


@pytest.mark.parametrize("root", ["page-terms-md", "page-terms-rst"])
def test_the_first_citation_of_an_abbreviation_is_spelt_out(root_app, root):
    plain = root_app("html", root)
    plain.build()
    plain.cleanup()  # its output stays; the next app registers the nodes afresh
    app = root_app("html", root, confoverrides=ON)
    app.build()
    assert app.warning.getvalue() == ""
    expanded = citations(app.outdir / "tutorial.html")
    assert [text for text, _href, _key in expanded] == [
        "masked language modeling (MLM)",
        "attention mask",
        "large language models (LLM)",
        "low-rank adaptation (LoRA)",
        "MLM",  # later citations stay as written
        "attention masks",
        "savepoint",
    ]
    # off by default; and the links and cards are the citations' own either way
    written = citations(plain.outdir / "tutorial.html")
    assert [text for text, _href, _key in written][:5] == ["MLM", "attention mask", "LLM", "LoRA", "MLM"]
    assert [(href, key) for _text, href, key in expanded] == [(href, key) for _text, href, key in written]
    assert expanded[0][2] is not None and expanded[0][2] == expanded[4][2]
    # the expanded text is marked, for styling
    marked = read_html(app.outdir / "tutorial.html").select("a.reference .mlglossary-first-use")
    assert [span.get_text() for span in marked] == [text for text, _href, _key in expanded[:4] if "(" in text]


def test_a_page_switches_it_on_or_off_and_own_text_introduces_nothing(root_app):
    app = root_app("html", "page-terms-md", confoverrides=ON)
    (app.srcdir / "quiet.md").write_text(
        "---\nmlglossary-first-use: false\n---\n# Quiet\n\nCites {term}`LoRA`.\n", encoding="utf-8"
    )
    (app.srcdir / "extra.md").write_text(
        "---\norphan: true\nmlglossary-first-use: maybe\n---\n# Extra\n\n"
        "First {term}`the MLM objective <MLM>`, then {term}`MLM`, then {term}`LLM` and "
        "{term}`large language models`, then {term}`LLM`.\n",
        encoding="utf-8",
    )
    app.build()
    assert [text for text, _href, _key in citations(app.outdir / "quiet.html")] == ["LoRA"]
    assert [text for text, _href, _key in citations(app.outdir / "extra.html")] == [
        "the MLM objective",  # its own text: left as written, introduces nothing
        "masked language modeling (MLM)",
        "large language models (LLM)",
        "large language models",
        "LLM",
    ]
    warnings = app.warning.getvalue()
    assert "extra.md" in warnings and "mlglossary-first-use: 'maybe' is neither true nor false" in warnings
    assert "[mlglossary.config]" in warnings


def test_a_page_can_switch_it_on_in_a_project_without_it(root_app):
    app = root_app("html", "page-terms-rst")
    (app.srcdir / "quiet.rst").write_text(
        ":mlglossary-first-use: true\n\nQuiet\n=====\n\nCites :term:`LoRA` and :term:`LoRA`.\n", encoding="utf-8"
    )
    app.build()
    assert app.warning.getvalue() == ""
    assert [text for text, _href, _key in citations(app.outdir / "quiet.html")] == [
        "low-rank adaptation (LoRA)",
        "LoRA",
    ]
    assert citations(app.outdir / "tutorial.html")[0][0] == "MLM"


def test_auto_links_are_expanded_too(root_app):
    app = root_app("html", "page-terms-md", confoverrides={**ON, "mlglossary_autolink": "all"})
    (app.srcdir / "quiet.md").write_text("# Quiet\n\nTrain with LoRA, then merge the LoRA weights.\n", encoding="utf-8")
    app.build()
    assert [text for text, _href, _key in citations(app.outdir / "quiet.html")] == [
        "low-rank adaptation (LoRA)",
        "LoRA",
    ]


def fill_catalog(src: Path, out: Path, translations: dict[str, str]) -> None:
    """Extract the messages with the gettext builder and translate the ones starting as given, as a translator would."""
    quiet_build(src, out, builder="gettext")
    with (out / "tutorial.pot").open("rb") as stream:
        catalog = read_po(stream)
    catalog.locale = "es"
    for message in catalog:
        for start, translated in translations.items():
            if message.id and str(message.id).startswith(start):
                message.string = translated
    target = src / "locales" / "es" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with (target / "tutorial.po").open("wb") as stream:
        write_po(stream, catalog)


def test_a_translated_page_spells_out_the_name_in_its_language(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-page-terms-md", src)
    fill_catalog(
        src,
        tmp_path / "gettext",
        {
            "Pretraining with": "Para preentrenar con {term}`MLM` hace falta una {term}`máscara de atención`.",
            "Terms used here": "Términos de esta página",
        },
    )
    outs = {}
    for jobs in ("1", "2"):
        outs[jobs] = tmp_path / f"out-{jobs}"
        settings = ["-D", "language=es", "-D", "locale_dirs=locales", "-D", "mlglossary_first_use=1"]
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "sphinx",
                "-b",
                "html",
                "-q",
                "-E",
                "-j",
                jobs,
                *settings,
                str(src),
                str(outs[jobs]),
            ],
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0 and result.stderr == "", result.stderr
    page = outs["1"] / "tutorial.html"
    found = citations(page)
    assert [text for text, _href, _key in found][:3] == [
        "modelado de lenguaje enmascarado (MLM)",
        "máscara de atención",
        "modelos de lenguaje grandes (LLM)",
    ]
    assert found[0][1] == "glossary.html#term-masked-language-modeling"
    assert read_html(page).select_one("div.mlglossary-page-terms p.rubric").get_text() == "Términos de esta página"
    assert page.read_text(encoding="utf-8") == (outs["2"] / "tutorial.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("language", ["es", "ar"])
def test_the_full_name_is_the_build_language_s(root_app, language):
    app = root_app("html", "page-terms-rst", confoverrides={**ON, "language": language})
    app.build()
    assert app.warning.getvalue() == ""
    names = {entry.id: entry.name for entry in bundled_glossary(language)}
    assert [text for text, _href, _key in citations(app.outdir / "tutorial.html")][:5] == [
        f"{names['masked-language-modeling']} (MLM)",
        "attention mask",  # written out: stays as written
        f"{names['large-language-models']} (LLM)",
        f"{names['lora']} (LoRA)",
        "MLM",
    ]
