"""Shared fixtures: Sphinx's own testing plugin, with our test roots."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

# hostile_data: builds with a glossary file of the test's own (security, hostile-input tests)
pytest_plugins = ("sphinx.testing.fixtures", "tests.hostile_data")

ROOTS = Path(__file__).parent / "roots"


@pytest.fixture(scope="session")
def rootdir() -> Path:
    return ROOTS


def read_html(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


@pytest.fixture
def root_app(make_app, tmp_path_factory):
    """``root_app(builder, "basic-md", **kwargs)``: a fresh copy of ``roots/test-<name>``, ready to build."""
    import shutil

    def factory(buildername: str, name: str, **kwargs):
        srcdir = tmp_path_factory.mktemp(name) / "src"
        shutil.copytree(ROOTS / f"test-{name}", srcdir)
        kwargs.setdefault("freshenv", True)
        return make_app(buildername, srcdir=srcdir, **kwargs)

    return factory


@pytest.fixture
def make_app(make_app):
    """Sphinx's ``make_app``, with warning types shown (Sphinx 7.3 hides them by default).

    Tests check the ``[mlglossary.<subtype>]`` suffix; Sphinx 8 and later show it anyway.
    """

    def factory(*args, **kwargs):
        overrides = dict(kwargs.pop("confoverrides", None) or {})
        overrides.setdefault("show_warning_types", True)
        return make_app(*args, confoverrides=overrides, **kwargs)

    return factory
