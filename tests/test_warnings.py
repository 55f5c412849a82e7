"""User mistakes give one clear, typed warning each, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

CONF = 'extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\n'


def project(tmp_path: Path, files: dict[str, str], conf: str = CONF) -> Path:
    (tmp_path / "conf.py").write_text(conf)
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def build(make_app, srcdir: Path, **kwargs) -> str:
    app = make_app("html", srcdir=srcdir, freshenv=True, **kwargs)
    app.build()
    return app.warning.getvalue()


TOC = "# Home\n\n```{toctree}\n:hidden:\n\nglossary\n```\n\n"
GLOSSARY = "# Glossary\n\n```{mlglossary}\n```\n"
#: a page of one entry, for tests about conf.py values and suppressed warnings: nothing on the page is read
ONE_ENTRY_GLOSSARY = "# Glossary\n\n```{mlglossary}\n:terms: attention-mask\n```\n"


def test_unknown_term_suggests_close_names(make_app, tmp_path):
    src = project(tmp_path, {"index.md": TOC + "{term}`atention mask` and {term}`MLN`\n", "glossary.md": GLOSSARY})
    warnings = build(make_app, src)
    assert "index.md:9: WARNING: term not in glossary: 'atention mask'; did you mean 'attention mask'" in warnings
    assert "[mlglossary.unknown_term]" in warnings
    assert "did you mean 'MLM'" in warnings


def test_suggestions_name_their_entry_and_list_each_entry_once(make_app, tmp_path):
    text = "{term}`tokn indices` and {term}`token indexes`\n"
    src = project(tmp_path, {"index.md": TOC + text, "glossary.md": GLOSSARY})
    warnings = build(make_app, src)
    assert "term not in glossary: 'tokn indices'; did you mean 'token indices' (input IDs)?" in warnings
    # a close spelling first, then the name inside it ('tokens' is the entry 'token' again: each entry
    # once); not 'vector index', which shares only the word the writer misspelt
    assert "term not in glossary: 'token indexes'; did you mean 'token indices' (input IDs), 'token'?" in warnings


@pytest.mark.parametrize("suppressed", ["mlglossary.unknown_term", "ref.term", "ref.*"])
def test_unknown_term_warning_can_be_suppressed(make_app, tmp_path, suppressed):
    """Ours or Sphinx's own name for it: a project that silenced "term not in glossary"
    before adding the extension stays silent."""
    src = project(
        tmp_path,
        {"index.md": TOC + "{term}`no such thing`\n", "glossary.md": ONE_ENTRY_GLOSSARY},
        conf=CONF + f"suppress_warnings = [{suppressed!r}]\n",
    )
    assert build(make_app, src) == ""


def test_citing_without_a_glossary_page_warns_once(make_app, tmp_path):
    src = project(
        tmp_path,
        {
            "index.md": "# Home\n\n```{toctree}\nother\n```\n\n{term}`attention mask`, {term}`MLM`\n",
            "other.md": "# Other\n\n{term}`ZeRO` and {term}`input IDs`\n",
        },
    )
    warnings = build(make_app, src)
    assert warnings.count("no page holds the glossary") == 1
    assert "mlglossary.no_glossary_page" in warnings
    assert "term not in glossary" not in warnings


def test_same_glossary_twice_on_two_pages(make_app, tmp_path):
    src = project(
        tmp_path,
        {
            "index.md": "# Home\n\n```{toctree}\nglossary\nmore\n```\n\n{term}`MLM`\n",
            "glossary.md": GLOSSARY,
            "more.md": "# More\n\n```{mlglossary}\n:terms: MLM, ZeRO\n```\n",
        },
    )
    app = make_app("html", srcdir=src, freshenv=True)
    app.build()
    warnings = app.warning.getvalue()
    # one warning per entry (not per name), on the page that comes second in name order
    assert warnings.count("[mlglossary.duplicate_term]") == 2
    assert (
        "more.md:3: WARNING: glossary entry 'masked language modeling' (masked-language-modeling) is already "
        "shown on glossary.md, the first page in name order to show it: it is left out here" in warnings
    )
    assert (
        "glossary entry 'Zero Redundancy Optimizer' (zero-redundancy-optimizer) is already shown on glossary.md"
        in warnings
    )
    assert "Traceback" not in warnings
    html = (app.outdir / "index.html").read_text()
    assert 'href="glossary.html#term-masked-language-modeling"' in html
    more = (app.outdir / "more.html").read_text()
    assert 'id="term-masked-language-modeling"' not in more and 'id="term-zero-redundancy-optimizer"' not in more


def test_same_entries_twice_on_one_page(make_app, tmp_path):
    src = project(tmp_path, {"index.md": TOC, "glossary.md": GLOSSARY + "\n```{mlglossary}\n:terms: ZeRO\n```\n"})
    warnings = build(make_app, src)
    assert "glossary entry 'Zero Redundancy Optimizer' appears twice on this page" in warnings


def test_user_glossary_defining_the_same_term(make_app, tmp_path):
    src = project(
        tmp_path,
        {
            "index.md": TOC + "```{toctree}\nmine\n```\n\n{term}`token`\n",
            "glossary.md": GLOSSARY,
            "mine.md": "# Mine\n\n```{glossary}\ntoken\n  Our own meaning.\n```\n",
        },
    )
    warnings = build(make_app, src)
    assert "duplicate term description" not in warnings  # Sphinx's, given only when both met in one process
    assert warnings.count("[mlglossary.duplicate_term]") == 1
    assert (
        "glossary.md:3: WARNING: glossary entry 'token' is replaced by your own term of that name in mine.md"
        in warnings
    )


def test_bad_directive_options(make_app, tmp_path):
    src = project(
        tmp_path,
        {
            "index.md": TOC,
            "glossary.md": "# Glossary\n\n```{mlglossary}\n:terms: attention mask, atention mask\n:tags: nlp, astrology\n```\n",
        },
    )
    warnings = build(make_app, src)
    assert "names unknown term 'atention mask'; did you mean 'attention mask'" in warnings
    assert "names tag 'astrology', which no entry has" in warnings
    assert warnings.count("[mlglossary.option]") == 2


@pytest.mark.parametrize("value", ["42", "['es']"])
def test_bad_config_value(make_app, tmp_path, value):
    pages = {"index.md": TOC, "glossary.md": ONE_ENTRY_GLOSSARY}
    src = project(tmp_path, pages, conf=CONF + f"mlglossary_language = {value}\n")
    warnings = build(make_app, src)
    assert "mlglossary_language" in warnings
    assert "[mlglossary.config]" in warnings


def test_misspelt_option_name_is_reported_once(make_app, tmp_path):
    src = project(
        tmp_path,
        {"index.md": TOC, "glossary.md": ONE_ENTRY_GLOSSARY},
        conf=CONF + "mlglossary_tooltip = False\nmlglossary_qqqqqqqq = 1\n",
    )
    warnings = build(make_app, src)
    assert (
        warnings.count("unknown option 'mlglossary_tooltip' in conf.py is ignored; did you mean 'mlglossary_tooltips'?")
        == 1
    )
    assert "unknown option 'mlglossary_qqqqqqqq'" in warnings and "known options: mlglossary_language" in warnings
    assert warnings.count("[mlglossary.config]") == 2


@pytest.mark.parametrize("fmt", ["md", "rst"])
def test_a_subset_quietly_unlinks_references_to_entries_it_does_not_show(make_app, tmp_path, fmt):
    """*attention mask* cites *token* and *input IDs* and lists three "See also" entries.

    With ``:terms:`` picking it alone, those references have nowhere to land: they stay plain
    text without a warning (the writer chose the subset; our text is not theirs to fix).
    Shown on another page, the same entries are linked there. A page's own citation of an
    entry that no page shows is still the writer's mistake, and still reported.
    """
    if fmt == "md":
        subset = "# Glossary\n\n```{mlglossary}\n:terms: attention-mask\n```\n"
        more = "# More\n\n```{mlglossary}\n:terms: token\n```\n"
        index = "# Home\n\n```{toctree}\nglossary\nmore\n```\n\n{term}`padding`\n"
    else:
        subset = "Glossary\n========\n\n.. mlglossary::\n   :terms: attention-mask\n"
        more = "More\n====\n\n.. mlglossary::\n   :terms: token\n"
        index = "Home\n====\n\n.. toctree::\n\n   glossary\n   more\n\n:term:`padding`\n"
    src = project(tmp_path, {f"index.{fmt}": index, f"glossary.{fmt}": subset, f"more.{fmt}": more})
    app = make_app("html", srcdir=src, freshenv=True)
    app.build()
    warnings = [line for line in app.warning.getvalue().splitlines() if line]
    assert len(warnings) == 1 and "term not in glossary: 'padding'" in warnings[0], warnings
    assert f"index.{fmt}" in warnings[0]

    from .conftest import read_html

    entry = read_html(app.outdir / "glossary.html").find(id="term-attention-mask").find_next_sibling("dd")
    links = {a["href"] for a in entry.select("a.reference.internal[href]")}
    assert links == {"more.html#term-token"}, links
    text = " ".join(entry.get_text().split())
    assert "input IDs" in text
    see_also = entry.select_one(".mlglossary-see-also")
    assert see_also.select("a") == []
    assert "input IDs" in see_also.get_text() and "position IDs" in see_also.get_text()
