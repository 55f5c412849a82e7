"""Run Sphinx's own std-domain, intl, markup and search tests with sphinxcontrib_mlglossary loaded.

Used by ``tox -e sphinx-suite``; runs as well from any environment holding Sphinx, this
package and Sphinx's test dependencies::

    python tools/sphinx_suite/run.py [--work-dir DIR] [--download-dir DIR] [--baseline] [PYTEST ARGS]

1. downloads the sdist of the Sphinx version installed here
   (``pip download --no-binary :all: --no-deps sphinx==<version>``; the one network access,
   skipped when ``--download-dir`` already holds it);
2. unpacks its ``tests/`` folder into the work dir and writes a ``pytest.ini`` there with
   Sphinx's own pytest settings (its repository keeps them in ``.pytest.toml``, which the
   sdist does not ship);
3. checks that the sdist's ``test`` requirements are installed;
4. runs pytest on the test files named in ``TEST_FILES`` (found by name: their folders move
   between Sphinx releases) with ``inject_mlglossary.py`` as a plugin, which appends the
   extension to ``extensions`` in every Sphinx test app and refuses non-loopback
   connections. Tests listed in ``expected_differences.txt`` must fail (strict xfail);
5. runs the listed tests again with only the listed feature switched off: they must pass.

``--baseline`` runs the same tests without the extension (one pass), to tell a failure of
Sphinx or of the installed tools from one caused by the extension.

Exit status: 0 when both passes succeed.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

HERE = Path(__file__).resolve().parent
PLUGIN = "inject_mlglossary"
EXPECTED = HERE / "expected_differences.txt"
MARKER = ".sphinx-suite"
NO_TESTS_RAN = 5  # pytest's exit status

#: Sphinx test files to run, by file name: std domain, intl, markup, and the search tests
#: (where the search-index fixtures live, see expected_differences.txt)
TEST_FILES = ("test_domain_std.py", "test_intl.py", "test_markup.py", "test_search.py")

#: test requirements of Sphinx we do not install: the Cython tests are not among ours,
#: pytest-xdist only runs tests in parallel (install it and pass `-- -n auto` if wanted)
NOT_NEEDED = {"cython", "setuptools", "pytest-xdist"}

#: Sphinx's own pytest configuration (its repository's .pytest.toml), in ini form so that
#: pytest 8 reads it too (its `strict = true` spelled as --strict-markers and xfail_strict)
PYTEST_INI = """\
# written by tools/sphinx_suite/run.py: Sphinx's pytest settings (not in its sdist)
[pytest]
addopts = -ra --import-mode=prepend --strict-markers
empty_parameter_set_mark = xfail
filterwarnings =
    all
    ignore::DeprecationWarning:docutils.io
    ignore:Distutils was imported before Setuptools:UserWarning:_distutils_hack
    ignore:Setuptools is replacing distutils:UserWarning:_distutils_hack
    ignore::DeprecationWarning:pyximport.pyximport
    ignore::ImportWarning:importlib._bootstrap
log_cli_level = INFO
markers =
    apidoc
testpaths = tests
xfail_strict = true
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], epilog="Other arguments go to pytest.", allow_abbrev=False
    )
    parser.add_argument("--work-dir", type=Path, default=Path("build/sphinx-suite"), help="scratch dir (emptied)")
    parser.add_argument("--download-dir", type=Path, help="where the sdist is kept between runs (default: work dir)")
    parser.add_argument("--baseline", action="store_true", help="run without the extension (one pass)")
    parser.add_argument("--no-verify", action="store_true", help="skip the second pass")
    # no positional arguments: everything unknown goes to pytest, in order
    args, pytest_args = parser.parse_known_args(argv)

    started = time.monotonic()
    version = importlib.metadata.version("sphinx")
    work = args.work_dir.resolve()
    _empty(work)
    sdist = _sdist(version, (args.download_dir or work).resolve())
    pyproject = _unpack_tests(sdist, work)
    _check_requirements(pyproject)
    files = _find_tests(work / "tests")
    (work / "pytest.ini").write_text(PYTEST_INI, encoding="utf-8")
    print(f"sphinx-suite: prepared in {time.monotonic() - started:.1f}s", flush=True)

    common = [f"--mlglossary-expected={EXPECTED}", "--mlglossary-require-all"]
    if args.baseline:
        passes = [("baseline, extension NOT loaded", ["--mlglossary-off"])]
    else:
        passes = [("extension loaded, default configuration", common)]
        if not args.no_verify:
            passes.append(("expected differences, each with its switch off", [*common, "--mlglossary-verify-expected"]))

    status = 0
    timings = []
    for number, (title, options) in enumerate(passes, 1):
        print(f"\nsphinx-suite: pass {number}: {title}", flush=True)
        begun = time.monotonic()
        code = _pytest(work, [*options, f"--basetemp={work / f'tmp{number}'}", *files, *pytest_args])
        if code == NO_TESTS_RAN and number == 2 and pytest_args:
            code = 0  # the pytest arguments given (-k ...) left none of the listed tests to verify
        timings.append(f"pass {number} ({title}): exit {code}, {time.monotonic() - begun:.1f}s")
        status = status or code
    print("\nsphinx-suite: Sphinx", version, "tests from", sdist.name)
    for line in timings:
        print("sphinx-suite:", line)
    print(f"sphinx-suite: total {time.monotonic() - started:.1f}s, {'OK' if status == 0 else 'FAILED'}")
    return status


def _empty(work: Path) -> None:
    """Empty the work dir, but only one this script made (or an empty one)."""
    if work.exists() and any(work.iterdir()):
        if not (work / MARKER).exists():
            sys.exit(f"sphinx-suite: {work} is not empty and was not made by this script; not touching it")
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    (work / MARKER).write_text("scratch dir of tools/sphinx_suite/run.py\n", encoding="utf-8")


def _sdist(version: str, download_dir: Path) -> Path:
    def find() -> Path | None:
        wanted = f"sphinx-{version}.tar.gz"
        return next((p for p in download_dir.glob("*.tar.gz") if p.name.lower() == wanted), None)

    download_dir.mkdir(parents=True, exist_ok=True)
    sdist = find()
    if sdist is None:
        print(f"sphinx-suite: downloading the sdist of Sphinx {version}", flush=True)
        command = [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps"]
        subprocess.run([*command, "--dest", str(download_dir), f"sphinx=={version}"], check=True)
        sdist = find()
        if sdist is None:
            sys.exit(f"sphinx-suite: pip download left no sphinx-{version}.tar.gz in {download_dir}")
    digest = hashlib.sha256(sdist.read_bytes()).hexdigest()
    print(f"sphinx-suite: {sdist} (sha256 {digest})", flush=True)
    return sdist


def _unpack_tests(sdist: Path, work: Path) -> dict[str, Any]:
    """Extract ``<top>/tests/`` into ``work/tests``; return the sdist's pyproject.toml."""
    with tarfile.open(sdist) as tar:
        members = tar.getmembers()
        top = PurePosixPath(members[0].name).parts[0]
        tests = []
        for member in members:
            parts = PurePosixPath(member.name).parts
            if len(parts) > 1 and parts[0] == top and parts[1] == "tests":
                if ".." in parts or not (member.isfile() or member.isdir()):
                    sys.exit(f"sphinx-suite: refusing to unpack {member.name!r} from {sdist.name}")
                member.name = str(PurePosixPath(*parts[1:]))
                tests.append(member)
        if not tests:
            sys.exit(f"sphinx-suite: {sdist.name} has no tests/ folder")
        # the "data" filter (Python 3.11.4+) also drops modes and owners we don't want
        safety: dict[str, Any] = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(work, members=tests, **safety)
        pyproject = tar.extractfile(f"{top}/pyproject.toml")
        if pyproject is None:
            sys.exit(f"sphinx-suite: {sdist.name} has no pyproject.toml")
        return tomllib.load(pyproject)


def _check_requirements(pyproject: dict[str, Any]) -> None:
    """The sdist's ``test`` dependency group (or extra, in older releases) must be installed."""
    from packaging.requirements import Requirement

    groups = pyproject.get("dependency-groups", {})
    extras = pyproject.get("project", {}).get("optional-dependencies", {})
    wanted = groups.get("test") or extras.get("test") or []
    problems, skipped = [], []
    for text in wanted:
        if not isinstance(text, str):  # {include-group = ...}
            continue
        requirement = Requirement(text)
        if requirement.marker and not requirement.marker.evaluate():
            continue
        if requirement.name.lower() in NOT_NEEDED:
            skipped.append(text)
            continue
        try:
            installed = importlib.metadata.version(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            problems.append(f"{text}: not installed")
            continue
        if requirement.specifier and not requirement.specifier.contains(installed, prereleases=True):
            problems.append(f"{text}: {installed} installed")
    if skipped:
        print(f"sphinx-suite: not needed for these tests: {', '.join(skipped)}")
    if problems:
        sys.exit("sphinx-suite: Sphinx's test requirements are not met:\n  " + "\n  ".join(problems))


def _find_tests(tests: Path) -> list[str]:
    found = []
    for name in TEST_FILES:
        matches = [p for p in tests.rglob(name) if "roots" not in p.relative_to(tests).parts]
        if len(matches) != 1:
            sys.exit(f"sphinx-suite: expected one {name} under {tests}, found {matches or 'none'}")
        found.append(str(matches[0].relative_to(tests.parent)))
    return found


def _pytest(work: Path, args: list[str]) -> int:
    env = dict(os.environ)
    # our plugin, and nothing of this repository: Sphinx's `tests` package must win
    env["PYTHONPATH"] = str(HERE)
    # as in Sphinx's own tox.ini
    env["PYTHONWARNINGS"] = "error"
    command = [sys.executable, "-X", "dev", "-X", "warn_default_encoding", "-m", "pytest"]
    command += ["-c", str(work / "pytest.ini"), "--rootdir", str(work), "-p", PLUGIN, "-p", "no:cacheprovider"]
    print("sphinx-suite:", " ".join([*command[1:], *args]), flush=True)
    return subprocess.run([*command, *args], cwd=work, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
