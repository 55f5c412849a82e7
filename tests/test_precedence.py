"""One rule, one result: which definition owns a term never depends on reading order or ``-j``.

Each project is built clean at ``-j 1`` and ``-j 2`` and the two outputs compared whole:
every HTML file, ``objects.inv``, ``glossary.json`` and the warnings. The pages that
clash are named so that Sphinx's parallel reader puts them in different chunks (it
reads documents in name order, ten to a chunk here), which is what made the worker
split decide before: the ML glossary page in the first chunk, the project's own terms
and the second ``mlglossary`` directive in the last.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest

from .conftest import inventory_terms, read_html
from .sphinx_process import quiet_build
from .test_parallel import assert_same_output

PAGES = 20
#: what every citing page cites: the project's names, their other forms, and ours
CITED = ["LoRA", "LoRAs", "lora", "epoch", "epochs", "Epochs", "tokenizer", "QLoRA", "low-rank adaptation"]
#: ``write_project(..., shown=CLASHING)``: an ML glossary page of the entries the clashes are about
#: (each name above is one of theirs). test_serial_and_parallel_builds_agree_and_the_project_wins
#: keeps the whole page in MyST, so the decision is also checked against every entry (exactly
#: three clashes); the other builds show these four and cost about 1.3 s of CPU less each.
CLASHING = ("epoch", "lora", "qlora", "tokenizer")


def chunks_of(docnames: list[str], jobs: int) -> list[list[str]]:
    """How Sphinx splits the documents to read between processes (``sphinx.util.parallel.make_chunks``)."""
    from sphinx.util.parallel import make_chunks

    return make_chunks(sorted(docnames), jobs)


def write_project(src: Path, markup: str, shown: Sequence[str] | None = None) -> None:
    """The issue's three scenarios in one project, in MyST or reStructuredText; ``page``: the
    entries the ML glossary page shows (None: all)."""
    src.mkdir(parents=True, exist_ok=True)
    md = markup == "md"
    extensions = '["myst_parser", "sphinxcontrib_mlglossary"]' if md else '["sphinxcontrib_mlglossary"]'
    (src / "conf.py").write_text(f'project = "precedence"\nextensions = {extensions}\n')
    suffix = ".md" if md else ".rst"
    pages = [f"page{n:02d}" for n in range(PAGES)]
    listed = [*pages, "glossary", "team", "tokens"]

    def page(name: str, title: str, body: str) -> None:
        underline = "" if md else "\n" + "=" * len(title)
        (src / f"{name}{suffix}").write_text(f"{'# ' if md else ''}{title}{underline}\n\n{body}")

    def directive(name: str, options: str = "", content: str = "") -> str:
        if md:
            return f"```{{{name}}}\n{options}{content}```\n"
        indented = "".join(f"   {line}\n" if line else "\n" for line in content.splitlines())
        return f".. {name}::\n" + "".join(f"   {line}\n" for line in options.splitlines()) + "\n" + indented

    def cite(term: str) -> str:
        return f"{{term}}`{term}`" if md else f":term:`{term}`"

    toc = "\n".join(listed) + "\n"
    page("index", "Home", directive("toctree", ":maxdepth: 1\n", toc))
    page("glossary", "ML glossary", directive("mlglossary", f":terms: {', '.join(shown)}\n" if shown else ""))
    # the project's own terms: one takes an abbreviation of ours (LoRA), one an entry's name (epoch)
    team = (
        "LoRA\n   Our adapter recipe, tuned for the team's models.\n\nepoch\n   One pass over our nightly data dump.\n"
    )
    page("team", "Team terms", directive("glossary", "", team))
    # a second directive showing an entry the first already shows
    page("tokens", "Tokens", directive("mlglossary", ":terms: tokenizer\n"))
    for number, name in enumerate(pages):
        cited = ", ".join(cite(term) for term in CITED[number % 3 :])
        page(name, f"Page {number}", f"Cites {cited}.\n")
    docnames = ["index", *listed]
    first, last = chunks_of(docnames, 2)[0], chunks_of(docnames, 2)[-1]
    assert "glossary" in first and {"team", "tokens"} <= set(last), "the clash must cross worker chunks"


def build(src: Path, out: Path, jobs: str) -> list[str]:
    """A clean build; its warnings (the build must not fail)."""
    shutil.rmtree(out, ignore_errors=True)
    stderr = quiet_build(src, out, "-E", "-j", jobs)
    if jobs != "1":
        assert "safe for parallel" not in stderr, stderr  # no serial fallback
    return sorted(line for line in stderr.splitlines() if "WARNING" in line)


def incremental(src: Path, out: Path, jobs: str) -> list[str]:
    return sorted(line for line in quiet_build(src, out, "-j", jobs).splitlines() if "WARNING" in line)


def assert_same_build(left: Path, right: Path) -> None:
    """HTML (whole files), the inventory and ``glossary.json`` alike."""
    assert_same_output(left, right)
    assert inventory_terms(left / "objects.inv") == inventory_terms(right / "objects.inv")
    assert (left / "glossary.json").read_bytes() == (right / "glossary.json").read_bytes()


def link_of(out: Path, page: str, text: str) -> str:
    """Where the first term link written ``text`` on a page goes."""
    link = read_html(out / page).find("a", string=re.compile(rf"^{re.escape(text)}$"))
    assert link is not None, f"no link {text!r} on {page}"
    return str(link["href"])


@pytest.mark.parametrize("markup", ["md", "rst"])
def test_serial_and_parallel_builds_agree_and_the_project_wins(tmp_path: Path, markup: str):
    src = tmp_path / "src"
    write_project(src, markup, shown=None if markup == "md" else CLASHING)
    serial_warnings = build(src, tmp_path / "serial", "1")
    parallel_warnings = build(src, tmp_path / "parallel", "2")
    serial, parallel = tmp_path / "serial", tmp_path / "parallel"
    assert serial_warnings == parallel_warnings
    assert_same_build(serial, parallel)

    for out in (serial, parallel):
        # the project's terms win their names in every case and form...
        for written in ("LoRA", "LoRAs", "lora"):
            assert link_of(out, "page00.html", written) == "team.html#term-LoRA", written
        # ... and the names of an entry whose name they take (epoch's alias "epochs")
        for written in ("epoch", "epochs", "Epochs"):
            assert link_of(out, "page00.html", written) == "team.html#term-epoch", written
        # our entry keeps the names the project did not take, and QLoRA, an entry of its own, is untouched
        assert link_of(out, "page00.html", "low-rank adaptation") == "glossary.html#term-lora"
        assert link_of(out, "page00.html", "QLoRA") == "glossary.html#term-qlora"
        assert link_of(out, "page00.html", "tokenizer") == "glossary.html#term-tokenizer"

        # the replaced entry is not shown; the one shown twice is shown once, on the first page
        glossary = read_html(out / "glossary.html")
        assert glossary.find(id="term-epoch") is None
        assert glossary.find(id="term-tokenizer") is not None
        assert glossary.find(id="term-lora") is not None
        tokens = read_html(out / "tokens.html")
        assert tokens.find(id="term-tokenizer") is None
        assert not tokens.select("dl.glossary dt")

        inventory = inventory_terms(out / "objects.inv")
        assert inventory["LoRA"].endswith("team.html#term-LoRA")
        assert inventory["epoch"].endswith("team.html#term-epoch")
        assert "epochs" not in inventory
        assert inventory["tokenizer"].endswith("glossary.html#term-tokenizer")
        assert inventory["low-rank adaptation"].endswith("glossary.html#term-lora")
        assert inventory["QLoRA"].endswith("glossary.html#term-qlora")

        data = json.loads((out / "glossary.json").read_text(encoding="utf-8"))
        ids = [(term["origin"], term["id"]) for term in data["terms"]]
        assert ids.count(("mlglossary", "tokenizer")) == 1
        assert ("mlglossary", "epoch") not in ids
        tokenizer = next(term for term in data["terms"] if term["id"] == "tokenizer")
        assert tokenizer["url"] == "glossary.html#term-tokenizer"
        assert len(tokenizer["backlinks"]) == PAGES

        genindex = read_html(out / "genindex.html")
        assert not genindex.select('a[href="tokens.html#term-tokenizer"]')
        assert not genindex.select('a[href="glossary.html#term-epoch"]')

    # one warning per clash, ours, naming the page, the entry and what to do; none of Sphinx's
    assert not [line for line in serial_warnings if "duplicate term description" in line]
    assert len(serial_warnings) == 3, serial_warnings
    assert all(line.endswith("[mlglossary.duplicate_term]") for line in serial_warnings)
    replaced, taken, twice = sorted(serial_warnings, key=lambda line: ("epoch" not in line, "LoRA" not in line))
    assert f"glossary{'.md' if markup == 'md' else '.rst'}" in replaced and "'epoch'" in replaced
    assert f"team{'.md' if markup == 'md' else '.rst'}" in replaced
    assert "'LoRA'" in taken and "low-rank adaptation" in taken
    assert f"tokens{'.md' if markup == 'md' else '.rst'}:" in twice and "'tokenizer'" in twice
    assert f"glossary{'.md' if markup == 'md' else '.rst'}" in twice


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_incremental_builds_follow_the_project_terms(tmp_path: Path, jobs: str):
    """Adding or removing a project term changes pages that are not re-read, as a clean build would."""
    src = tmp_path / "src"
    write_project(src, "md", shown=CLASHING)
    out = tmp_path / "incremental"
    build(src, out, jobs)
    team = src / "team.md"
    original = team.read_text()

    # the project's "epoch" goes: our entry comes back, on a glossary page that is not re-read
    team.write_text(original.replace("epoch\n   One pass over our nightly data dump.\n", ""))
    incremental(src, out, jobs)
    clean = tmp_path / "clean"
    build(src, clean, "1")
    assert_same_build(clean, out)
    assert read_html(out / "glossary.html").find(id="term-epoch") is not None
    assert link_of(out, "page00.html", "epochs") == "glossary.html#term-epoch"

    # and comes back: the entry goes again, and its warning with it
    team.write_text(original)
    warnings = incremental(src, out, jobs)
    build(src, clean, "1")
    assert_same_build(clean, out)
    assert read_html(out / "glossary.html").find(id="term-epoch") is None
    assert [line for line in warnings if "'epoch'" in line]
    assert not [line for line in warnings if "duplicate term description" in line]

    # the first page stops showing "tokenizer": the second page, not re-read, shows it now
    (src / "glossary.md").write_text("# ML glossary\n\n```{mlglossary}\n:terms: epoch, LoRA\n```\n")
    incremental(src, out, jobs)
    build(src, clean, "1")
    assert_same_build(clean, out)
    assert read_html(out / "tokens.html").find(id="term-tokenizer") is not None
    assert link_of(out, "page00.html", "tokenizer") == "tokens.html#term-tokenizer"


def test_the_decision_does_not_depend_on_the_order_pages_arrive_in():
    """What a parallel merge changes (the order of pages and terms) changes nothing decided."""
    from sphinxcontrib_mlglossary.loader import bundled_glossary
    from sphinxcontrib_mlglossary.precedence import ProjectTerm, settle

    glossary = bundled_glossary("en")
    pages = {
        "glossary": {entry.id: entry.anchor for entry in glossary},
        "reference/more": {"tokenizer": "term-tokenizer", "epoch": "term-epoch"},
        "a-first": {"tokenizer": "term-tokenizer"},
    }
    project = [ProjectTerm("LoRA", ("team", "term-LoRA")), ProjectTerm("Epoch", ("zz", "term-Epoch"))]
    decisions = []
    for made, terms in ((pages, project), (dict(reversed(pages.items())), project[::-1])):
        settled = settle(made, {}, lambda docname, entry_id: glossary.get(entry_id), terms)
        decisions.append(settled)
    first, second = decisions
    assert first.shown == second.shown and first.names == second.names and first.redirects == second.redirects
    assert sorted(first.clashes) == sorted(second.clashes)
    # the page first by name shows "tokenizer"; "epoch" goes to the project's "Epoch", aliases too
    assert first.shown["a-first"] == {"tokenizer": "term-tokenizer"}
    assert "tokenizer" not in first.shown["glossary"] and "epoch" not in first.shown["glossary"]
    assert "reference/more" not in first.shown
    assert first.redirects["epochs"] == ProjectTerm("Epoch", ("zz", "term-Epoch"))
    assert "LoRA" not in first.names and first.names["low-rank adaptation"] == ("glossary", "term-lora")
    assert {(clash.docname, clash.entry_id) for clash in first.clashes} == {
        ("glossary", "tokenizer"),
        ("glossary", "epoch"),
        ("glossary", "lora"),
        ("reference/more", "tokenizer"),
        ("reference/more", "epoch"),
    }
    # "epoch" is shown nowhere: on the second page too it gives way to the project's term
    again = next(clash for clash in first.clashes if clash.docname == "reference/more" and clash.entry_id == "epoch")
    assert again.project and again.winner == "zz"


@pytest.mark.parametrize("builder", ["singlehtml", "latex"])
def test_documents_assembled_from_pages_leave_out_the_same_entries(tmp_path: Path, builder: str):
    """singlehtml and LaTeX put every page in one document: each page's entries are still told apart."""
    src = tmp_path / "src"
    write_project(src, "md", shown=CLASHING)
    out = tmp_path / builder
    stderr = quiet_build(src, out, "-E", builder=builder)
    assert stderr.count("[mlglossary.duplicate_term]") == 3, stderr
    if builder == "singlehtml":
        ids = [element["id"] for element in read_html(out / "index.html").select("dt[id]")]
        assert ids.count("term-epoch") == 1 and ids.count("term-tokenizer") == 1
        assert "term-lora" in ids and "term-LoRA" in ids
    else:
        tex = next(out.glob("*.tex")).read_text(encoding="utf-8")
        labels = re.findall(r"\\label\{\\detokenize\{([^}]+:term-(?:epoch|tokenizer))\}", tex)
        assert sorted(labels) == ["glossary:term-tokenizer", "team:term-epoch"]
        # the name the project took is indexed once, for the project's term
        assert len(re.findall(r"\\index\{LoRA@", tex)) == 1


def test_a_glossary_files_notices_are_reported_once_under_every_j(tmp_path: Path):
    """The main process loads the file again after reading (cards, fingerprints): quietly."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["myst_parser", "sphinxcontrib_mlglossary"]\n')
    (src / "team.toml").write_text(
        'format = 1\nlanguage = "en"\n\n[[term]]\nid = "harness"\nname = "eval\u200bharness"\n'
        'summary = "The script that scores checkpoints."\nbody = "It runs after each epoch."\n',
        encoding="utf-8",
    )
    pages = [f"page{n:02d}" for n in range(12)]
    for name in pages:
        (src / f"{name}.md").write_text(f"# {name}\n\nCites {{term}}`evalharness`.\n")
    (src / "team.md").write_text("# Team\n\n```{mlglossary}\n:source: team.toml\n```\n")
    (src / "index.md").write_text("# Home\n\n```{toctree}\n" + "\n".join([*pages, "team"]) + "\n```\n")
    assert "team" not in chunks_of(["index", *pages, "team"], 2)[0]  # read by a worker process
    serial = build(src, tmp_path / "serial", "1")
    assert serial == build(src, tmp_path / "parallel", "2")
    assert len(serial) == 1 and "U+200B" in serial[0] and serial[0].startswith(str(src / "team.md"))


@pytest.mark.parametrize("markup", ["md", "rst"])
def test_a_file_shown_by_pages_of_two_workers_reports_its_notices_once(tmp_path: Path, markup: str):
    """Each ``-j`` worker reading a page that shows the file reported its notices again."""
    md = markup == "md"
    src = tmp_path / "src"
    src.mkdir()
    extensions = '["myst_parser", "sphinxcontrib_mlglossary"]' if md else '["sphinxcontrib_mlglossary"]'
    (src / "conf.py").write_text(f"extensions = {extensions}\n")
    (src / "team.toml").write_text(
        'format = 1\nlanguage = "en"\n\n[[term]]\nid = "harness"\nname = "eval\u200bharness"\n'
        'summary = "The script that scores checkpoints."\nbody = "It runs <b>after</b> each epoch."\n\n'
        '[[term]]\nid = "epoch"\nname = "epoch"\nsummary = "One pass over our data."\n'
        'body = "Our nightly dump."\n',
        encoding="utf-8",
    )
    suffix = ".md" if md else ".rst"

    def page(name: str, body: str) -> None:
        title = f"# {name}" if md else f"{name}\n{'=' * len(name)}"
        (src / f"{name}{suffix}").write_text(f"{title}\n\n{body}")

    def shows(terms: str) -> str:
        if md:
            return f"```{{mlglossary}}\n:source: team.toml\n:merge:\n:terms: {terms}\n```\n"
        return f".. mlglossary::\n   :source: team.toml\n   :merge:\n   :terms: {terms}\n"

    pages = [f"page{n:02d}" for n in range(12)]
    for name in pages:
        page(name, "Cites {term}`evalharness`.\n" if md else "Cites :term:`evalharness`.\n")
    # the same file (merged with the bundled glossary) shown by a page of each chunk
    page("aa", shows("harness"))
    page("zz", shows("epoch, tokenizer"))
    toc = "\n".join(["aa", *pages, "zz"])
    page(
        "index",
        f"```{{toctree}}\n{toc}\n```\n" if md else ".. toctree::\n\n" + "".join(f"   {n}\n" for n in toc.split()),
    )
    first, last = chunks_of(["index", "aa", *pages, "zz"], 2)[0], chunks_of(["index", "aa", *pages, "zz"], 2)[-1]
    assert "aa" in first and "zz" in last, "the two pages must be read by different workers"

    serial = build(src, tmp_path / "serial", "1")
    assert serial == build(src, tmp_path / "parallel", "2")
    assert_same_build(tmp_path / "serial", tmp_path / "parallel")
    # the file's notice once, at the first page showing it; the body's markup once, at the entry
    removed = [line for line in serial if "U+200B" in line]
    assert len(removed) == 1 and removed[0].startswith(f"{src / ('aa' + suffix)}:"), serial
    assert removed[0].endswith("[mlglossary.data]")
    assert len([line for line in serial if "'<b>'" in line]) == 1, serial
    assert len(serial) == 3, serial  # <b>, </b> and the character removed: nothing else

    # an incremental build reading neither page repeats nothing; reading the second one reports there
    (src / f"page00{suffix}").write_text((src / f"page00{suffix}").read_text() + "\nMore.\n")
    assert not incremental(src, tmp_path / "parallel", "2")
    (src / f"zz{suffix}").write_text((src / f"zz{suffix}").read_text() + "\nMore.\n")
    again = incremental(src, tmp_path / "parallel", "2")
    assert len(again) == 1 and again[0].startswith(f"{src / ('zz' + suffix)}:") and "U+200B" in again[0], again
