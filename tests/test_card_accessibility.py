"""Cards by the ARIA patterns, checked in headless Chromium (issue 18).

- axe-core (bundled by ``axe-playwright-python``) finds no serious or critical violation
  in the extension's elements (term links, cards, the glossary block: every kind of
  element it holds, see ``mark_glossary_sample``) on a glossary page and on a page with a
  card open, in English and Arabic, light and dark, in furo and
  pydata-sphinx-theme;
- click mode says what a click does (``aria-expanded``);
- landing on a citation (a "Cited in" link, a shared URL, back and forward) highlights it
  and opens no card, while a real keyboard focus still opens one;
- our stylesheet leaves the theme's own elements alone.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from bs4 import Tag

from .conftest import finished_build, read_html
from .test_browser import (  # browser and open_page are fixtures, used by name
    HIDE_DELAY,
    ROOT,
    browser,  # noqa: F401
    card_of,
    expect,
    open_page,  # noqa: F401
    shared_site,
    shown,
    stays_hidden,
    terms,
)
from .test_themes import BY_NAME, theme_site
from .test_themes import ROOT as THEMES_ROOT

try:
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - the test extra installs it
    Axe = None

pytestmark = pytest.mark.browser

OURS = ".mlglossary, .mlglossary-card:not([hidden]), a.mlglossary-term"
THEMES = ["furo", "pydata_sphinx_theme"]
#: checked in Arabic only (right to left, from the extension's dir="rtl"), light; not
#: sphinx-rtd-theme: its own colour for inline code (and for links) is below 4.5:1 in
#: any language, which axe reports inside our glossary
RIGHT_TO_LEFT_ONLY = ["sphinx_book_theme"]


class Sites:
    """``sites["hover"]``, ``sites["click"]``, ``sites[theme, language]``: each built when a test
    first opens it, once per session (``shared_site``, ``theme_site``), so a test of the
    tooltips root waits for no theme's build."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory) -> None:
        self.factory = tmp_path_factory

    def __getitem__(self, key: str | tuple[str, str]) -> Path:
        if key == "hover":
            return shared_site(self.factory)
        if key == "click":
            return shared_site(self.factory, "mlglossary_tooltip_trigger=click")
        name, language = key
        return theme_site(self.factory, name, language)


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Sites:
    return Sites(tmp_path_factory)


@pytest.fixture(scope="module")
def axe():
    if Axe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but axe-playwright-python is not installed (pip install -e '.[test]')")
        pytest.skip("axe-playwright-python is not installed")
    return Axe()


def axe_results(axe, page, include: str = OURS) -> dict:
    """axe's response for the elements ``include`` selects."""
    # no preload: axe would fetch the stylesheets again, which file:// pages refuse
    return axe.run(
        page, context={"include": [include]}, options={"resultTypes": ["violations"], "preload": False}
    ).response


def serious_in(results: dict) -> list[str]:
    """Serious and critical violations of an axe response, one line each with the nodes concerned."""
    return [
        f"{violation['id']} ({violation['impact']}): {[node['target'] for node in violation['nodes']]}"
        for violation in results["violations"]
        if violation["impact"] in {"serious", "critical"}
    ]


def serious(axe, page) -> list[str]:
    """Serious and critical axe violations in our elements."""
    return serious_in(axe_results(axe, page))


#: marks the entries axe checks on a glossary page; see ``mark_glossary_sample``
SAMPLE = "[data-axe-sample]"
_MARK_SAMPLE = """() => {
  const kind = (el) => el.tagName + "." + [...el.classList].sort().join(".");
  const pair = (el) => kind(el.parentElement) + ">" + kind(el);
  const seen = new Set();
  let entries = 0;
  for (const glossary of document.querySelectorAll(".mlglossary")) {
    for (const part of glossary.children) {
      if (!part.matches("dl.glossary") && !part.querySelector("dl.glossary")) part.setAttribute("data-axe-sample", "");
    }
    for (const term of glossary.querySelectorAll("dl.glossary > dt")) {
      const parts = [term];
      for (let next = term.nextElementSibling; next && next.tagName === "DD"; next = next.nextElementSibling) parts.push(next);
      const pairs = new Set(parts.flatMap((p) => [p, ...p.querySelectorAll("*")].map(pair)));
      if ([...pairs].some((k) => !seen.has(k))) {
        pairs.forEach((k) => seen.add(k));
        parts.forEach((p) => p.setAttribute("data-axe-sample", ""));
        entries++;
      }
    }
  }
  return { entries, kinds: seen.size, all: document.querySelectorAll(".mlglossary dl.glossary > dt").length };
}"""
#: takes the entries outside ``SAMPLE`` off a glossary page
_DROP_UNSAMPLED = """() => document.querySelectorAll(
  ".mlglossary dl.glossary > :is(dt, dd):not([data-axe-sample])").forEach((part) => part.remove())"""


def mark_glossary_sample(page) -> dict:
    """Mark (``SAMPLE``) the glossary page's parts axe checks: everything but the entries,
    and each entry holding an element of a kind (its tag and classes, under its parent's)
    that no earlier entry held.

    axe on all of a 234-entry page (some 35,000 elements) takes half a minute per run; the
    sample (about 20 entries) holds every kind of element the page shows, in the theme's
    colours, at a fifth of the cost.

    The entries outside the sample are then taken off the page: axe checks none of them,
    yet a run's cost grows with the whole page (its colour-contrast rule goes through every
    element): a run on the sample took 16 to 22 s with them on the page, 4 to 8 s without
    (a busy machine). The sampled elements keep their place in the page (theme, stylesheets,
    ancestors, the parts around the entries), and axe's results were the same either way,
    rule by rule, counting the nodes that pass, fail or need review (pydata-sphinx-theme in
    English, dark; furo and sphinx-book-theme in Arabic, light; example_docs in Arabic, dark,
    with ``tests/test_glossary_page_browser.py``'s selection).
    """
    sample = page.evaluate(_MARK_SAMPLE)
    assert 0 < sample["entries"] <= sample["all"] and sample["kinds"] > 10, sample
    marked = page.locator(SAMPLE).count()
    page.evaluate(_DROP_UNSAMPLED)
    # every sampled part stays, and only the sampled entries do
    left = page.locator(".mlglossary dl.glossary > *")
    assert page.locator(SAMPLE).count() == marked and left.count() == left.and_(page.locator(SAMPLE)).count()
    return sample


def entry_element_kinds(path: Path) -> set[str]:
    """The kinds ``_MARK_SAMPLE`` tells entries apart by, read from a page's HTML: for each
    entry's ``dt``, the ``dd`` after it and every element inside them, the element's tag and
    sorted classes under its parent's."""

    def kind(element: Tag) -> str:
        return element.name.upper() + "." + ".".join(sorted(element.get("class") or ()))

    kinds = set()
    for term in read_html(path).select(".mlglossary dl.glossary > dt"):
        parts = [term]
        following = term.find_next_sibling()
        while isinstance(following, Tag) and following.name == "dd":
            parts.append(following)
            following = following.find_next_sibling()
        for part in parts:
            for element in [part, *part.find_all(True)]:
                kinds.add(f"{kind(element.parent)}>{kind(element)}")
    return kinds


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_themes_page_holds_every_kind_of_element_the_whole_page_does(sites, tmp_path, language):
    """The themes root's glossary page lists 37 entries (``tests/roots/test-themes/glossary.md``):
    those its index cites, the entry a bold link in one of them goes to (a link to an entry
    left off the page is plain text), and the ones ``mark_glossary_sample`` picks from the
    whole page in English and in Arabic (each entry holding a kind of element no earlier
    entry held). So axe, in every theme below, still meets each kind of element the whole
    page shows, and a new kind in the data (a table, a list in a definition) fails here until
    the list names an entry holding it. The whole page is built here, in the default theme,
    as the shared site is."""
    whole = tmp_path / "src"
    shutil.copytree(THEMES_ROOT, whole)
    page = whole / "glossary.md"
    page.write_text(re.sub(r"^:terms: .*\n", "", page.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    app = finished_build("html", whole, confoverrides={"language": language})
    assert app.warning.getvalue() == ""
    everything = entry_element_kinds(Path(app.outdir) / "glossary.html")
    listed = entry_element_kinds(sites["alabaster", language] / "glossary.html")
    assert everything - listed == set()
    # and what only the short page holds: a term named in a definition whose entry the page
    # leaves out, shown as text (Sphinx's span for a term it can't link)
    assert {kind.partition(">")[2] for kind in listed - everything} <= {"SPAN.std.std-term.xref"}


# -- axe ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("name", THEMES)
def test_axe_finds_nothing_serious(sites, open_page, axe, name, language, mode):  # noqa: F811 (the fixture imported above)
    theme = BY_NAME[name]
    if not theme.installed:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but the theme {name} is not installed (pip install -e '.[themes]')")
        pytest.skip(f"theme {name} is not installed")
    site = sites[name, language]
    context = theme.context(mode)

    glossary = open_page(site / "glossary.html", width=1200, height=800, **context)
    assert glossary.locator("html").get_attribute("dir") == ("rtl" if language == "ar" else None)
    assert glossary.locator(".mlglossary").count() == 1
    mark_glossary_sample(glossary)
    assert serious_in(axe_results(axe, glossary, SAMPLE)) == []

    page = open_page(site / "index.html", width=1200, height=800, **context)
    dark = page.evaluate("getComputedStyle(document.querySelector('.mlglossary-card')).backgroundColor")
    assert (dark == "rgb(30, 34, 40)") == (mode == "dark")
    link = terms(page).nth(1)
    card = card_of(page, link)
    link.hover()
    shown(card)
    card.evaluate("(c) => Promise.all(c.getAnimations().map((a) => a.finished))")
    assert card.get_attribute("role") == "dialog" and card.get_attribute("aria-label")
    assert serious(axe, page) == []
    # the same with the card opened from the keyboard, focus inside it
    page.mouse.move(1, 1)
    expect(card).to_be_hidden()
    for _ in range(60):  # Tab from the top of the page to the term, through the cards before it
        page.keyboard.press("Tab")
        if link.evaluate("(a) => a === document.activeElement"):
            break
    shown(card)
    page.keyboard.press("Tab")
    assert card.evaluate("(c) => c.contains(document.activeElement)")
    card.evaluate("(c) => Promise.all(c.getAnimations().map((a) => a.finished))")
    assert serious(axe, page) == []


@pytest.mark.parametrize("name", RIGHT_TO_LEFT_ONLY)
def test_axe_finds_nothing_serious_right_to_left(sites, open_page, axe, name):  # noqa: F811 (the fixture imported above)
    """Another theme, in Arabic: the glossary page, and a page with a card open."""
    theme = BY_NAME[name]
    if not theme.installed:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but the theme {name} is not installed (pip install -e '.[themes]')")
        pytest.skip(f"theme {name} is not installed")
    light = theme.context("light")  # a stored mode: pydata-based themes log an error without one
    glossary = open_page(sites[name, "ar"] / "glossary.html", width=1200, height=800, **light)
    assert glossary.locator("html").get_attribute("dir") == "rtl"
    mark_glossary_sample(glossary)
    assert serious_in(axe_results(axe, glossary, SAMPLE)) == []
    page = open_page(sites[name, "ar"] / "index.html", width=1200, height=800, **light)
    link = terms(page).nth(1)
    card = card_of(page, link)
    link.hover()
    shown(card)
    card.evaluate("(c) => Promise.all(c.getAnimations().map((a) => a.finished))")
    assert serious(axe, page) == []


# -- click mode -----------------------------------------------------------------------------------


def test_click_mode_says_expanded_or_not(sites, open_page):  # noqa: F811 (the fixture imported above)
    page = open_page(sites["click"] / "index.html")
    first, second = terms(page).nth(0), terms(page).nth(1)
    assert {terms(page).nth(i).get_attribute("aria-expanded") for i in range(4)} == {"false"}
    first.click()
    shown(card_of(page, first))
    assert first.get_attribute("aria-expanded") == "true"
    second.click()
    assert (first.get_attribute("aria-expanded"), second.get_attribute("aria-expanded")) == ("false", "true")
    page.keyboard.press("Escape")
    expect(card_of(page, second)).to_be_hidden()
    assert second.get_attribute("aria-expanded") == "false"


def test_a_tap_in_hover_mode_says_expanded(sites, open_page):  # noqa: F811 (the fixture imported above)
    page = open_page(sites["hover"] / "index.html", has_touch=True, is_mobile=True)
    link = terms(page).first
    assert link.get_attribute("aria-expanded") is None
    link.tap()
    shown(card_of(page, link))
    assert link.get_attribute("aria-expanded") == "true"
    page.locator("div.body h1").tap()
    expect(card_of(page, link)).to_be_hidden()
    assert link.get_attribute("aria-expanded") == "false"


# -- landing on a citation ------------------------------------------------------------------------


def visible_cards(page) -> int:
    return page.locator(".mlglossary-card:not([hidden])").count()


def highlighted(link) -> bool:
    """The citation is the :target and its highlight animation runs (or ran)."""
    return link.evaluate("(a) => a.matches(':target') && getComputedStyle(a).animationName === 'mlglossary-cited'")


def test_a_shared_url_to_a_citation_highlights_it_and_opens_no_card(sites, open_page):  # noqa: F811 (the fixture imported above)
    page = open_page(sites["hover"] / "index.html")
    cited = page.locator("a.mlglossary-term").nth(2)
    target = cited.get_attribute("id")
    assert target.startswith("mlglossary-cite-")
    page.goto((sites["hover"] / "index.html").as_uri() + "#" + target)
    cited = page.locator(f'[id="{target}"]')
    # Chromium focuses the citation on arrival: that focus opens nothing
    expect(cited).to_be_focused()
    assert highlighted(cited)
    stays_hidden(page, card_of(page, cited))
    assert visible_cards(page) == 0
    # a real keyboard focus does: Tab on, Shift+Tab back onto the citation itself
    page.keyboard.press("Tab")
    nxt = terms(page).nth(3)
    expect(nxt).to_be_focused()
    shown(card_of(page, nxt))
    page.keyboard.press("Shift+Tab")
    expect(cited).to_be_focused()
    shown(card_of(page, cited))


def test_following_a_backlink_and_back_and_forward_open_no_card(sites, open_page):  # noqa: F811 (the fixture imported above)
    page = open_page(sites["hover"] / "glossary.html")
    backlink = page.locator('.mlglossary-backlinks a[href^="index.html#mlglossary-cite-"]').first
    href = backlink.get_attribute("href")
    backlink.click()
    page.wait_for_url("**/" + href)
    cited = page.locator(f'[id="{href.partition("#")[2]}"]')
    assert highlighted(cited)
    page.wait_for_timeout(2 * HIDE_DELAY)
    assert visible_cards(page) == 0
    page.go_back()
    page.wait_for_url("**/glossary.html")
    page.go_forward()
    page.wait_for_url("**/" + href)
    page.wait_for_timeout(2 * HIDE_DELAY)
    assert visible_cards(page) == 0
    # a same-page jump (keyboard Enter on an in-page link to a citation) opens nothing either
    page.evaluate("""() => {
        const a = document.createElement("a");
        a.href = "#mlglossary-cite-index-1";
        a.textContent = "jump";
        document.querySelector("div.body").prepend(a);
    }""")
    page.locator('a[href="#mlglossary-cite-index-1"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/index.html#mlglossary-cite-index-1")
    page.wait_for_timeout(2 * HIDE_DELAY)
    assert visible_cards(page) == 0
    assert highlighted(page.locator('[id="mlglossary-cite-index-1"]'))


# -- our stylesheet leaves the theme's elements alone -----------------------------------------------


def test_styles_stay_on_our_elements(tmp_path_factory, open_page):  # noqa: F811 (the fixture imported above)
    """An Arabic page: the theme's own code block and links are as without our stylesheet,
    except code blocks on a page whose direction we wrote (every theme, page_direction.py)."""
    out = shared_site(tmp_path_factory, "language=ar", root=ROOT)
    page = open_page(out / "index.html")

    def styles():
        return page.evaluate("""() => {
            const body = document.querySelector("div.body");
            if (!document.getElementById("probe")) body.insertAdjacentHTML("beforeend",
                '<pre id="probe">x = f(a)</pre><p><a id="plain" href="#">plain link</a></p>');
            const pre = getComputedStyle(document.getElementById("probe"));
            const plain = getComputedStyle(document.getElementById("plain"));
            return {pre: pre.direction, line: plain.textDecorationLine, style: plain.textDecorationStyle,
                    border: plain.borderBottomStyle};
        }""")

    ours = styles()
    assert page.locator("html").get_attribute("data-mlglossary-dir") is not None
    assert ours["pre"] == "ltr"  # the page's direction is ours: its code stays left to right
    # a theme that sets dir itself: its code blocks are its own business
    page.evaluate("document.documentElement.removeAttribute('data-mlglossary-dir')")
    assert styles()["pre"] == "rtl"
    # without our stylesheet, the plain link looks the same
    page.evaluate("document.querySelector('link[href*=\"mlglossary.css\"]').disabled = true")
    theirs = styles()
    assert (ours["line"], ours["style"], ours["border"]) == (theirs["line"], theirs["style"], theirs["border"])


def test_an_open_card_is_placed_once_per_frame_while_scrolling(sites, open_page):  # noqa: F811 (the fixture imported above)
    """Many scroll events in one frame: the card is laid out once, not once per event."""
    page = open_page(sites["hover"] / "index.html")
    link = terms(page).first
    card = card_of(page, link)
    link.hover()
    shown(card)
    writes = card.evaluate("""async (card) => {
        let count = 0;
        const watch = new MutationObserver((records) => { count += records.length; });
        watch.observe(card, {attributes: true, attributeFilter: ["style"]});
        for (let i = 0; i < 50; i++) dispatchEvent(new Event("scroll"));
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        watch.disconnect();
        return count;
    }""")
    # one placement writes the style a handful of times; fifty would write it hundreds of times
    assert 0 < writes <= 10
