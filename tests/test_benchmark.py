"""The benchmark runner works end to end on a tiny project (no timing assertions)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from benchmarks.generate import generate
from benchmarks.measure import package_folder
from benchmarks.run import format_table, main, use_enlarged_glossary


def test_generated_twins_cite_the_same_terms(tmp_path: Path):
    plain = generate(tmp_path / "plain", pages=2, citations=8, terms=10, fmt="rst", extension=False)
    ours = generate(tmp_path / "ours", pages=2, citations=8, terms=10, fmt="rst", extension=True)
    assert (plain / "page0001.rst").read_text() == (ours / "page0001.rst").read_text()
    assert ".. glossary::" in (plain / "glossary.rst").read_text()
    assert ".. mlglossary::" in (ours / "glossary.rst").read_text()


def test_runner_reports_ratios(tmp_path: Path):
    # no warm-up pair: the report's shape is under test here, not its figures (a warm-up pair
    # is six more builds of the same code path, dropped)
    report = main(
        ["--pages", "3", "--citations", "8", "--pairs", "1", "--warmup", "0", "--workdir", str(tmp_path), "--no-sites"]
    )
    ratios = report["ratios"]
    assert set(ratios) == {
        "serial_s",
        "serial_cpu_s",
        "parallel_s",
        "parallel_cpu_s",
        "incremental_s",
        "incremental_cpu_s",
        "incremental_pages_written",
        "maxrss_kib",
        "output_bytes",
    }
    assert all(value > 0 for value in ratios.values())
    # every pair's values are kept, so a report can say which targets hold in each pair
    assert report["rounds"]["mlglossary"]["serial_cpu_s"] == [report["medians"]["mlglossary"]["serial_cpu_s"]]
    # an edit that changes no citation makes the extension write no page Sphinx doesn't
    written = {variant: report["medians"][variant]["incremental_pages_written"] for variant in ("plain", "mlglossary")}
    assert written["plain"] == written["mlglossary"] >= 1
    assert report["extension_bytes_per_page"] > 0
    assert "| serial_s |" in format_table(report)


def test_extension_bytes_count_the_card_block(tmp_path: Path):
    from benchmarks.run import _card_block_bytes

    html = '<p>x</p><div class="mlglossary-cards no-search" hidden><div class="mlglossary-card">a</div></div><p>y</p>'
    block = html[html.index("<div") : html.index("<p>y")]
    assert _card_block_bytes(html) == len(block)
    assert _card_block_bytes("<p>no cards</p>") == 0


def test_autolink_comparison(tmp_path: Path):
    report = main(
        [
            "--pages",
            "3",
            "--citations",
            "8",
            "--pairs",
            "1",
            "--warmup",
            "0",
            "--compare",
            "autolink",
            "--workdir",
            str(tmp_path),
            "--no-sites",
        ]
    )
    assert (report["baseline"], report["candidate"]) == ("autolink-off", "autolink-first")
    assert "mlglossary_autolink = 'first'" in (tmp_path / "autolink-first" / "src" / "conf.py").read_text()
    page = (tmp_path / "autolink-first" / "out" / "page0001.html").read_text()
    assert "mlglossary-autolink" in page
    assert "| serial_s |" in format_table(report)


def test_scale_report(tmp_path: Path):
    from benchmarks.scale import format_table as scale_table
    from benchmarks.scale import main as scale_main

    report = scale_main(["2x4", "4x8", "--workdir", str(tmp_path)])
    rows = report["rows"]
    assert [(row["pages"], row["citations_per_page"]) for row in rows] == [(2, 4), (4, 8)]
    for row in rows:
        assert row["plain_maxrss_mib"] > 0 and row["mlglossary_maxrss_mib"] > 0
        assert row["extension_env_bytes_per_citation"] > 0  # its records are in the environment
    assert set(report["memory_per_page_kib"]) == {"plain", "mlglossary"}
    assert "| 4 | 8 |" in scale_table(rows)


# -- real sites: preparation and measurement, on a tiny site made here (no network) --

_FAKE_SITE = {
    "docs/conf.py": "raise RuntimeError('the site configuration is replaced, never run')\n",
    "docs/index.rst": (
        "Fake ML library\n"
        "===============\n\n"
        ".. toctree::\n"
        "   :maxdepth: 1\n\n"
        "   guide\n"
        "   short\n"
        "   Training <training.md>\n"
        "   api\n"
        "   walkthrough\n"
        "   ../other_repo/README\n"
    ),
    "docs/guide.md": (
        "# Guide\n\n"
        "Lower the learning rate when the loss diverges; gradient descent then settles.\n\n"
        "```{tab} PyTorch\n"
        "Call the optimizer after the backward pass.\n"
        "```\n\n"
        "```{eval-rst}\n"
        ".. autofunction:: fakelib.train\n\n"
        "A sentence after the API block stays.\n"
        "```\n"
    ),
    "docs/training.md": "# Training\n\nThe batch size sets how many samples one step sees.\n",
    "docs/api.rst": "API\n===\n\n.. automodule:: fakelib\n   :members:\n",
    "docs/walkthrough.ipynb": '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n',
    "docs/short.rst": ".. _short:\nShort\n===\n\nA page whose title underline is too short.\n",
}


def _git(repo: Path, *args: str) -> str:
    import subprocess

    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env={**env, "HOME": str(repo)}
    ).stdout.strip()


def _fake_site(tmp_path: Path):
    """A git repository whose first commit holds the site, and a later commit that must not be exported."""
    from benchmarks.site_prep import Site

    repo = tmp_path / "repo"
    for name, text in _FAKE_SITE.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "site")
    pinned = _git(repo, "rev-parse", "HEAD")
    (repo / "docs/training.md").write_text("# Training\n\nText written after the pinned commit.\n")
    _git(repo, "commit", "-qam", "later")
    site = Site(
        name="fake",
        repository="example/fake",
        commit=pinned,
        kind="test",
        export=("docs",),
        source_dir="docs",
        root_doc="index",
        source_suffix={".rst": "restructuredtext", ".md": "markdown"},
        strip=("api.rst",),
        shim_directives={"tab": "body"},
    )
    return site, repo / ".git"


def test_site_preparation_exports_the_pinned_commit_and_strips_what_cannot_build(tmp_path: Path):
    from benchmarks.site_prep import GLOSSARY_DOC, load, prepare

    site, git_dir = _fake_site(tmp_path)
    prepared = prepare(site, git_dir, tmp_path / "build")
    plain, ours = prepared.variant("plain"), prepared.variant("autolink")
    assert "samples one step sees" in (plain / "training.md").read_text()  # the pinned text, not the later one
    assert prepared.stripped["api.rst"].startswith("API page")
    assert prepared.stripped["walkthrough.ipynb"] == "notebook"
    assert prepared.stripped["guide.md"] == "1 autodoc/autosummary directives removed from the page"
    guide = (plain / "guide.md").read_text()
    assert "autofunction" not in guide and "A sentence after the API block stays." in guide
    assert sorted(prepared.toctree_entries_removed) == [
        "index: ../other_repo/README",
        "index: api",
        "index: walkthrough",
    ]
    assert "Training <training.md>" in (plain / "index.rst").read_text()
    assert (plain / "short.rst").read_text().startswith(".. _short:\n\nShort\n=====\n")  # slips mended
    assert prepared.mended == ["short.rst"]
    assert "_site_shims" in (plain / "conf.py").read_text()
    assert "sphinxcontrib_mlglossary" not in (plain / "conf.py").read_text()
    assert not (plain / f"{GLOSSARY_DOC}.md").exists()
    assert f"   {GLOSSARY_DOC}\n" in (ours / "index.rst").read_text()
    assert "mlglossary_autolink = 'first'" in (ours / "conf.py").read_text()
    assert "mlglossary_autolink" not in (prepared.variant("mlglossary") / "conf.py").read_text()
    again = load("fake", tmp_path / "build")
    assert again is not None and again.commit == site.commit and again.stripped == prepared.stripped


def test_site_preparation_refuses_a_commit_the_snapshot_lacks(tmp_path: Path):
    import dataclasses

    import pytest

    from benchmarks.site_prep import prepare

    site, git_dir = _fake_site(tmp_path)
    with pytest.raises(SystemExit, match="fetch a snapshot that has it"):
        prepare(dataclasses.replace(site, commit="0" * 40), git_dir, tmp_path / "build")


def test_site_measurement_builds_every_variant_without_warnings(tmp_path: Path):
    from bs4 import BeautifulSoup

    from benchmarks.site_bench import format_site_table, measure_site
    from benchmarks.site_prep import GLOSSARY_DOC, prepare

    site, git_dir = _fake_site(tmp_path)
    prepared = prepare(site, git_dir, tmp_path / "build")
    report = measure_site(prepared, tmp_path / "work", reps=1, warmup=0, variants=("plain", "autolink"))
    assert set(report["ratios"]) == {"autolink"}
    assert [len(values) for values in report["rounds"]["autolink"].values()] == [1] * 8  # every round kept
    for variant in ("plain", "autolink"):
        assert report["medians"][variant]["warnings"] == 0
    out = tmp_path / "work" / "fake"
    assert not (out / "plain" / "serial" / f"{GLOSSARY_DOC}.html").exists()
    assert (out / "autolink" / "j2" / f"{GLOSSARY_DOC}.html").exists()
    guide = BeautifulSoup((out / "autolink" / "serial" / "guide.html").read_text(), "html.parser")
    linked = {a.get_text() for a in guide.select("a") if a.select_one(".mlglossary-autolink")}
    # the tab stand-in kept its text; the page names three entries, so the context rule
    # links the everyday word "optimizer" too, and "loss", a word of two senses, since its
    # sentence also names "learning rate" and "gradient descent"
    assert linked == {"learning rate", "gradient descent", "backward pass", "optimizer", "loss"}
    assert "Call the optimizer after the backward pass." in guide.get_text()  # the stand-in kept the tab's text
    plain_guide = BeautifulSoup((out / "plain" / "serial" / "guide.html").read_text(), "html.parser")
    assert not plain_guide.select(".mlglossary-autolink")
    assert report["ratios"]["autolink"]["output_bytes"] > 1
    table = format_site_table(report)
    assert "| clean build, serial, CPU (s) |" in table and "| warnings | 0 | 0 |" in table


def test_sites_build_writes_a_variant_where_issue_30_reads_it(tmp_path: Path):
    from benchmarks.site_prep import prepare
    from benchmarks.sites import build

    site, git_dir = _fake_site(tmp_path)
    prepare(site, git_dir, tmp_path / "build")
    out = build("fake", "plain", "text", build_root=tmp_path / "build")
    assert out == tmp_path / "build" / "fake" / "text" / "plain"
    assert "A sentence after the API block stays." in (out / "guide.txt").read_text()


def test_runner_skips_sites_not_prepared(tmp_path: Path, capsys):
    report = main(["--no-synthetic", "--sites", "mmengine", "--sites-dir", str(tmp_path / "none")])
    assert report["sites"] == {}
    assert "not prepared" in report["sites_skipped"]["mmengine"]
    assert "mmengine: skipped" in capsys.readouterr().out


def test_toctree_pruning_keeps_what_exists():
    from benchmarks.toctrees import prune

    text = "```{toctree}\n:maxdepth: 2\n\nintro\nGone <gone.md>\nhttps://example.org\n```\n\nAfter.\n"
    pruned, removed = prune(text, "sub/index", (".md",), {"sub/intro", "sub/index"}.__contains__)
    assert pruned == "```{toctree}\n:maxdepth: 2\n\nintro\nhttps://example.org\n```\n\nAfter.\n"
    assert removed == ["Gone <gone.md>"]


def test_rst_fixes_mend_only_what_docutils_warns_about():
    from benchmarks.rst_fixes import end_explicit_markup, lengthen_adornments

    assert lengthen_adornments("####\nTitle\n####\n\nText\n") == "#####\nTitle\n#####\n\nText\n"
    assert lengthen_adornments("Title\n=========\n") == "Title\n=========\n"
    assert end_explicit_markup("..\n    a comment\nText\n") == "..\n    a comment\n\nText\n"
    assert end_explicit_markup(".. _a:\n.. _b:\n\nTitle\n") == ".. _a:\n.. _b:\n\nTitle\n"


def test_a_mention_made_curly_by_smart_quotes_is_found_in_the_source():
    from benchmarks.autolink_locate import name_regex

    source = "Use the template from the checkpoint's\ntokenizer config."
    assert name_regex("checkpoint’s").search(source) is not None
    assert name_regex("checkpoint").search("checkpointing") is None  # still whole words only


def test_phase_timers_time_transforms_handlers_and_pages(tmp_path: Path):
    """``benchmarks.phase_timers`` builds serially and with ``-j 2`` and names where the time went."""
    import subprocess
    import sys

    from benchmarks.phase_timers import compare, totals

    src = generate(tmp_path / "src", pages=2, citations=8, terms=10, fmt="rst", extension=True)
    out = tmp_path / "timers.json"
    for jobs in ("1", "2"):
        sphinx_args = ["-E", "-q", "-j", jobs, "-b", "html", str(src), str(tmp_path / f"html{jobs}")]
        subprocess.run(
            [sys.executable, "-m", "benchmarks.phase_timers", str(out), "--", *sphinx_args],
            check=True,
            cwd=Path(__file__).parent.parent,
        )
        found = totals(out)
        assert found["build (main process)"] > 0
        assert any(key.startswith("transform:sphinxcontrib_mlglossary.") for key in found)
        assert any(key.startswith("event:builder-inited:sphinxcontrib_mlglossary.") for key in found)
        assert "page:resolve:glossary" in found
        assert ("page:write:glossary" in found) == (jobs == "1")  # under -j, pages are written by workers
    assert "worker|worker:result-MB" in totals(out)
    assert compare(out, out).splitlines() == [f"{'A - B':>8} {'A':>8} {'B':>8}  key"]


def test_hand_written_baseline_holds_every_entry_as_plain_myst(tmp_path: Path):
    """page_cost's fair baseline: the same entries on a page plain Sphinx can build, no role of ours left."""
    from benchmarks.page_cost import hand_written_project
    from sphinxcontrib_mlglossary.loader import bundled_glossary

    source = hand_written_project(tmp_path)
    assert "sphinxcontrib_mlglossary" not in (source / "conf.py").read_text(encoding="utf-8")
    page = (source / "glossary.md").read_text(encoding="utf-8")
    headings = [line[3:] for line in page.splitlines() if line.startswith("## ")]
    assert headings == [entry.name for entry in bundled_glossary("en").entries]
    assert "{term}" not in page and "requires=" not in page
    assert "See also: " in page


def test_an_enlarged_glossary_is_what_the_runs_builds_import(tmp_path: Path, monkeypatch):
    """``--entries``: the builds import the copy, whose added entries have stored bodies (a
    copy whose bodies were left stale had each build parse them, and measured that)."""
    monkeypatch.delenv("PYTHONPATH", raising=False)
    root = use_enlarged_glossary(tmp_path / "copy", 270, ["en"])
    assert package_folder(os.environ["PYTHONPATH"]) == (root / "sphinxcontrib_mlglossary").resolve()
    counted = subprocess.run(
        [
            sys.executable,
            "-P",
            "-c",
            "from sphinxcontrib_mlglossary.loader import bundled_glossary as g\n"
            "from sphinxcontrib_mlglossary.prerendered import bundled_prerendered as p\n"
            "entries, stored = list(g('en')), p('en')\n"
            "print(len(entries), sum(stored.fragment(e.id, e.body) is not None for e in entries))",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    total, stored = map(int, counted.stdout.split())
    assert total == 270
    # every body is stored but the shipped ones that hold a note or a table
    assert stored >= total - 5
