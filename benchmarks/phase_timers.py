"""Where a build's CPU time goes: ``python -m benchmarks.phase_timers OUT.json -- SPHINX-BUILD ARGS``.

cProfile inflates small functions about tenfold, which hides what a build really pays
for. This runs ``sphinx-build`` in this process with plain CPU timers
(``time.process_time``) around each transform and post-transform (by class), each event
handler (by event and function), the builder's phases, and each page's reading,
resolving (post-transforms), search indexing and writing (``page:read:DOCNAME`` ...).
Under ``-j`` each worker adds its timers to ``OUT.json.PID``, with the bytes of the result
it sends back. ``--compare A.json B.json`` prints the keys whose time differs most.

The numbers are inclusive (a phase holds its pages), from one build: on a shared machine
repeat, interleave and compare medians.
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import os
import pickle
import resource
import sys
import time
from collections.abc import Callable
from operator import attrgetter
from pathlib import Path
from typing import Any

TIMES: collections.Counter[str] = collections.Counter()


def _add(key: str, started: float) -> None:
    TIMES[key] += time.process_time() - started


def _timed(cls: type, name: str, key: Callable[..., str]) -> None:
    original = cls.__dict__.get(name)
    if original is None:
        return

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            _add(key(*args, **kwargs), started)

    setattr(cls, name, wrapper)


def _install(out: Path) -> None:
    from docutils import transforms
    from sphinx.builders import Builder
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.environment import BuildEnvironment
    from sphinx.events import EventManager
    from sphinx.util import parallel

    def apply_transforms(self: Any) -> None:  # docutils' loop, timed per transform class
        self.document.reporter.attach_observer(self.document.note_transform_message)
        while self.transforms:
            if not self.sorted:
                self.transforms.sort(reverse=True)
                self.sorted = True
            priority, transform_class, pending, kwargs = self.transforms.pop()
            started = time.process_time()
            transform_class(self.document, startnode=pending).apply(**kwargs)
            _add(f"transform:{transform_class.__module__}.{transform_class.__name__}", started)
            self.applied.append((priority, transform_class, pending, kwargs))
        self.document.reporter.detach_observer(self.document.note_transform_message)

    def emit(self: Any, name: str, *args: Any, allowed_exceptions: tuple[type[Exception], ...] = ()) -> list[Any]:
        results = []
        for listener in sorted(self.listeners[name], key=attrgetter("priority")):
            handler = listener.handler
            started = time.process_time()
            results.append(handler(self._app, *args))
            _add(f"event:{name}:{handler.__module__}.{handler.__qualname__}", started)
        return results

    transforms.Transformer.apply_transforms = apply_transforms  # type: ignore[method-assign]
    EventManager.emit = emit  # type: ignore[method-assign]
    phases = {
        Builder: ("read", "write", "_write_serial", "_write_parallel", "finish"),
        StandaloneHTMLBuilder: ("finish", "handle_page", "dump_search_index", "copy_static_files", "gen_indices"),
        BuildEnvironment: ("check_consistency",),
    }
    for cls, names in phases.items():
        for name in names:
            _timed(cls, name, lambda *a, _key=f"phase:{cls.__name__}.{name}", **k: _key)
    for cls, name, what in (
        (Builder, "read_doc", "read"),
        (BuildEnvironment, "get_and_resolve_doctree", "resolve"),
        (StandaloneHTMLBuilder, "index_page", "index"),
        (StandaloneHTMLBuilder, "write_doc", "write"),
    ):
        _timed(cls, name, lambda self, docname, *a, _what=what, **k: f"page:{_what}:{docname}")

    process = parallel.ParallelTasks._process

    def in_worker(self: Any, pipe: Any, func: Any, arg: Any) -> None:
        TIMES.clear()

        class Counting:
            def send(self, result: Any) -> None:
                TIMES["worker:result-MB"] += len(pickle.dumps(result)) / 1e6
                Path(f"{out}.{os.getpid()}").write_text(json.dumps(TIMES), encoding="utf-8")
                pipe.send(result)

        process(self, Counting(), func, arg)

    parallel.ParallelTasks._process = in_worker  # type: ignore[method-assign]


def totals(path: Path) -> collections.Counter[str]:
    """A build's timers, its workers' added under ``worker|KEY``."""
    found = collections.Counter(json.loads(path.read_text(encoding="utf-8")))
    for worker in path.parent.glob(f"{path.name}.*"):
        for key, value in json.loads(worker.read_text(encoding="utf-8")).items():
            found[f"worker|{key}"] += value
    return found


def compare(first: Path, second: Path, *, at_least: float = 0.02) -> str:
    a, b = totals(first), totals(second)
    rows = [f"{'A - B':>8} {'A':>8} {'B':>8}  key"]
    for key in sorted(set(a) | set(b), key=lambda k: -abs(a[k] - b[k])):
        if abs(a[key] - b[key]) >= at_least:
            rows.append(f"{a[key] - b[key]:8.3f} {a[key]:8.3f} {b[key]:8.3f}  {key}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, nargs="?", help="where the timers go (JSON)")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"), help="two timer files to compare")
    parser.add_argument("sphinx", nargs=argparse.REMAINDER, help="-- and sphinx-build's arguments")
    arguments = parser.parse_args(argv)
    if arguments.compare:
        print(compare(*arguments.compare))
        return 0
    if arguments.out is None:
        parser.error("give OUT.json and sphinx-build's arguments, or --compare A B")
    for stale in arguments.out.parent.glob(f"{arguments.out.name}.*"):
        stale.unlink()  # an earlier build's workers
    _install(arguments.out)
    from sphinx.cmd.build import build_main

    started = time.process_time()
    status = build_main([arg for arg in arguments.sphinx if arg != "--"])
    _add("build (main process)", started)
    TIMES["peak RSS MiB (main process)"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    arguments.out.write_text(json.dumps(TIMES, indent=1, sort_keys=True), encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())
