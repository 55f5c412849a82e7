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

from .conftest import CARD_ID, card_key, read_html_with_cards
from .hostile_data import entry, glossary_toml

SEPARATOR = "<!--mlglossary-card-separator-->"


def soup_of(app, page: str) -> BeautifulSoup:
    """The page with the cards its links name, as the script puts them in it."""
    return read_html_with_cards(Path(app.outdir) / page)


def no_crash(app) -> str:
    warnings = app.warning.getvalue()
    assert "Traceback" not in warnings and "Exception occurred" not in warnings
    return warnings


def cards_by_href(soup: BeautifulSoup) -> dict[str, object]:
    return {card["data-mlglossary-href"]: card for card in soup.select("div.mlglossary-card[data-mlglossary-href]")}


# -- D: the comment that used to separate cards rendered together ------------------------------------

OWN_GLOSSARY = f"""# Terms

```{{glossary}}
savepoint
  A saved state {SEPARATOR} of the model, written during training.

warm restart
  One pass over the training data.
```

A {{term}}`savepoint` each {{term}}`warm restart`, and an {{term}}`attention mask`.
"""


@pytest.mark.parametrize("buildername", ["html", "dirhtml", "singlehtml"])
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
    assert {"savepoint", "warm restart", "attention mask"} <= set(titles)
    # each card is whole: one title, one "Read more", its own summary
    for card in cards:
        assert len(card.select(".mlglossary-card-title")) == 1
        assert len(card.select(".mlglossary-card-more")) == 1
    restart = next(c for c in cards if c.select_one(".mlglossary-card-title").get_text(strip=True) == "warm restart")
    assert restart.select_one(".mlglossary-card-summary").get_text(strip=True) == "One pass over the training data."


# -- E: content that copies our class or our ids ---------------------------------------------------

FORGED_BOX = """# Terms

````{glossary}
checkpoint
  A saved state of the model.

  ```{container} mlglossary-cards
  A box with the class of our card block.
  ```

epoch
  One pass over the data; a {term}`checkpoint` is written after each.
````

```{topic} A topic named like a card
:name: mlglossary-card-term-checkpoint
Its id is the one cards had before.
```

```{topic} Another
:name: mlglossary-card--term-epoch
Named like a card today: the two hyphens become one.
```

A {term}`checkpoint` and an {term}`epoch`, and an {term}`attention mask`.
"""

BODY_WITH_BOX = "Body.\n\n```{container} mlglossary-cards\nA box in an entry body.\n```\n"


@pytest.fixture
def forged(use_glossary, project, make_app):
    """A project whose own glossary and whose glossary file both hold boxes with our card block's class."""
    use_glossary(
        glossary_toml(
            [
                entry("attention-mask", "attention mask", body=BODY_WITH_BOX, summary="Marks padding."),
                entry("token", "token", body="A piece of text; see {term}`attention mask`."),
            ]
        )
    )
    srcdir = project({"terms.md": FORGED_BOX})
    app = make_app("html", srcdir=srcdir, freshenv=True)
    app.build()
    no_crash(app)
    return app


def test_content_cannot_take_a_card_id_or_pass_for_the_card_block(forged):
    for page in ("terms.html", "glossary.html"):
        soup = soup_of(forged, page)
        ids = [element["id"] for element in soup.select("[id]")]
        assert len(ids) == len(set(ids)), page
        # the project's own boxes are there, with the class; glossary data's keep their text
        # but lose our class (markup.drop_own_classes) ...
        assert len(soup.select("div.mlglossary-cards")) >= (2 if page == "terms.html" else 1), page
        if page == "glossary.html":
            assert "A box in an entry body." in soup.get_text()
        # ... and one block carries the attribute only our writer writes, last of all
        blocks = soup.select("div.mlglossary-cards[data-mlglossary-trigger]")
        assert len(blocks) == 1, page
        assert blocks[0] is soup.select("div.mlglossary-cards")[-1]
        cards = blocks[0].select(":scope > div.mlglossary-card")
        assert cards and all(card["id"].startswith("mlglossary-card--") for card in cards)
    terms = soup_of(forged, "terms.html")
    # the topics keep their ids (docutils makes "mlglossary-card-term-epoch" of the second name) ...
    for topic_id in ("mlglossary-card-term-checkpoint", "mlglossary-card-term-epoch"):
        assert "topic" in terms.find(id=topic_id)["class"]
    # ... and the cards of the same terms have their own
    for anchor in ("term-checkpoint", "term-epoch"):
        link = next(a for a in terms.select("a.mlglossary-term") if a["href"].endswith("#" + anchor))
        assert "mlglossary-card" in terms.find(id=CARD_ID + card_key(link))["class"]


@pytest.mark.browser
def test_cards_open_on_a_page_with_a_forged_block(forged):
    """Before: the script took the content's box for the card block and no card opened."""
    browser_test = pytest.importorskip("tests.test_browser")
    with browser_test.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_test.CHROMIUM, args=browser_test.ARGS)
        errors: list[str] = []
        try:
            for name in ("terms.html", "glossary.html"):
                page = browser.new_page(viewport={"width": 1000, "height": 700})
                page.on("pageerror", lambda error: errors.append(str(error)))
                page.goto((Path(forged.outdir) / name).as_uri())
                page.mouse.move(1, 1)
                links = page.locator("a.mlglossary-term[aria-describedby]")
                assert links.count() >= 1, name
                for index in range(links.count()):
                    link = links.nth(index)
                    link.scroll_into_view_if_needed()
                    link.hover()
                    card = page.locator(f'[id="{link.get_attribute("aria-describedby")}"]')
                    browser_test.shown(card)
                    assert "mlglossary-card" in card.get_attribute("class")
                    page.mouse.move(1, 1)
                    browser_test.expect(card).to_be_hidden()
                assert errors == []
                page.close()
        finally:
            browser.close()


# -- F: singlehtml ------------------------------------------------------------------------------------


@pytest.fixture
def single(root_app):
    app = root_app("singlehtml", "tooltips")
    app.build()
    assert app.warning.getvalue() == ""
    return app


def test_singlehtml_has_one_card_block_and_term_links_that_land(single):
    """Before: no card at all, and term links written ``#document-glossary#term-...`` (no such id)."""
    soup = soup_of(single, "index.html")
    ids = {element["id"] for element in soup.select("[id]")}
    blocks = soup.select("div.mlglossary-cards[data-mlglossary-trigger]")
    assert len(blocks) == 1
    cards = cards_by_href(soup)
    links = [
        a
        for a in soup.select("a.reference.internal")
        if a.select_one(".std-term") and not a.find_parent(class_="mlglossary-card")
    ]
    assert len(links) >= 8
    for link in links:
        href = link["href"]
        assert href.startswith("#") and href[1:] in ids, href
        # a glossary's own links ("See also") get the card of a term cited elsewhere only:
        # they don't make every entry "cited" (issue 27)
        if link.find_parent("dl", class_="glossary") is None or "mlglossary-term" in link["class"]:
            assert "mlglossary-term" in link["class"] and link.get("title"), href
            assert href in cards, href
    outside = [a for a in links if a.find_parent("dl", class_="glossary") is None]
    assert len(outside) >= 4 and all(a["href"] in cards for a in outside)
    # links inside cards land too ("Read more", terms in summaries), and so do the backlinks
    for card in cards.values():
        for a in card.select("a[href]"):
            assert a["href"].startswith("#") and a["href"][1:] in ids, a["href"]
    backlinks = soup.select(".mlglossary-backlinks a[href]")
    assert backlinks
    for a in backlinks:
        assert a["href"][1:] in ids, a["href"]
    assert soup.select('script[src*="mlglossary.js"]') and soup.select('link[href*="mlglossary.css"]')


@pytest.mark.browser
def test_singlehtml_cards_open_and_links_land_in_a_browser(single):
    browser_test = pytest.importorskip("tests.test_browser")
    with browser_test.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_test.CHROMIUM, args=browser_test.ARGS)
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 700})
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto((Path(single.outdir) / "index.html").as_uri())
            page.mouse.move(1, 1)
            link = page.locator('a.mlglossary-term[href="#term-attention-mask"]').first
            link.scroll_into_view_if_needed()
            link.hover()
            card = page.locator(f'[id="{link.get_attribute("aria-describedby")}"]')
            browser_test.shown(card)
            assert card.locator(".mlglossary-card-title").inner_text() == "attention mask"
            card.locator(".mlglossary-card-more a").click()
            page.wait_for_url("**/index.html#term-attention-mask")
            target = page.locator('[id="term-attention-mask"]')
            assert target.evaluate("(t) => t.getBoundingClientRect().top") < 50  # scrolled to the term
            assert errors == []
        finally:
            browser.close()
