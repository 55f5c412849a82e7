"""Which glossary entry a term reference points at, decided the way Sphinx decides it."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment


def resolve_term(env: BuildEnvironment, target: str) -> tuple[str, str] | None:
    """(docname, anchor) a ``term`` target resolves to: exact name first, then any case."""
    std = env.get_domain("std")
    found = std.objects.get(("term", target))  # type: ignore[attr-defined]
    if found is None:
        found = std._terms.get(target.lower())  # type: ignore[attr-defined]
    return found  # type: ignore[no-any-return]
