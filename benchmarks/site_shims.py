"""Stand-ins for directives and roles of extensions a real site uses but this machine lacks.

Copied into each prepared site as ``_site_shims.py`` and loaded by its generated
``conf.py``. Tabs, cards, collapsible blocks and the like keep their text (which is
what auto-linking reads and what a page's size is made of) in a plain container;
diagram and prompt sources become literal blocks. Any option is accepted and ignored,
so the real extensions' options don't warn. Both variants of a site load the same
stand-ins, so they cost the same on each side of a comparison.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.application import Sphinx
from sphinx.config import Config


class AnyOption(dict[str, Any]):
    """An option spec that accepts every option name, each as plain text."""

    def __contains__(self, name: object) -> bool:
        return True

    def __getitem__(self, name: str) -> Any:
        return directives.unchanged

    def get(self, name: str, default: Any = None) -> Any:
        return directives.unchanged


class _StandIn(Directive):
    """What every stand-in accepts: an optional title, any option, a body."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = AnyOption()


class BodyStandIn(_StandIn):
    """Keeps the title (as a strong paragraph) and parses the content as body text."""

    def run(self) -> list[nodes.Node]:
        box = nodes.container(classes=["site-shim", self.name])
        if self.arguments:
            inline, messages = self.state.inline_text(self.arguments[0], self.lineno)
            box += nodes.paragraph("", "", nodes.strong("", "", *inline))
            box += messages
        self.state.nested_parse(self.content, self.content_offset, box)
        return [box]


class LiteralStandIn(_StandIn):
    """Keeps the content as a literal block (diagram sources, shell prompts)."""

    def run(self) -> list[nodes.Node]:
        text = "\n".join(self.content)
        return [nodes.literal_block(text, text, classes=["site-shim", self.name])]


def literal_role(
    name: str, rawtext: str, text: str, lineno: int, inliner: Any, options: Any = None, content: Any = None
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    return [nodes.literal(rawtext, text)], []


def register(app: Sphinx, config: Config) -> None:
    kinds = {"body": BodyStandIn, "literal": LiteralStandIn}
    for name, kind in config.site_shim_directives.items():
        app.add_directive(name, kinds[kind], override=True)
    for name in config.site_shim_roles:
        app.add_role(name, literal_role, override=True)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("site_shim_directives", {}, "env")
    app.add_config_value("site_shim_roles", [], "env")
    app.connect("config-inited", register)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
