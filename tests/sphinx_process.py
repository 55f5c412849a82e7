"""``python -m sphinx`` in a process of its own, without importing Sphinx in each one.

Tests that need a real command-line build (``-j``, a clean process, what a user runs) used
to start a fresh interpreter each time, and it spent about 0.35 s of CPU importing Sphinx,
MyST and the extension before building. ``run_sphinx`` asks a multiprocessing forkserver
for the process instead: the server imports those modules once (it is a fresh interpreter,
started when first needed, that has built nothing), and each build runs in a child forked
from it, with the test's environment, its output captured, and
``sphinx.cmd.build.main``'s exit code as the process's.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

#: what ``python -m sphinx`` imports before it reads a project (the rest comes with the project)
_PRELOAD = [
    "sphinx.cmd.build",
    "sphinx.application",
    "sphinx.builders.html",
    "myst_parser",
    "myst_parser.parsers.sphinx_",
    "sphinxcontrib_mlglossary",
]


def _forkserver() -> multiprocessing.context.BaseContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_PRELOAD)
    return context


def _build(args: list[str], environ: dict[str, str], out: str, err: str) -> None:
    """The child: the test's environment, stdout and stderr into files, then Sphinx."""
    os.environ.clear()
    os.environ.update(environ)
    for fd, path in ((1, out), (2, err)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(target, fd)
        os.close(target)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 (the process's own stream)
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    from sphinx.cmd.build import main

    sys.exit(main(args))


def quiet_build(src: Path, out: Path, *extra: str, builder: str = "html") -> str:
    """A quiet (``-q``) build of ``src`` into ``out`` that must succeed; its stderr (the warnings)."""
    result = run_sphinx(["-b", builder, "-q", *extra, str(src), str(out)])
    assert result.returncode == 0, result.stderr
    return result.stderr


def run_sphinx(args: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """What ``subprocess.run([sys.executable, "-m", "sphinx", *args], capture_output=True,
    text=True)`` gives, from a child of the forkserver."""
    with tempfile.TemporaryDirectory() as folder:
        out, err = Path(folder) / "stdout", Path(folder) / "stderr"
        process = _forkserver().Process(target=_build, args=(list(args), dict(os.environ), str(out), str(err)))
        process.start()
        process.join()
        return subprocess.CompletedProcess(
            [sys.executable, "-m", "sphinx", *args],
            process.exitcode if process.exitcode is not None else -1,
            out.read_text(encoding="utf-8") if out.exists() else "",
            err.read_text(encoding="utf-8") if err.exists() else "",
        )
