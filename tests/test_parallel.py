"""Parallel and incremental builds give exactly what a clean serial build gives.

Scenarios are repeated real ``sphinx-build`` runs on one source tree, each compared
with a clean serial build of the same tree.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from .conftest import read_html, read_html_with_cards
from .sphinx_process import quiet_build, run_sphinx

PAGES = 14
TERMS = ["attention mask", "MLM", "token", "input IDs", "ZeRO"]
#: ``write_project(src, page=CITED_PAGE)``: a glossary page of the entries the pages cite, plus
#: those the attention mask's "See also" names. The incremental scenarios compare every page
#: with a clean serial build and read the backlinks of cited entries: the other 250 entries
#: only made each of their builds cost 1.3 s of CPU more. test_parallel_build_matches_serial
#: keeps the full page at -j 2.
CITED_PAGE = (
    "attention-mask",
    "input-ids",
    "masked-language-modeling",
    "position-ids",
    "token",
    "token-type-ids",
    "zero-redundancy-optimizer",
)


def write_project(src: Path, page: Sequence[str] | None = None) -> None:
    """The test project; ``page``: the entries its glossary page shows (None: all)."""
    src.mkdir(parents=True, exist_ok=True)
    (src / "conf.py").write_text('extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\n')
    toc = "\n".join(f"page{n:02d}" for n in range(PAGES))
    (src / "index.md").write_text(f"# Home\n\n```{{toctree}}\n{toc}\nglossary\n```\n")
    terms = f":terms: {', '.join(page)}\n" if page else ""
    (src / "glossary.md").write_text(f"# Glossary\n\n```{{mlglossary}}\n{terms}```\n")
    # pages no toctree lists: removing or retitling a listed page changes the navigation
    # of every other page, which Sphinx itself doesn't rewrite (with or without us)
    for name in ("aside", "notes"):
        (src / f"{name}.md").write_text(
            f"---\norphan: true\n---\n# {name.title()}\n\nCites {{term}}`attention mask`.\n\n"
            "## Details\n\nAnd {term}`MLM`.\n"
        )
    for n in range(PAGES):
        first, second = TERMS[n % len(TERMS)], TERMS[(n + 2) % len(TERMS)]
        (src / f"page{n:02d}.md").write_text(
            f"# Page {n}\n\nIntro cites {{term}}`{first}`.\n\n"
            f"## Section {n}\n\nHere {{term}}`{second}` and {{term}}`{first}` again.\n"
        )


def assert_same_output(left: Path, right: Path) -> None:
    """Every HTML page byte for byte, ``<head>`` included (asset links and their ``?v=`` checksums)."""
    names = sorted(p.name for p in right.glob("*.html"))
    assert names == sorted(p.name for p in left.glob("*.html"))
    for name in names:
        assert (left / name).read_text(encoding="utf-8") == (right / name).read_text(encoding="utf-8"), name
    for name in ("mlglossary.css", "mlglossary.js", "mlglossary-cards.js"):
        assert (left / "_static" / name).read_bytes() == (right / "_static" / name).read_bytes(), name


#: digest of a source tree -> the clean serial build of it made earlier in this process
_CLEAN_BUILDS: dict[str, Path] = {}


def source_digest(src: Path) -> str:
    """A digest of every file's path and bytes: equal digests, equal sources."""
    digest = hashlib.sha256()
    for path in sorted(p for p in src.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(src)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def clean_build(src: Path, tmp_path: Path, label: str) -> Path:
    """A clean serial build of ``src``, the reference the other builds must equal.

    The ``-j 1`` and ``-j 2`` variants of a scenario reach the same sources at each step; a
    clean build of sources already built cleanly in this process is that earlier output
    (read only), so each reference is built once.
    """
    key = source_digest(src)
    if key in _CLEAN_BUILDS and _CLEAN_BUILDS[key].is_dir():
        return _CLEAN_BUILDS[key]
    out = tmp_path / f"clean-{label}"
    shutil.rmtree(out, ignore_errors=True)
    assert quiet_build(src, out, "-E") == ""
    _CLEAN_BUILDS[key] = out
    return out


def backlinks(out: Path, anchor: str) -> list[str]:
    dd = read_html(out / "glossary.html").find(id=anchor).find_next_sibling("dd")
    box = dd.select_one("div.mlglossary-backlinks")
    return [a["href"] for a in box.select("a")] if box else []


def test_parallel_build_matches_serial(tmp_path: Path):
    src = tmp_path / "src"
    write_project(src)
    serial = clean_build(src, tmp_path, "serial")
    parallel = tmp_path / "parallel"
    assert quiet_build(src, parallel, "-E", "-j", "2") == ""
    assert_same_output(serial, parallel)
    # every citing page is listed under the entries it cites
    assert len(backlinks(serial, "term-attention-mask")) > 3
    # and tooltips survived the parallel write
    assert read_html_with_cards(parallel / "page03.html").select("div.mlglossary-card")
    # a clean build links our assets with Sphinx's checksum, as it links its own
    head = read_html(serial / "page03.html").head
    assert head.select_one('link[href^="_static/mlglossary.css?v="]')
    assert head.select_one('script[src^="_static/mlglossary.js?v="]')


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_incremental_scenarios(tmp_path: Path, jobs: str):
    src = tmp_path / "src"
    write_project(src, page=CITED_PAGE)
    out = tmp_path / "incremental"
    quiet_build(src, out, "-j", jobs)

    # 1. a page gains a citation
    page = src / "page03.md"
    page.write_text(page.read_text() + "\nNow {term}`ZeRO` too.\n")
    quiet_build(src, out, "-j", jobs)
    assert_same_output(clean_build(src, tmp_path, "1"), out)
    assert "page03.html#mlglossary-cite-page03-3" in backlinks(out, "term-zero-redundancy-optimizer")

    # 2. a page is removed
    assert any(href.startswith("aside.html") for href in backlinks(out, "term-attention-mask"))
    (src / "aside.md").unlink()
    quiet_build(src, out, "-j", jobs)
    (out / "aside.html").unlink()
    assert_same_output(clean_build(src, tmp_path, "2"), out)
    assert not any(href.startswith("aside.html") for href in backlinks(out, "term-attention-mask"))

    # 3. a section is renamed, 4. a page is retitled
    page = src / "notes.md"
    page.write_text(page.read_text().replace("## Details", "## Renamed section").replace("# Notes", "# Retitled"))
    quiet_build(src, out, "-j", jobs)
    clean = clean_build(src, tmp_path, "3")
    assert_same_output(clean, out)
    assert "Retitled › Renamed section" in read_html(out / "glossary.html").get_text()

    # 5. a citation is removed
    page = src / "page00.md"
    page.write_text("# Page 0\n\nNo citations left.\n")
    quiet_build(src, out, "-j", jobs)
    assert_same_output(clean_build(src, tmp_path, "4"), out)
    assert not any(href.startswith("page00.html") for href in backlinks(out, "term-attention-mask"))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_terms_defined_or_reworded_elsewhere_update_unchanged_pages(tmp_path: Path, jobs: str):
    """Pages are not re-read when a term they cite appears elsewhere; their backlinks still must."""
    src = tmp_path / "src"
    write_project(src, page=CITED_PAGE)
    index = src / "index.md"
    index.write_text(index.read_text().replace("glossary\n", "glossary\nown\n"))
    own = src / "own.md"
    own.write_text("# Our terms\n\n```{glossary}\nsprocket\n   A toothed wheel.\n```\n")
    page = src / "page09.md"
    # an ML term after the unknown one: its id (and the ML glossary page's backlink,
    # a page not re-read) moves when "widget" starts landing on a term
    page.write_text(page.read_text() + "\nA {term}`widget` and a {term}`sprocket`, then {term}`MLM`.\n")
    out = tmp_path / "incremental"
    quiet_build(src, out, "-j", jobs)  # warns: no term "widget" yet

    own.write_text("# Our terms\n\n```{glossary}\nsprocket\n   A toothed wheel.\n\nwidget\n   A small gadget.\n```\n")
    quiet_build(src, out, "-j", jobs)
    clean = clean_build(src, tmp_path, "defined")
    assert_same_output(clean, out)
    box = read_html(out / "own.html").find(id="term-widget").find_next_sibling("dd")
    assert [a["href"] for a in box.select("div.mlglossary-backlinks a")] == ["page09.html#mlglossary-cite-page09-3"]
    assert "page09.html#mlglossary-cite-page09-5" in backlinks(out, "term-masked-language-modeling")

    # a definition reworded: the unchanged citing page shows the new card
    own.write_text(own.read_text().replace("A toothed wheel.", "A wheel with teeth."))
    quiet_build(src, out, "-j", jobs)
    assert_same_output(clean_build(src, tmp_path, "reworded"), out)
    link = read_html(out / "page09.html").find(id="mlglossary-cite-page09-4")
    assert link["title"] == "A wheel with teeth."


def test_a_second_build_finds_nothing_to_do(tmp_path: Path):
    """No config value is touched (a changed one would be reported and could force rewrites)."""
    src = tmp_path / "src"
    write_project(src, page=CITED_PAGE)
    out = tmp_path / "out"
    quiet_build(src, out)
    result = run_sphinx(["-b", "html", str(src), str(out)])
    assert result.returncode == 0, result.stderr
    assert "configuration has changed" not in result.stdout
    assert "0 added, 0 changed, 0 removed" in result.stdout
    assert "no targets are out of date" in result.stdout
    assert (out / "_static" / "mlglossary.js").is_file() and (out / "_static" / "mlglossary.css").is_file()


def written_since(out: Path, stamps: dict[str, int]) -> set[str]:
    """Content pages written since ``stamps`` (Sphinx rewrites its index and search pages every time)."""
    always = {"genindex.html", "search.html"}
    return {p.name for p in out.glob("*.html") if p.name not in always and p.stat().st_mtime_ns != stamps.get(p.name)}


def test_an_edit_rewrites_no_page_for_the_sake_of_cards_but_see_also_links_follow(tmp_path: Path):
    """Cards are site data (issue 27): a page names only its own cards, so editing one page
    rewrites the pages plain Sphinx rewrites, and the card file. A glossary's "See also" link
    gets the card of a term once a page cites it, also when no backlink changes."""
    src = tmp_path / "src"
    write_project(src, page=CITED_PAGE)
    conf = src / "conf.py"
    conf.write_text(conf.read_text() + "mlglossary_backlinks = False\n")
    plain = tmp_path / "plain"  # the same pages, without the extension
    shutil.copytree(src, plain)
    (plain / "conf.py").write_text('extensions = ["myst_parser"]\n')
    (plain / "glossary.md").write_text("# Glossary\n")
    out, plain_out = tmp_path / "out", tmp_path / "plain-out"
    quiet_build(src, out)
    quiet_build(plain, plain_out)

    def see_also(out: Path):
        dd = read_html(out / "glossary.html").find(id="term-attention-mask").find_next_sibling("dd")
        return dd.select_one('a[href="#term-token-type-ids"]')

    def edit_and_build(text: str) -> tuple[set[str], set[str]]:
        written = []
        for source, output in ((src, out), (plain, plain_out)):
            stamps = {p.name: p.stat().st_mtime_ns for p in output.glob("*.html")}
            page = source / "page03.md"
            page.write_text(page.read_text() + text)
            quiet_build(source, output)
            written.append(written_since(output, stamps))
        return written[0], written[1]

    assert "mlglossary-term" not in see_also(out)["class"]  # nothing cites it yet: no card
    cards = (out / "_static" / "mlglossary-cards.js").read_text(encoding="utf-8")
    ours, theirs = edit_and_build("\nOne more sentence.\n")
    assert "page03.html" in theirs and ours == theirs
    assert (out / "_static" / "mlglossary-cards.js").read_text(encoding="utf-8") == cards

    # a term only a "See also" mentioned is now cited: its link there gets the card
    ours, theirs = edit_and_build("\nAnd {term}`token type IDs`.\n")
    assert ours == theirs | {"glossary.html"}
    assert "mlglossary-term" in see_also(out)["class"]
    assert (out / "_static" / "mlglossary-cards.js").read_text(encoding="utf-8") != cards
    assert_same_output(clean_build(src, tmp_path, "cited"), out)


def test_reading_makes_no_autolink_pattern_the_main_process_could_have_made(make_app, tmp_path: Path):
    """Under ``-j`` each reading process is forked from the main one, a chunk of pages each:
    a pattern first made while a page is read was made again in every one of them (measured:
    11 patterns and 2 s of CPU in a ``-j 2`` build of a 96-page site, against 3 serially)."""
    from sphinxcontrib_mlglossary.domain import glossary_domain

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\nmlglossary_autolink = "first"\n'
        # an entry and a phrase: the phrase is no entry, so the pages' pattern leaves it out
        'mlglossary_autolink_exclude = ["tokenizer", "Cross Encoder"]\n'
    )
    (src / "index.md").write_text("# Home\n\n```{toctree}\npage\nglossary\n```\n")
    (src / "page.md").write_text(
        "# Page\n\nA transformer model reads the embeddings of its input through attention; "
        "a Cross Encoder scores pairs.\n\n## Training\n\nThe loss falls while the learning rate decays.\n"
    )
    (src / "glossary.md").write_text("# Glossary\n\n```{mlglossary}\n```\n")
    app = make_app("html", srcdir=src, freshenv=True)
    session = glossary_domain(app.env).session
    made_before_reading = set(session.patterns)
    app.build()
    assert set(session.patterns) == made_before_reading
    page = read_html(app.outdir / "page.html")
    assert page.select("a.mlglossary-term span.mlglossary-autolink")  # auto-linking ran, with those patterns
