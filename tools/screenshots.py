"""Refresh the README's screenshots from a real build of example_docs, in headless Chromium.

    python tools/screenshots.py [--chromium /usr/bin/chromium] [--out docs/images]

Builds example_docs (English, Furo) into a temporary folder, opens it in Chromium through
Playwright and writes ``card.png`` (a tooltip card open over its term) and
``glossary-entry.png`` (a glossary entry with its "Cited in" block). Same sources, browser
and fonts give the same pictures: the viewport, colour scheme and motion are fixed, and
each picture is clipped to the elements it shows.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import FloatRect, Locator, Page, ViewportSize, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "example_docs"
OUT = ROOT / "docs" / "images"
#: the term whose card is shown, on the page citing it
CARD_PAGE, CARD_TERM = "tokenization.html", "term-attention-mask"
#: the entry shown with its backlinks (cited by two pages, twice by one of them)
ENTRY = "term-token"
VIEWPORT: ViewportSize = {"width": 1100, "height": 620}  # Furo's desktop layout
#: around the elements shown: room for the card's shadow, none for the neighbouring blocks
MARGIN_X, MARGIN_Y = 16, 6


def build(outdir: Path) -> Path:
    if importlib.util.find_spec("furo") is None:
        sys.exit("the screenshots show Furo: pip install furo (or this repository's `themes` extra)")
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-E", "-q", "-W", "-D", "language=en"]
    subprocess.run([*command, str(EXAMPLE), str(outdir)], check=True)
    return outdir


def clip(page: Page, *elements: Locator, below: int = MARGIN_Y) -> FloatRect:
    """The smallest rectangle holding the elements, with a margin, inside the viewport."""
    boxes = [element.bounding_box() for element in elements]
    assert all(boxes), "an element to photograph is not on screen"
    left = min(b["x"] for b in boxes if b) - MARGIN_X
    top = min(b["y"] for b in boxes if b) - MARGIN_Y
    right = max(b["x"] + b["width"] for b in boxes if b) + MARGIN_X
    bottom = max(b["y"] + b["height"] for b in boxes if b) + below
    left, top = max(left, 0), max(top, 0)
    right, bottom = min(right, VIEWPORT["width"]), min(bottom, VIEWPORT["height"])
    return {"x": left, "y": top, "width": right - left, "height": bottom - top}


def scroll_to(page: Page, element: Locator, top: int) -> None:
    """Put the element ``top`` pixels below the viewport's top, in one jump down the page.

    One instant jump: themes ask for smooth scrolling (which would move the page mid-picture),
    and Furo shows a "Back to top" button after any scroll up.
    """
    element.evaluate(
        f"e => window.scrollTo({{top: e.getBoundingClientRect().top + window.scrollY - {top}, behavior: 'instant'}})"
    )


def settle(page: Page) -> None:
    page.evaluate("document.fonts.ready")
    page.wait_for_timeout(400)  # past the card's show delay (its motion is off)


def card_picture(page: Page, site: Path, target: Path) -> None:
    page.goto((site / CARD_PAGE).as_uri())
    page.mouse.move(1, 1)
    link = page.locator(f'[role=main] a.mlglossary-term[href$="#{CARD_TERM}"]').first
    scroll_to(page, link, 160)  # room below the term for the card
    link.hover()
    card = page.locator(".mlglossary-card:visible").first
    card.wait_for(state="visible")
    settle(page)
    paragraph = link.locator("xpath=ancestor::p[1]")
    page.screenshot(path=target, clip=clip(page, paragraph, card, below=MARGIN_X))


def entry_picture(page: Page, site: Path, target: Path) -> None:
    page.goto((site / "glossary.html").as_uri())
    page.mouse.move(1, 1)
    term = page.locator(f"dt#{ENTRY}")
    definition = term.locator("xpath=following-sibling::dd[1]")
    scroll_to(page, term, 40)
    settle(page)
    page.screenshot(path=target, clip=clip(page, term, definition))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=OUT)
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temporary, sync_playwright() as playwright:
        site = build(Path(temporary) / "html")
        browser = playwright.chromium.launch(executable_path=options.chromium, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(
            viewport=VIEWPORT, device_scale_factor=1, color_scheme="light", reduced_motion="reduce", locale="en-US"
        )
        page = context.new_page()
        for name, draw in (("card.png", card_picture), ("glossary-entry.png", entry_picture)):
            draw(page, site, options.out / name)
            print(f"{options.out / name}: {(options.out / name).stat().st_size} bytes")
        browser.close()


if __name__ == "__main__":
    main()
