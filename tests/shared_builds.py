"""Builds made once per test session and read by every module and every xdist worker.

Several browser modules open the same sites (the tooltips root in hover and click mode,
each theme in English and Arabic). ``shared_build`` keeps each build in one folder of the
session's temporary directory, named after what it was built from; under pytest-xdist that
directory is the one the workers' own directories sit in, so the second worker to ask for a
build waits for the first one's (a lock file) instead of making it again.

A shared build is read-only for the tests: a test that changes files copies the site first.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest


def shared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the builds go in: the session's, shared by its xdist workers."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # a worker's basetemp is <session basetemp>/<worker id>
    folder = base / "shared-builds"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shared_build(tmp_path_factory: pytest.TempPathFactory, key: Sequence[str], make: Callable[[Path], object]) -> Path:
    """The output folder ``make(folder)`` fills, made once per session for ``key``.

    ``key`` names everything the build depends on (source folder, builder, settings). A
    failed build leaves nothing behind: the next test to ask makes it again (and fails the
    same way), instead of reading half a site.
    """
    root = shared_root(tmp_path_factory)
    name = hashlib.sha256(json.dumps(list(key)).encode()).hexdigest()[:16]
    out, done = root / name, root / f"{name}.done"
    with (root / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # held until the build is complete, released on close
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)
            make(out)
            done.write_text(json.dumps(list(key)), encoding="utf-8")
    return out
