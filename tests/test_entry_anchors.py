"""An entry keeps ``#term-<id>`` on its page even when the page used that id first.

A section titled "Term tokenizer" or a label ``term-epoch`` above the directive took the
id before the entry was made: the entry was left out as "shown twice" and citations of
it went nowhere. Built as MyST and reST twins, the HTML is read back: every id is
unique, every citation lands on its entry and every ``:ref:`` on its section.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from .conftest import read_html
from .sphinx_process import quiet_build

MD_GLOSSARY = """# Glossary

(tok-section)=
## Term tokenizer

A section above the glossary.

(term-epoch)=
## Epochs here

A label named like an entry's anchor.

```{glossary}
attention!
   Our own term, whose id Sphinx makes term-attention.
```

```{mlglossary}
:terms: tokenizer, epoch, attention, lora
```

## Term LoRA

A section below.
"""

RST_GLOSSARY = """Glossary
========

.. _tok-section:

Term tokenizer
--------------

A section above the glossary.

.. _term-epoch:

Epochs here
-----------

A label named like an entry's anchor.

.. glossary::

   attention!
      Our own term, whose id Sphinx makes term-attention.

.. mlglossary::
   :terms: tokenizer, epoch, attention, lora

Term LoRA
---------

A section below.
"""

CITES = ["tokenizer", "epoch", "attention", "attention!", "LoRA"]
#: citation -> the text of the definition term it must land on
LANDS_ON = {
    "tokenizer": "tokenizer",
    "epoch": "epoch",
    "attention": "attention",
    "attention!": "attention!",
    "LoRA": "low-rank adaptation (LoRA)",
}
#: label -> the heading of the section it must land on
SECTIONS = {"tok-section": "Term tokenizer", "term-epoch": "Epochs here"}


def write_project(src: Path, markup: str) -> None:
    src.mkdir(parents=True)
    md = markup == "md"
    extensions = '["myst_parser", "sphinxcontrib_mlglossary"]' if md else '["sphinxcontrib_mlglossary"]'
    (src / "conf.py").write_text(f"extensions = {extensions}\n")
    if md:
        (src / "index.md").write_text("# Home\n\n```{toctree}\nglossary\ncites\n```\n")
        (src / "glossary.md").write_text(MD_GLOSSARY)
        cites = ", ".join(f"{{term}}`{term}`" for term in CITES)
        refs = ", ".join(f"{{ref}}`{label}`" for label in SECTIONS)
        (src / "cites.md").write_text(f"# Cites\n\n{cites}; {refs}.\n")
    else:
        (src / "index.rst").write_text("Home\n====\n\n.. toctree::\n\n   glossary\n   cites\n")
        (src / "glossary.rst").write_text(RST_GLOSSARY)
        cites = ", ".join(f":term:`{term}`" for term in CITES)
        refs = ", ".join(f":ref:`{label}`" for label in SECTIONS)
        (src / "cites.rst").write_text(f"Cites\n=====\n\n{cites}; {refs}.\n")


@pytest.mark.parametrize("markup", ["md", "rst"])
def test_an_entry_takes_its_anchor_back_from_what_the_page_wrote_above_it(tmp_path: Path, markup: str):
    src, out = tmp_path / "src", tmp_path / "html"
    write_project(src, markup)
    stderr = quiet_build(src, out, "-E")
    assert "WARNING" not in stderr, stderr  # no entry "shown twice", no citation unknown

    glossary = read_html(out / "glossary.html")
    ids = Counter(element["id"] for element in glossary.select("[id]"))
    assert [given for given, count in ids.items() if count > 1] == []
    for term in ("tokenizer", "epoch", "lora"):
        assert glossary.find(id=f"term-{term}").name == "dt"

    links = read_html(out / "cites.html").select("a[href^='glossary.html#']")
    by_text = {link.get_text(): link["href"].partition("#")[2] for link in links}
    for cited, shown in LANDS_ON.items():
        target = glossary.find(id=by_text[cited])
        assert target is not None and target.name == "dt", (cited, by_text[cited])
        assert target.get_text().rstrip("¶") == shown, cited
    # our entry is at its stable anchor; only the project's own term keeps the id it took first
    assert by_text["tokenizer"] == "term-tokenizer" and by_text["epoch"] == "term-epoch"
    assert by_text["attention!"] == "term-attention" and by_text["attention"] == "term-attention-2"
    for label, heading in SECTIONS.items():
        landing = glossary.find(id=by_text[heading])
        assert landing is not None, label
        # the section itself, or (reST) the label's own empty mark in it, just above its heading
        section = landing if landing.name == "section" else landing.find_parent("section")
        assert landing.name == "section" or not landing.get_text(), label
        assert section.find(["h2"]).get_text().rstrip("¶") == heading


@pytest.mark.parametrize("markup", ["md", "rst"])
def test_on_the_single_page_an_entry_keeps_its_anchor_from_other_pages_sections(tmp_path: Path, markup: str):
    """Each page's ids are unique on their own; on one assembled page a section of another
    page titled "Term attention" held ``term-attention`` too, and took the entry's links."""
    src, out = tmp_path / "src", tmp_path / "single"
    write_project(src, markup)
    md = markup == "md"
    section = "## Term attention\n\nA section of another page.\n" if md else "Term attention\n--------------\n\nText.\n"
    intro = ("# Intro\n\n" if md else "Intro\n=====\n\n") + section
    (src / f"intro.{markup}").write_text(intro)
    index = src / f"index.{markup}"
    index.write_text(index.read_text().replace("glossary", "intro\n" + ("" if md else "   ") + "glossary", 1))
    stderr = quiet_build(src, out, "-E", builder="singlehtml")
    assert "WARNING" not in stderr, stderr
    page = read_html(out / "index.html")
    ids = Counter(element["id"] for element in page.select("[id]"))
    assert [given for given, count in ids.items() if count > 1] == []
    assert page.find(id="term-attention-2").name == "dt"  # (the project's own attention! keeps term-attention)
    links = [link for link in page.select('a[href^="#term-"]') if "headerlink" not in link.get("class", ())]
    assert {link["href"] for link in links} >= {"#term-attention", "#term-attention-2", "#term-tokenizer"}
    for link in links:
        target = page.find(id=link["href"].lstrip("#"))
        assert target is not None and target.name == "dt", link
    moved = page.find(id="term-attention-1")
    assert (
        moved is not None and moved.name == "section"
    )  # its heading links to it there and "Term attention" in moved.find(["h2", "h3"]).get_text()
