"""Cards can't be broken by what entries and pages contain (issue 21).

Definitions in a project's own glossary and bodies of glossary entries are text others
wrote: they may hold our internal markers, containers with our classes, or ids named
like ours. Every case is a real build whose HTML is parsed; where the script decides
what happens, a real headless Chromium checks the card still opens.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

SEPARATOR = "<!--mlglossary-card-separator-->"


def soup_of(app, page: str) -> BeautifulSoup:
    return BeautifulSoup((Path(app.outdir) / page).read_text(encoding="utf-8"), "html.parser")


def no_crash(app) -> str:
    warnings = app.warning.getvalue()
    assert "Traceback" not in warnings and "Exception occurred" not in warnings
    return warnings


def cards_by_href(soup: BeautifulSoup) -> dict[str, object]:
    return {card["data-mlglossary-href"]: card for card in soup.select("div.mlglossary-card[data-mlglossary-href]")}


# -- D: the comment that used to separate cards rendered together ------------------------------------

OWN_GLOSSARY = f"""# Terms

```{{glossary}}
checkpoint
  A saved state {SEPARATOR} of the model, written during training.

epoch
  One pass over the training data.
```

A {{term}}`checkpoint` each {{term}}`epoch`, and an {{term}}`attention mask`.
"""


@pytest.mark.parametrize("buildername", ["html", "dirhtml"])
def test_a_definition_holding_the_old_card_separator_builds(project, make_app, buildername):
    """``ValueError: zip() argument 2 is longer than argument 1`` before: cards were split on a comment."""
    srcdir = project({"terms.md": OWN_GLOSSARY})
    (srcdir / "index.md").write_text(
        (srcdir / "index.md").read_text(encoding="utf-8") + "\n```{toctree}\nterms\n```\n", encoding="utf-8"
    )
    app = make_app(buildername, srcdir=srcdir, freshenv=True)
    app.build()
    no_crash(app)
    page = {"html": "terms.html", "dirhtml": "terms/index.html", "singlehtml": "index.html"}[buildername]
    soup = soup_of(app, page)
    cards = soup.select("div.mlglossary-card")
    titles = sorted(card.select_one(".mlglossary-card-title").get_text(" ", strip=True) for card in cards)
    assert {"checkpoint", "epoch", "attention mask"} <= set(titles)
    # each card is whole: one title, one "Read more", its own summary
    for card in cards:
        assert len(card.select(".mlglossary-card-title")) == 1
        assert len(card.select(".mlglossary-card-more")) == 1
    epoch = next(c for c in cards if c.select_one(".mlglossary-card-title").get_text(strip=True) == "epoch")
    assert epoch.select_one(".mlglossary-card-summary").get_text(strip=True) == "One pass over the training data."
