"""Tooltip cards in a real browser: headless Debian chromium driven by Playwright.

The pages come from a real Sphinx build of ``tests/roots/test-tooltips`` (hover and
click triggers, and a right-to-left language); one hand-written page in
``tests/browser_fixture/`` checks the script's other loading path and the card layout.
Skipped without chromium, except under ``CI=true`` where a missing browser is an error.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from .shared_builds import shared_build
from .sphinx_process import quiet_build

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: F401 (for test_glossary_page_browser)
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None or sync_playwright is None:
    missing = "chromium" if CHROMIUM is None else "playwright"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {missing} is not installed: the browser tests cannot run", pytrace=False)
    pytest.skip(f"{missing} is not installed", allow_module_level=True)

pytestmark = pytest.mark.browser

HERE = Path(__file__).parent
ROOT = HERE / "roots" / "test-tooltips"
FIXTURE = HERE / "browser_fixture" / "index.html"
PACKAGE = HERE.parent / "sphinxcontrib_mlglossary"
# a right-to-left language; Arabic once its glossary ships, else Hebrew (English glossary, RTL page)
RTL_LANGUAGE = "ar" if (PACKAGE / "glossaries" / "ar.toml").exists() else "he"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# dark card background of mlglossary.css, and the light one
DARK, LIGHT = "rgb(30, 34, 40)", "rgb(255, 255, 255)"
SHOW_DELAY, HIDE_DELAY = 150, 200


# -- builds, browser, pages ------------------------------------------------------------------------


def sphinx_build(out: Path, *overrides: str, root: Path = ROOT, builder: str = "html") -> Path:
    quiet_build(root, out, *(part for override in overrides for part in ("-D", override)), builder=builder)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "mlglossary-key-" in index and (out / "_static" / "mlglossary-cards.js").is_file(), (
        "the build emits no tooltip cards: is the Python side in place?"
    )
    return out


def shared_site(
    tmp_path_factory: pytest.TempPathFactory, *overrides: str, root: Path = ROOT, builder: str = "html"
) -> Path:
    """``sphinx_build``'s output for these settings, built once per session for every module
    and xdist worker (``shared_builds``): read it, don't write into it."""
    key = (str(root), builder, *sorted(overrides))
    return shared_build(tmp_path_factory, key, lambda out: sphinx_build(out, *overrides, root=root, builder=builder))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One build per trigger and direction."""
    return {
        "hover": shared_site(tmp_path_factory),
        "click": shared_site(tmp_path_factory, "mlglossary_tooltip_trigger=click"),
        "rtl": shared_site(tmp_path_factory, f"language={RTL_LANGUAGE}"),
    }


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    """open_page(path, **context options) -> a loaded page; any script error fails the test.

    ``init_script`` runs before the page's own scripts (to set a theme's stored dark mode, say).
    """
    contexts, errors = [], []

    def _open(path: Path, width: int = 1000, height: int = 700, init_script: str | None = None, **options):
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        contexts.append(context)
        if init_script:
            context.add_init_script(init_script)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        page.goto(path.as_uri())
        if not options.get("has_touch"):
            page.mouse.move(1, 1)  # the pointer starts away from every term
        return page

    yield _open
    for context in contexts:
        context.close()
    assert errors == []


def terms(page):
    return page.locator("a.mlglossary-term")


def card_of(page, link):
    return page.locator("#" + link.get_attribute("aria-describedby"))


def box(locator) -> dict[str, float]:
    return locator.evaluate("e => e.getBoundingClientRect().toJSON()")


def viewport(page) -> tuple[float, float]:
    return tuple(page.evaluate("[document.documentElement.clientWidth, document.documentElement.clientHeight]"))


def record(page) -> None:
    """Log pointer enter/leave on term links and cards, and every card shown or hidden, with times."""
    page.evaluate("""() => {
        window.mlLog = [];
        const now = () => performance.now();
        for (const el of document.querySelectorAll("a.mlglossary-term, .mlglossary-card")) {
            for (const type of ["pointerenter", "pointerleave"]) {
                el.addEventListener(type, () => mlLog.push({what: type, t: now()}));
            }
        }
        new MutationObserver((changes) => changes.forEach((m) => mlLog.push(
            {what: m.target.hidden ? "hidden" : "shown", t: now()}))
        ).observe(document.body, {subtree: true, attributes: true, attributeFilter: ["hidden"]});
    }""")


def delay(page, before: str, after: str) -> float:
    """Milliseconds from the last `before` event to the first `after` event following it."""
    log = page.evaluate("mlLog")
    start = max(i for i, entry in enumerate(log) if entry["what"] == before)
    end = next(entry for entry in log[start:] if entry["what"] == after)
    return end["t"] - log[start]["t"]


def shown(card) -> None:
    expect(card).to_be_visible()
    expect(card).to_have_class(re.compile(r"\bmlglossary-open\b"))


def stays_hidden(page, card, ms: int = 2 * (SHOW_DELAY + HIDE_DELAY)) -> None:
    expect(card).to_be_hidden()
    page.wait_for_timeout(ms)
    expect(card).to_be_hidden()


def center(rect: dict[str, float]) -> tuple[float, float]:
    return rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2


# -- tests --------------------------------------------------------------------------------------------


def test_init_wires_links_to_cards(site, open_page):
    """Every term link describes its card (matched by href); cards wait hidden in their block, titles move aside."""
    page = open_page(site["hover"] / "index.html")
    state = page.evaluate("""() => [...document.querySelectorAll("a.mlglossary-term")].map((a) => {
        const card = document.getElementById(a.getAttribute("aria-describedby"));
        return {href: a.getAttribute("href"), card: card && card.dataset.mlglossaryHref,
                parent: card && card.parentElement.className, hidden: card && card.hidden,
                title: a.getAttribute("title"),
                expanded: a.getAttribute("aria-expanded")};
    })""")
    assert len(state) == 4
    for link in state:
        assert link["card"] == link["href"]
        assert link["parent"].startswith("mlglossary-cards")
        assert link["hidden"] is True
        assert link["title"] is None  # the no-JavaScript fallback, dropped: the card says it
        assert link["expanded"] is None  # hover mode: a click follows the link, nothing expands
    # the two "attention mask" links share one card
    assert state[0]["href"] == state[2]["href"]
    described = [terms(page).nth(i).get_attribute("aria-describedby") for i in range(4)]
    assert described[0] == described[2] and len(set(described)) == 3
    assert page.locator(".mlglossary-cards > .mlglossary-card").count() == 3
    # shown, a card is the next element after its term (reading and Tab order), then stays there
    for index in (0, 2):
        link = terms(page).nth(index)
        link.hover()
        card = card_of(page, link)
        shown(card)
        assert link.evaluate("(a) => a.nextElementSibling.id") == card.get_attribute("id")
        page.mouse.move(1, 1)
        expect(card).to_be_hidden()


def test_fixture_page_loading_synchronously_and_card_layout(open_page):
    """Hand-written page: a blocking <script> in <head> still initialises; theme p styles don't leak in."""
    page = open_page(FIXTURE, width=1200)
    link = terms(page).first
    assert link.get_attribute("aria-describedby") == "mlglossary-card--0"
    assert link.get_attribute("title") is None
    # a link without a matching card is left alone, title included
    orphan = page.locator('a[href="glossary.html#term-nothing"]')
    assert orphan.get_attribute("aria-describedby") is None
    assert orphan.get_attribute("title") == "No card for this one."
    link.hover()
    card = page.locator("#mlglossary-card--0")
    shown(card)
    style = card.evaluate("""(c) => {
        const s = getComputedStyle(c), p = getComputedStyle(c.querySelector("p"));
        const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
        return {width: c.getBoundingClientRect().width / rem, font: parseFloat(s.fontSize) / rem,
                z: Number(s.zIndex), radius: parseFloat(s.borderTopLeftRadius), padding: parseFloat(s.paddingTop),
                margins: [p.marginTop, p.marginBottom], pFont: parseFloat(p.fontSize) / rem};
    }""")
    # the long summary wraps at the maximum width of 22rem
    assert 20 <= style["width"] <= 22.01
    assert style["font"] == pytest.approx(0.9)
    assert style["pFont"] == pytest.approx(0.9)
    assert style["margins"] == ["0px", "0px"]
    assert style["z"] >= 1000
    assert style["radius"] > 0 and style["padding"] > 0


def test_hover_delays_and_moving_into_the_card(site, open_page):
    """Shown ~150 ms after the pointer arrives; a ~200 ms grace lets the pointer cross into the card."""
    page = open_page(site["hover"] / "index.html")
    record(page)
    link, other = terms(page).nth(0), terms(page).nth(1)
    card = card_of(page, link)
    link.hover()
    shown(card)
    assert SHOW_DELAY - 10 <= delay(page, "pointerenter", "shown") < 1000
    # below the link, starting at its left edge
    anchor, rect = box(link), box(card)
    assert anchor["bottom"] <= rect["top"] <= anchor["bottom"] + 12
    assert rect["left"] == pytest.approx(anchor["left"], abs=1)
    assert rect["width"] <= 22 * 16 + 0.5
    # into the card through the gap: it stays open, also while the pointer rests on it
    page.mouse.move(*center(rect), steps=8)
    page.wait_for_timeout(3 * HIDE_DELAY)
    shown(card)
    # out of the card: hidden after the grace delay, not at once
    page.mouse.move(5, 5, steps=2)
    expect(card).to_be_hidden()
    assert HIDE_DELAY - 10 <= delay(page, "pointerleave", "hidden") < 1000
    # leaving the link straight for another term swaps the cards: one card at a time
    link.hover()
    shown(card)
    other.hover()
    shown(card_of(page, other))
    expect(card).to_be_hidden()
    assert page.locator(".mlglossary-card:not([hidden])").count() == 1


def test_escape_closes_a_hovered_card_until_the_next_hover(site, open_page):
    page = open_page(site["hover"] / "index.html")
    link = terms(page).first
    card = card_of(page, link)
    link.hover()
    shown(card)
    page.keyboard.press("Escape")
    # the pointer still rests on the link, yet the card stays closed
    stays_hidden(page, card)
    page.mouse.move(5, 5)
    link.hover()
    shown(card)


def test_keyboard_focus_blur_and_escape(site, open_page):
    """Tab onto a term opens its card; the next Tabs go through the card's links, then on to the next term."""
    page = open_page(site["hover"] / "index.html")
    first, second = terms(page).nth(0), terms(page).nth(1)
    card1, card2 = card_of(page, first), card_of(page, second)
    page.locator("div.body .toctree-wrapper a").last.focus()
    page.keyboard.press("Tab")
    expect(first).to_be_focused()
    shown(card1)
    # from the term into its card: each of the card's links in turn, the card staying open
    inside = card1.locator("a")
    assert inside.count() >= 1
    for index in range(inside.count()):
        page.keyboard.press("Tab")
        expect(inside.nth(index)).to_be_focused()
        page.wait_for_timeout(HIDE_DELAY + 50)
        shown(card1)
    # out of the card: it closes, the next term opens its own
    page.keyboard.press("Tab")
    expect(second).to_be_focused()
    shown(card2)
    expect(card1).to_be_hidden()
    # Escape closes; focus stays on the link and the card doesn't come back by itself
    page.keyboard.press("Escape")
    expect(second).to_be_focused()
    stays_hidden(page, card2)
    # a closed card is out of the Tab order: Shift+Tab goes straight back to the first term
    page.keyboard.press("Shift+Tab")
    expect(first).to_be_focused()
    shown(card1)
    # blur hides ...
    page.keyboard.press("Shift+Tab")
    expect(card1).to_be_hidden()
    # ... unless focus moved into the card; Escape there closes it and focus returns to its term
    page.keyboard.press("Tab")
    shown(card1)
    page.keyboard.press("Tab")
    expect(card1.locator("a").first).to_be_focused()
    page.keyboard.press("Escape")
    expect(card1).to_be_hidden()
    expect(first).to_be_focused()
    stays_hidden(page, card1)


def test_touch_first_tap_opens_second_tap_follows(site, open_page):
    page = open_page(site["hover"] / "index.html", has_touch=True, is_mobile=True)
    url = page.url
    link = terms(page).first
    card = card_of(page, link)
    link.tap()
    shown(card)
    assert page.url == url
    # a tap outside closes it
    page.locator("div.body h1").tap()
    expect(card).to_be_hidden()
    # first tap opens, second follows the link
    link.tap()
    shown(card)
    page.wait_for_timeout(HIDE_DELAY + 100)  # the tap's pointerleave must not close it
    shown(card)
    assert page.url == url
    link.tap()
    page.wait_for_url("**/glossary.html#term-attention-mask")


def test_mouse_click_in_hover_mode_follows_the_link(site, open_page):
    page = open_page(site["hover"] / "index.html")
    terms(page).nth(1).click()
    page.wait_for_url("**/glossary.html#term-input-ids")


def test_click_trigger_ignores_hover(site, open_page):
    page = open_page(site["click"] / "index.html")
    assert page.locator(".mlglossary-cards").get_attribute("data-mlglossary-trigger") == "click"
    url = page.url
    first, second = terms(page).nth(0), terms(page).nth(1)
    card1, card2 = card_of(page, first), card_of(page, second)
    first.hover()
    stays_hidden(page, card1)
    first.click()
    shown(card1)
    page.mouse.move(5, 5)  # pinned: leaving doesn't close it
    page.wait_for_timeout(2 * HIDE_DELAY)
    shown(card1)
    assert page.url == url
    page.locator("div.body h1").click()
    expect(card1).to_be_hidden()
    first.click()
    shown(card1)
    second.click()  # another term: its card, still no navigation
    shown(card2)
    expect(card1).to_be_hidden()
    assert page.url == url
    second.click()
    page.wait_for_url("**/glossary.html#term-input-ids")


def test_placement_flips_and_stays_in_the_viewport(site, open_page):
    """edge.html: a term at the right edge shifts left; a term at the bottom flips above."""
    page = open_page(site["hover"] / "edge.html", width=600, height=500)
    width, height = viewport(page)
    right, bottom = terms(page).nth(0), terms(page).nth(1)
    right.hover()
    card = card_of(page, right)
    shown(card)
    anchor, rect = box(right), box(card)
    assert anchor["left"] + rect["width"] > width  # would overflow if aligned with the link
    assert rect["left"] >= 0 and rect["right"] <= width
    assert rect["right"] == pytest.approx(width - 8, abs=1)
    assert rect["top"] >= anchor["bottom"]
    page.mouse.move(5, 5)
    expect(card).to_be_hidden()

    # the bottom term, 20px above the bottom of the viewport
    bottom.evaluate("(a) => scrollBy(0, a.getBoundingClientRect().bottom - innerHeight + 20)")
    bottom.hover()
    card = card_of(page, bottom)
    shown(card)
    anchor, rect = box(bottom), box(card)
    assert anchor["bottom"] > height - 30
    assert rect["bottom"] <= anchor["top"]
    assert rect["top"] >= 0 and rect["left"] >= 0 and rect["right"] <= width
    assert rect["left"] == pytest.approx(anchor["left"], abs=1)
    # position is recomputed while scrolling: the card follows its link
    moved = bottom.evaluate("""async (a) => {
        scrollBy(0, -40);
        await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        const card = document.getElementById(a.getAttribute("aria-describedby"));
        return card.hidden || a.getBoundingClientRect().top - card.getBoundingClientRect().bottom;
    }""")
    assert moved is True or 0 <= moved <= 12


def test_right_to_left_page(site, open_page):
    page = open_page(site["rtl"] / "index.html")
    assert page.locator("html").get_attribute("dir") == "rtl"
    link = terms(page).first
    card = card_of(page, link)
    link.hover()
    shown(card)
    anchor, rect = box(link), box(card)
    assert anchor["right"] - rect["width"] >= 8  # room: no shifting involved
    assert rect["right"] == pytest.approx(anchor["right"], abs=1)
    assert rect["top"] >= anchor["bottom"]
    # text starts on the card's start side: the right, unless the card says its content is ltr
    text = card.evaluate("""(c) => {
        const s = getComputedStyle(c), title = c.querySelector(".mlglossary-card-title strong").getBoundingClientRect();
        const box = c.getBoundingClientRect();
        return {direction: s.direction, titleLeft: title.left, titleRight: title.right,
                left: box.left + parseFloat(s.borderLeftWidth) + parseFloat(s.paddingLeft),
                right: box.right - parseFloat(s.borderRightWidth) - parseFloat(s.paddingRight)};
    }""")
    expected = card.get_attribute("dir") or "rtl"
    assert text["direction"] == expected
    if expected == "rtl":
        assert text["titleRight"] == pytest.approx(text["right"], abs=1)
    else:
        assert text["titleLeft"] == pytest.approx(text["left"], abs=1)


def test_code_stays_left_to_right_on_right_to_left_pages(site, open_page):
    page = open_page(site["rtl"] / "glossary.html")
    assert page.locator("html").get_attribute("dir") == "rtl"
    blocks = page.locator("div.mlglossary div.highlight pre")
    assert blocks.count() > 0
    directions = blocks.evaluate_all("(all) => all.map((pre) => getComputedStyle(pre).direction)")
    assert set(directions) == {"ltr"}
    # the entries' own text stays right to left
    assert page.locator("dl.glossary > dd > p").first.evaluate("(p) => getComputedStyle(p).direction") == "rtl"


def test_reduced_motion_disables_the_transition(site, open_page):
    page = open_page(site["hover"] / "index.html")
    card = page.locator(".mlglossary-card").first

    def duration():
        return card.evaluate("(c) => getComputedStyle(c).transitionDuration")

    assert any(float(part.strip().rstrip("s")) > 0 for part in duration().split(","))
    page.emulate_media(reduced_motion="reduce")
    assert all(float(part.strip().rstrip("s")) == 0 for part in duration().split(","))


def test_theming_and_screenshots(site, open_page, tmp_path):
    """Light by default, dark only when the theme says so, overridable; screenshots for a human eye."""
    page = open_page(site["hover"] / "index.html", device_scale_factor=2)
    link = terms(page).first
    card = card_of(page, link)
    shots = tmp_path  # not next to the site: the build is shared, and read-only for tests

    def background(html_theme=None, body_theme=None, scheme="light"):
        page.emulate_media(color_scheme=scheme)
        page.evaluate(
            """([h, b]) => {
            for (const [el, v] of [[document.documentElement, h], [document.body, b]]) {
                if (v) el.dataset.theme = v; else delete el.dataset.theme;
            }
        }""",
            [html_theme, body_theme],
        )
        return card.evaluate("(c) => getComputedStyle(c).backgroundColor")

    def snap(name):
        link.focus()
        shown(card)
        page.wait_for_timeout(250)  # let the fade-in finish
        rect = box(link)
        page.screenshot(
            path=shots / f"{name}.png",
            clip={"x": max(rect["x"] - 160, 0), "y": max(rect["y"] - 60, 0), "width": 560, "height": 260},
        )
        link.evaluate("(a) => a.blur()")

    # the term link is marked as a glossary term
    underline = link.evaluate("(a) => [getComputedStyle(a).borderBottomStyle, getComputedStyle(a).textDecorationStyle]")
    assert "dotted" in underline

    assert background() == LIGHT
    snap("light")
    # light-only themes (alabaster here: no data-theme) stay light on a dark OS
    assert background(scheme="dark") == LIGHT
    assert background(html_theme="light", scheme="dark") == LIGHT
    # explicit dark: pydata-sphinx-theme / sphinx-book-theme on <html>, furo on <body>
    assert background(html_theme="dark") == DARK
    assert background(body_theme="dark") == DARK
    # "auto" follows the OS
    assert background(body_theme="auto", scheme="dark") == DARK
    assert background(html_theme="auto", scheme="dark") == DARK
    assert background(html_theme="auto", scheme="light") == LIGHT
    # a dark page around the dark card, for the screenshot
    background(body_theme="dark")
    page.add_style_tag(
        content="body[data-theme=dark], body[data-theme=dark] div.body, body[data-theme=dark] div.document"
        " { background: #131416 !important; color: #d0d0d0 !important; }"
    )
    snap("dark")
    # users override the custom properties
    background()
    page.evaluate("document.documentElement.style.setProperty('--mlglossary-bg', 'rgb(1, 2, 3)')")
    assert card.evaluate("(c) => getComputedStyle(c).backgroundColor") == "rgb(1, 2, 3)"
    for name in ("light", "dark"):
        assert (shots / f"{name}.png").stat().st_size > 1000


# -- the site's card file --------------------------------------------------------------------------

DEEP_PAGE = """---
orphan: true
---
# Deep page

Two folders down, it cites the {term}`attention mask` and {term}`MLM`.
"""


@pytest.fixture(scope="module")
def deep_site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tooltips project with a page two folders down (``a/b/page``), built as html and dirhtml."""

    def build(base: Path) -> None:
        shutil.copytree(ROOT, base / "src")
        (base / "src" / "a" / "b").mkdir(parents=True)
        (base / "src" / "a" / "b" / "page.md").write_text(DEEP_PAGE, encoding="utf-8")
        for name in ("html", "dirhtml"):
            sphinx_build(base / name, root=base / "src", builder=name)

    base = shared_build(tmp_path_factory, (str(ROOT), "a/b/page.md", DEEP_PAGE, "html", "dirhtml"), build)
    return {name: base / name for name in ("html", "dirhtml")}


def site_file(url: str) -> Path:
    """The file a ``file://`` URL of the site shows (a folder: its ``index.html``, as a web server would)."""
    path = Path(url.removeprefix("file://").partition("#")[0])
    return path / "index.html" if path.is_dir() else path


@pytest.mark.parametrize(
    ("builder", "page_path", "glossary"),
    [("html", "a/b/page.html", "glossary.html"), ("dirhtml", "a/b/page/index.html", "glossary/")],
)
def test_a_card_opened_from_file_two_folders_down_reads_more_on_the_entry(
    deep_site, open_page, builder, page_path, glossary
):
    """The cards are written once, from the site's root; a page at any depth rebases their links."""
    out = deep_site[builder]
    page = open_page(out / page_path)
    assert page.url.startswith("file://")
    link = terms(page).first
    assert link.get_attribute("href").startswith("../../")
    link.hover()
    card = card_of(page, link)
    shown(card)
    assert card.locator(".mlglossary-card-title").inner_text() == "attention mask"
    # every link in the card lands on a page of the site (summary links to other terms included)
    for href in card.locator("a").evaluate_all("(all) => all.map((a) => a.href)"):
        assert href.startswith("file://") and site_file(href).is_file(), href
    more = card.locator(".mlglossary-card-more a")
    assert (
        more.evaluate("(a) => a.href")
        == (out / glossary).as_uri() + ("/" if glossary.endswith("/") else "") + "#term-attention-mask"
    )
    if builder == "dirhtml":
        return  # a folder URL opens a file listing from file://, for Sphinx's own links too
    more.click()
    page.wait_for_url(f"**/{glossary}#term-attention-mask")
    assert site_file(page.url) == out / glossary
    target = page.locator('[id="term-attention-mask"]')
    assert target.evaluate("(t) => t.getBoundingClientRect().top") < 50  # scrolled to the entry


def test_the_card_file_loads_once_and_a_stale_copy_is_loaded_again(site, open_page, tmp_path):
    """One script per visit, from next to mlglossary.js; a copy lacking a page's key is asked for again, once."""
    page = open_page(site["hover"] / "index.html")
    sources = page.evaluate("""() => [...document.scripts].map((s) => s.getAttribute("src") || "")
        .filter((src) => src.includes("mlglossary-cards.js"))""")
    assert len(sources) == 1 and sources[0].split("?")[0].endswith("/_static/mlglossary-cards.js")
    # a copy made before one card changed: the page names a key the file lacks
    stale = tmp_path / "stale"
    shutil.copytree(site["hover"], stale)
    asset = stale / "_static" / "mlglossary-cards.js"
    key = next(c for c in page.locator("a.mlglossary-term").first.get_attribute("class").split() if "key-" in c)[15:]
    asset.write_text(asset.read_text(encoding="utf-8").replace(f'"{key}"', '"0ld"'), encoding="utf-8")
    page = open_page(stale / "index.html")
    sources = page.evaluate("""() => [...document.scripts].map((s) => s.getAttribute("src") || "")
        .filter((src) => src.includes("mlglossary-cards.js"))""")
    assert len(sources) == 2 and sources[1].endswith("?v=" + key)  # asked again under the missing key, once
    first = page.locator("a.mlglossary-term").first
    assert first.get_attribute("aria-describedby") is None  # still missing: no stale card, the title stays
    assert first.get_attribute("title")
    assert page.locator("a.mlglossary-term[aria-describedby]").count() == 2  # the other cards work


def test_a_term_another_site_defines_shows_its_card(tmp_path: Path, open_page):
    """A project without a glossary page cites a plain Sphinx site's term through intersphinx:
    hovering the link shows the card made from that site's definition, and it links there."""
    from .test_external_cards import citing_project, plain_site

    other = plain_site(tmp_path)
    src = citing_project(tmp_path, str(other), str(other / "objects.inv"), "Brew it in a {term}`teapot`.")
    out = sphinx_build(tmp_path / "out", root=src)
    page = open_page(out / "index.html")
    link = terms(page).first
    assert link.get_attribute("href") == f"{other}/index.html#term-teapot"
    link.hover()
    card = card_of(page, link)
    shown(card)
    expect(card.locator(".mlglossary-card-title")).to_have_text("teapot")
    expect(card.locator(".mlglossary-card-summary")).to_have_text("A vessel in which tea is brewed and served.")
    assert card.locator(".mlglossary-card-more a").get_attribute("href") == f"{other}/index.html#term-teapot"
    page.screenshot(path=str(tmp_path / "external-card.png"))
