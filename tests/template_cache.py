"""Sphinx's HTML templates compiled once per test process, not once per build.

Each Sphinx build makes a new Jinja environment for its templates, and a new environment
parses and compiles every template it renders again: about a tenth of a small test build's
CPU (0.1 s of 1 s for ``test-basic-md``), paid by each of the suite's in-process builds.
Jinja's own answer is a bytecode cache: the compiled code of a template, keyed by its name
and file and checked against a hash of its source, loaded instead of compiled. This one
lives in memory for the test process, and ``install`` gives it to the environment of every
build's template loader. Rendering is unchanged: the code loaded is the code Jinja would
have compiled from the same source with the same extensions (they are part of the key),
and a changed template misses.
"""

from __future__ import annotations

from typing import Any

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from jinja2.environment import Environment
from sphinx.jinja2glue import BuiltinTemplateLoader


class InMemoryBytecodeCache(BytecodeCache):
    """Compiled templates kept for the life of the test process, each keyed by the template,
    its file and the environment's Jinja extensions (``jinja2.ext.i18n`` changes the code)."""

    def __init__(self) -> None:
        self.stored: dict[str, bytes] = {}
        self.loaded = 0

    def get_bucket(self, environment: Environment, name: str, filename: str | None, source: str) -> Bucket:
        extensions = ",".join(sorted(environment.extensions))
        key = self.get_cache_key(f"{extensions}\0{name}", filename)
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        data = self.stored.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)
            if bucket.code is not None:
                self.loaded += 1

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.stored[bucket.key] = bucket.bytecode_to_string()


#: the process's cache (tests only: a build of the extension never sees it)
CACHE = InMemoryBytecodeCache()


def install() -> None:
    """Give every Sphinx template loader made from now on the process's cache."""
    if getattr(BuiltinTemplateLoader.init, "_with_template_cache", False):
        return
    original = BuiltinTemplateLoader.init

    def init(self: BuiltinTemplateLoader, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        self.environment.bytecode_cache = CACHE

    init._with_template_cache = True  # type: ignore[attr-defined]
    BuiltinTemplateLoader.init = init  # type: ignore[method-assign]
