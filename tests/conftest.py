"""Shared fixtures: Sphinx's own testing plugin, with our test roots."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

pytest_plugins = ("sphinx.testing.fixtures",)

ROOTS = Path(__file__).parent / "roots"


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return ROOTS


def read_html(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
