"""A second project cites the first one's glossary through intersphinx, offline."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import read_html


def test_other_project_cites_terms(built_root, make_app, tmp_path: Path):
    glossary_app = built_root("basic-md")
    outdir = Path(glossary_app.outdir)

    other = tmp_path / "other"
    other.mkdir()
    (other / "conf.py").write_text(
        'extensions = ["myst_parser", "sphinx.ext.intersphinx"]\n'
        f"intersphinx_mapping = {{'ml': ({str(outdir)!r}, {str(outdir / 'objects.inv')!r})}}\n"
    )
    (other / "index.md").write_text("# Other\n\n{term}`attention mask`, {term}`MLM` and {term}`ml:ZeRO`\n")
    app = make_app("html", srcdir=other, freshenv=True)
    app.build()
    # a second app in one process re-registers Sphinx's own nodes: that notice is not ours
    problems = [line for line in app.warning.getvalue().splitlines() if "already registered" not in line]
    assert problems == []
    html = (app.outdir / "index.html").read_text()
    assert f'href="{outdir}/glossary.html#term-attention-mask"' in html
    assert f'href="{outdir}/glossary.html#term-masked-language-modeling"' in html
    assert f'href="{outdir}/glossary.html#term-zero-redundancy-optimizer"' in html


def _project_b(tmp_path: Path, outdir: Path, extensions: list[str]) -> Path:
    """A project with a glossary of its own (``MLM`` among its terms) mapping the first project."""
    other = tmp_path / ("b-" + "-".join(e.rsplit(".", 1)[-1] for e in extensions))
    other.mkdir()
    (other / "conf.py").write_text(
        f"extensions = {extensions!r}\n"
        f"intersphinx_mapping = {{'ml': ({str(outdir)!r}, {str(outdir / 'objects.inv')!r})}}\n"
    )
    (other / "index.md").write_text(
        "# B\n\n```{toctree}\nterms\n```\n\n"
        "Ours: {term}`MLM`, {term}`mlm`. Theirs: {term}`attention mask`, {term}`attention masks`.\n"
    )
    (other / "terms.md").write_text("# Terms\n\n```{glossary}\nMLM\n  Our own: a maximum likelihood method.\n```\n")
    return other


# either order of the two extensions: the answer must not depend on who registers first
EXTENSION_ORDERS = [
    ["myst_parser", "sphinx.ext.intersphinx", "sphinxcontrib_mlglossary"],
    ["myst_parser", "sphinxcontrib_mlglossary", "sphinx.ext.intersphinx"],
]


@pytest.mark.parametrize("extensions", EXTENSION_ORDERS, ids=["intersphinx-first", "mlglossary-first"])
def test_a_projects_own_term_wins_over_the_mapped_site(built_root, make_app, tmp_path: Path, extensions):
    """B defines ``MLM`` and maps a site built with this extension: B's ``MLM`` links to B's
    own term, while ``attention mask`` (no glossary page in B) goes to the other site."""
    glossary_app = built_root("basic-md")
    outdir = Path(glossary_app.outdir)

    app = make_app("html", srcdir=_project_b(tmp_path, outdir, extensions), freshenv=True)
    app.build()
    problems = [line for line in app.warning.getvalue().splitlines() if "already registered" not in line]
    assert problems == []
    page = read_html(app.outdir / "index.html")
    links = {a.get_text(): a["href"] for a in page.select("a.reference")}
    assert links["MLM"] == "terms.html#term-MLM"
    assert links["mlm"] == "terms.html#term-MLM"
    assert links["attention mask"] == f"{outdir}/glossary.html#term-attention-mask"
    # a plural of the other site's term reaches it by the canonical name
    assert links["attention masks"] == f"{outdir}/glossary.html#term-attention-mask"
