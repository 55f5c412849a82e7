"""One measured ``sphinx-build`` process: wall time, CPU time with workers, peak memory, warnings."""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

PACKAGE = "sphinxcontrib_mlglossary"

#: runs sphinx in-process and prints its peak memory (own + parallel workers), in KiB,
#: and the CPU seconds it used (steadier than wall time on a shared machine)
_MEASURE = """
import resource, sys
from sphinx.cmd.build import main
code = main(sys.argv[1:])
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("MAXRSS", max(own, kids), file=sys.stderr)
usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
print("CPU", sum(u.ru_utime + u.ru_stime for u in usage), file=sys.stderr)
sys.exit(code)
"""


@dataclass
class Run:
    seconds: float
    maxrss_kib: int
    cpu_seconds: float
    warnings: list[str] = field(default_factory=list)


def byte_compile(package_dir: Path) -> None:
    """Give the measured package the bytecode an installed wheel has.

    An editable install (a checkout, a copy on ``PYTHONPATH``) under
    ``PYTHONDONTWRITEBYTECODE`` has none: every build compiled the package's modules from
    source again, about 0.3 s of CPU that Sphinx and the other extensions, installed with
    their bytecode, never pay, and that a user's install does not pay either.
    """
    if not compileall.compile_dir(str(package_dir), quiet=1):
        raise SystemExit(f"could not byte-compile {package_dir}")


def package_folder(pythonpath: str) -> Path:
    """The folder of the package a build started with ``PYTHONPATH=pythonpath`` imports."""
    found = subprocess.run(
        [sys.executable, "-P", "-c", f"import importlib.util; print(importlib.util.find_spec({PACKAGE!r}).origin)"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": pythonpath},
    )
    return Path(found.stdout.strip()).resolve().parent


@cache
def _byte_compiled(pythonpath: str) -> None:
    """Byte-compile the package a build started with ``PYTHONPATH=pythonpath`` imports."""
    byte_compile(package_folder(pythonpath))


def sphinx(src: Path, out: Path, *args: str, allow_warnings: bool = False) -> Run:
    """One ``sphinx-build`` process; refuses a project that warns unless ``allow_warnings``."""
    _byte_compiled(os.environ.get("PYTHONPATH", ""))
    started = time.perf_counter()
    result = subprocess.run(
        # -P: a package copy given on PYTHONPATH is not shadowed by the working directory's
        [sys.executable, "-P", "-c", _MEASURE, "-q", "-b", "html", *args, str(src), str(out)],
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - started
    if result.returncode:
        raise SystemExit(f"sphinx-build failed on {src}:\n{result.stderr}")
    lines = result.stderr.splitlines()
    warnings = [line for line in lines if "WARNING" in line or "ERROR" in line or "CRITICAL" in line]
    if warnings and not allow_warnings:  # what a warning costs (suggestions, logging) is not what we measure
        raise SystemExit(f"the benchmark project {src} builds with {len(warnings)} warnings, first: {warnings[0]}")
    rss = next(int(line.split()[1]) for line in lines if line.startswith("MAXRSS"))
    cpu = next(float(line.split()[1]) for line in lines if line.startswith("CPU "))
    return Run(elapsed, rss, cpu, warnings)


def output_size(out: Path) -> int:
    return sum(p.stat().st_size for p in out.rglob("*") if p.is_file() and p.suffix in {".html", ".js", ".css"})
