"""Tooltip cards inside five real Sphinx themes, light and dark, and right to left.

``tests/roots/test-themes`` is built once per theme (in English and in Arabic) and opened in
the one headless chromium of ``tests/test_browser.py``, whose helpers this module reuses.
Every theme's Arabic pages carry ``dir="rtl"`` (``page_direction.py``), checked in the HTML
and in the browser (the page runs from the right, code blocks from the left).
Dark mode goes through each theme's own switch (the choice its toggle stores), with the OS
set the other way round, so a card that followed only the OS setting would fail. Themes
without a dark mode (alabaster, sphinx-rtd-theme) get a dark OS setting instead, and the
card must then stay as light as their page.

A missing theme skips its tests, except under ``CI=true`` (as for the browser itself).
``MLGLOSSARY_SCREENSHOTS=<dir>`` saves a screenshot of every case for a human eye.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import read_html_head
from .test_browser import (  # browser and open_page are fixtures, used by name
    HIDE_DELAY,
    box,
    browser,  # noqa: F401
    card_of,
    open_page,  # noqa: F401
    shared_site,
    shown,
    terms,
    viewport,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).parent / "roots" / "test-themes"
SCREENSHOTS = os.environ.get("MLGLOSSARY_SCREENSHOTS")


@dataclass(frozen=True)
class Theme:
    name: str
    #: the keys its dark switch stores in localStorage; empty: the theme has no dark mode
    switch: tuple[str, ...] = ()

    @property
    def installed(self) -> bool:
        return importlib.util.find_spec(self.name) is not None

    def context(self, mode: str) -> dict[str, str]:
        """Browser settings for a light or dark page: the theme's switch against the OS, when it has one."""
        if not self.switch:
            return {"color_scheme": mode}
        stored = json.dumps(dict.fromkeys(self.switch, mode))
        opposite = "light" if mode == "dark" else "dark"
        script = f"for (const [k, v] of Object.entries({stored})) localStorage.setItem(k, v);"
        return {"color_scheme": opposite, "init_script": script}


THEMES = [
    Theme("alabaster"),
    Theme("furo", switch=("theme",)),  # furo writes body[data-theme]
    Theme("sphinx_rtd_theme"),
    Theme("pydata_sphinx_theme", switch=("mode", "theme")),  # pydata and book write html[data-theme]
    Theme("sphinx_book_theme", switch=("mode", "theme")),
]
BY_NAME = {theme.name: theme for theme in THEMES}
#: the entries the root's glossary page shows (its ``:terms:``; see ``tests/test_card_accessibility.py``)
PAGE_TERMS = re.search(r"^:terms: (.+)$", (ROOT / "glossary.md").read_text(encoding="utf-8"), re.M)[1].split(", ")
NAMES = list(BY_NAME)

# the term whose card shows inline code, and one with an abbreviation
ATTENTION_MASK, ZERO = 1, 3

# -- sites -------------------------------------------------------------------------------------------


def theme_site(tmp_path_factory: pytest.TempPathFactory, name: str, language: str) -> Path:
    """The themes root built in this theme and language, once per session (``shared_site``)."""
    return shared_site(tmp_path_factory, f"html_theme={name}", f"language={language}", root=ROOT)


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """(theme, language) -> built site: every installed theme in English and Arabic, built in parallel
    (shared with the other modules and workers of the session: ``theme_site``)."""
    jobs = [(theme.name, language) for theme in THEMES if theme.installed for language in ("en", "ar")]

    def build(job: tuple[str, str]) -> Path:
        return theme_site(tmp_path_factory, *job)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip(jobs, pool.map(build, jobs), strict=True))


def require(name: str) -> Theme:
    """The theme, installed: a missing one skips the test, and fails it under CI=true."""
    theme = BY_NAME[name]
    if not theme.installed:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but the theme {name} is not installed (pip install -e '.[themes]')")
        pytest.skip(f"theme {name} is not installed")
    return theme


@pytest.fixture
def open_theme(open_page, sites):  # noqa: F811 (the fixture imported above)
    """open_theme(theme name, mode, language, **page options) -> the theme's index page, loaded.

    A missing theme skips the test, and fails it under CI=true.
    """

    def _open(name: str, mode: str = "light", language: str = "en", **options):
        theme = require(name)
        return open_page(sites[name, language] / "index.html", **theme.context(mode), **options)

    return _open


# -- measuring ---------------------------------------------------------------------------------------

# colours as the eye gets them: backgrounds composited up the ancestors on a white page, text with
# the opacity of its ancestors inside the card; a 1x1 canvas parses every CSS colour syntax
COLOURS = """(el) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const pen = canvas.getContext("2d", {willReadFrequently: true});
    const paint = (colour, alpha = 1) => { pen.globalAlpha = alpha; pen.fillStyle = colour; pen.fillRect(0, 0, 1, 1); };
    const read = () => [...pen.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.unshift(e);
    paint("#fff");
    for (const e of chain) paint(getComputedStyle(e).backgroundColor);
    const background = read();
    let opacity = 1;
    for (let e = el; e && e !== document.body; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    paint(getComputedStyle(el).color, opacity);
    return {background, text: read()};
}"""


def luminance(rgb: list[int]) -> float:
    """WCAG relative luminance of an sRGB colour."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in rgb)]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: list[int], b: list[int]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_contrasts(card) -> dict[str, float]:
    """Contrast of every piece of text in the card (title, abbreviation, summary, code, link) with what is behind it."""
    found = card.evaluate(
        "(card) => { const measure = "
        + COLOURS
        + """, seen = {};
        for (const el of [card, ...card.querySelectorAll("*")]) {
            const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
            if (own) seen[el.tagName.toLowerCase() + "." + (el.className || "")] = measure(el);
        }
        return seen;
    }"""
    )
    return {name: contrast(c["background"], c["text"]) for name, c in found.items()}


def readable(card) -> None:
    """Every piece of text reaches WCAG AA (4.5:1) against the card."""
    low = {part: round(ratio, 2) for part, ratio in text_contrasts(card).items() if ratio < 4.5}
    assert low == {}, low


def colours(locator) -> dict[str, list[int]]:
    return locator.evaluate(f"(el) => ({COLOURS})(el)")


def settled(page, card) -> None:
    """Shown, and the fade-in finished (colours measured mid-fade would be washed out)."""
    shown(card)
    card.evaluate("(c) => Promise.all(c.getAnimations().map((a) => a.finished))")


def uncovered(card) -> list[str]:
    """Points of the card (centre, corners) where something else is on top."""
    return card.evaluate("""(c) => {
        const r = c.getBoundingClientRect(), inset = 3, out = [];
        for (const [x, y] of [[r.left + r.width / 2, r.top + r.height / 2], [r.left + inset, r.top + inset],
                              [r.right - inset, r.top + inset], [r.left + inset, r.bottom - inset],
                              [r.right - inset, r.bottom - inset]]) {
            const hit = document.elementFromPoint(x, y);
            if (!c.contains(hit)) out.push(`${Math.round(x)},${Math.round(y)}: ${hit && hit.outerHTML.slice(0, 80)}`);
        }
        return out;
    }""")


def inside_viewport(page, card) -> None:
    width, height = viewport(page)
    rect = box(card)
    assert rect["left"] >= 0 and rect["top"] >= 0, rect
    assert rect["right"] <= width and rect["bottom"] <= height, (rect, width, height)


def snap(page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=Path(SCREENSHOTS) / f"{name}.png")


# -- tests -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("name", NAMES)
def test_glossary_entries_in_theme(open_theme, name, mode):
    """Entry names stand out from their definitions (bold), and a folded example shows its summary only."""
    page = open_theme(name, mode, width=1200, height=900)
    page.goto(page.url.replace("index.html", "glossary.html"))
    weights = page.evaluate(
        "() => [...document.querySelectorAll('div.mlglossary dl.glossary > dt')].map("
        "dt => [Number(getComputedStyle(dt).fontWeight), Number(getComputedStyle(dt.nextElementSibling).fontWeight)])"
    )
    assert len(weights) == len(PAGE_TERMS)
    assert all(name_weight >= 700 and text_weight <= 500 for name_weight, text_weight in weights), set(
        map(tuple, weights)
    )
    fold = page.locator("div.mlglossary details.mlglossary-example").first
    fold.scroll_into_view_if_needed()
    assert fold.locator("pre").is_hidden()
    summary = fold.locator("summary")
    assert summary.is_visible() and "lines)" in summary.inner_text()
    page.evaluate("() => window.scrollBy(0, -300)")
    snap(page, f"glossary-{name}-{mode}")


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("name", NAMES)
def test_card_in_theme(open_theme, name, mode):
    """Opens on hover, on screen, on top, readable, as dark as the page; the pointer can enter it; Escape closes."""
    theme = BY_NAME[name]
    page = open_theme(name, mode, width=1200, height=700)
    link = terms(page).nth(ATTENTION_MASK)
    card = card_of(page, link)
    # the term link is marked apart from ordinary links (before hover: themes restyle hovered links)
    marking = link.evaluate("(a) => getComputedStyle(a).borderBottomStyle + getComputedStyle(a).textDecorationStyle")
    assert "dotted" in marking
    link.hover()
    settled(page, card)
    snap(page, f"{name}-{mode}")

    inside_viewport(page, card)
    assert uncovered(card) == []
    readable(card)
    assert card.locator("code").count() > 0  # the case where theme code colours could leak in
    # dark where the theme is dark; a theme without a dark mode keeps its page, and the card, light
    card_dark = luminance(colours(card)["background"]) < 0.1
    page_dark = luminance(colours(link)["background"]) < 0.1
    assert card_dark == page_dark
    assert card_dark == (mode == "dark" and bool(theme.switch))

    # WCAG 1.4.13: the pointer can move onto the card without losing it; Escape dismisses it
    rect = box(card)
    page.mouse.move(rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2, steps=8)
    page.wait_for_timeout(2 * HIDE_DELAY)
    shown(card)
    page.keyboard.press("Escape")
    assert card.is_hidden()


@pytest.mark.parametrize("name", NAMES)
def test_card_flipped_over_the_header_stays_on_top(open_theme, name):
    """In a short window the card opens above its term, over the theme's sticky header, and wins (dark mode)."""
    page = open_theme(name, "dark", width=1000, height=250)
    link = terms(page).nth(ZERO)
    link.evaluate("(a) => scrollBy(0, a.getBoundingClientRect().bottom - innerHeight + 40)")
    link.hover()
    card = card_of(page, link)
    settled(page, card)
    snap(page, f"{name}-above")
    assert box(card)["bottom"] <= box(link)["top"]
    inside_viewport(page, card)
    assert uncovered(card) == []
    assert card.locator(".mlglossary-card-abbr").count() == 1  # dimmed text, still readable
    readable(card)


@pytest.mark.parametrize("name", NAMES)
def test_every_arabic_page_is_right_to_left(sites, name):
    """``dir="rtl"`` on the ``<html>`` tag of every page in Arabic, whatever the theme; none in English."""
    require(name)
    for language, expected in (("ar", "rtl"), ("en", None)):
        site = sites[name, language]
        built = sorted(page for page in site.rglob("*.html") if "_static" not in page.relative_to(site).parts)
        assert {page.name for page in built} >= {"index.html", "glossary.html", "genindex.html", "search.html"}
        for page in built:
            assert read_html_head(page).find("html").get("dir") == expected, (language, page)


@pytest.mark.parametrize("name", NAMES)
def test_right_to_left(open_theme, name):
    """Arabic page: the page runs from the right, the card starts at the term's right edge, code stays left to right."""
    page = open_theme(name, language="ar", width=1200, height=700)
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    link = terms(page).nth(ATTENTION_MASK)
    card = card_of(page, link)
    link.hover()
    settled(page, card)
    snap(page, f"{name}-rtl")

    inside_viewport(page, card)
    assert uncovered(card) == []
    anchor, rect = box(link), box(card)
    if anchor["right"] - rect["width"] >= 8:  # room to align with the term
        assert rect["right"] == pytest.approx(anchor["right"], abs=1)
    else:
        assert rect["left"] == pytest.approx(8, abs=1)
    assert rect["top"] >= anchor["bottom"]
    text = card.evaluate("""(c) => {
        const s = getComputedStyle(c), box = c.getBoundingClientRect();
        const title = c.querySelector(".mlglossary-card-title strong").getBoundingClientRect();
        return {direction: s.direction, align: s.textAlign, titleRight: title.right,
                right: box.right - parseFloat(s.borderRightWidth) - parseFloat(s.paddingRight)};
    }""")
    assert text["direction"] == "rtl"
    assert text["align"] in {"start", "right"}
    assert text["titleRight"] == pytest.approx(text["right"], abs=1)

    # the glossary page: its text from the right, its code blocks (Python examples) left to right
    page.goto(page.url.replace("index.html", "glossary.html"))
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    definition = page.locator("dl.glossary > dd > p").first
    assert definition.evaluate("(p) => getComputedStyle(p).direction") == "rtl"
    code = page.locator("dl.glossary pre")
    assert code.count() > 0
    assert set(code.evaluate_all("(blocks) => blocks.map((b) => getComputedStyle(b).direction)")) == {"ltr"}
    snap(page, f"{name}-rtl-glossary")


@pytest.mark.parametrize("mode", ["light", "dark"])
@pytest.mark.parametrize("name", ["furo", "pydata_sphinx_theme"])
def test_user_colours_win_over_ours(open_theme, name, mode):
    """A project's stylesheet (loaded after ours) sets the light palette on :root, any mode on the card."""
    page = open_theme(name, mode)
    page.add_style_tag(
        content=":root { --mlglossary-bg: rgb(250, 240, 230); } .mlglossary-card { --mlglossary-fg: rgb(90, 0, 0); }"
    )
    link = terms(page).nth(ATTENTION_MASK)
    card = card_of(page, link)
    link.hover()
    settled(page, card)
    style = card.evaluate("(c) => [getComputedStyle(c).backgroundColor, getComputedStyle(c).color]")
    assert style[1] == "rgb(90, 0, 0)"
    assert (style[0] == "rgb(250, 240, 230)") == (mode == "light")
