"""pytest plugin: load sphinxcontrib_mlglossary into every Sphinx test app of Sphinx's own suite.

``run.py`` loads it with ``-p inject_mlglossary`` when it runs the tests of the Sphinx sdist.

* **Injection.** ``SphinxTestApp.__init__`` (so every test app: the ``app`` and ``make_app``
  fixtures, ``SphinxTestAppWrapperForSkipBuilding`` and direct constructions) runs with a
  flag set, and while it is set ``Config.read`` appends ``"sphinxcontrib_mlglossary"`` to the
  ``extensions`` it read from the test root's ``conf.py``, after the test's
  ``confoverrides`` (an ``extensions`` override included) were applied. The extension is
  set up as if ``conf.py`` listed it last, before ``config-inited``, with its default
  configuration. After construction the plugin checks that the app loaded it.
* **Expected differences** (``--mlglossary-expected FILE``, see ``expected_differences.txt``):
  listed tests are marked ``xfail(strict=True, raises=AssertionError)``. With
  ``--mlglossary-verify-expected`` only the listed tests run, each with its switch turned
  off, and they must pass.
* **Offline.** Connections to anything but loopback are refused (Sphinx's own network
  tests serve from local servers in ``tests/utils.py``).
* **Report.** The terminal summary counts the test apps, each of which loaded the extension.
"""

from __future__ import annotations

import ast
import contextvars
import functools
import inspect
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

EXTENSION = "sphinxcontrib_mlglossary"
NO_ENV_VERSION = "no-env-version"

_in_test_app: contextvars.ContextVar[bool] = contextvars.ContextVar("in_sphinx_test_app", default=False)
_MISSING = object()
_saved: list[tuple[Any, str, Any]] = []
_apps_created = 0
#: the switch of the expected difference being verified (verify mode), else None
_current_switch: str | None = None


@dataclass(frozen=True)
class Expected:
    switch: str
    reason: str


_EXPECTED = pytest.StashKey[dict[str, Expected]]()
_SWITCH = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mlglossary", "sphinxcontrib-mlglossary peer suite")
    group.addoption(
        "--mlglossary-off",
        action="store_true",
        help="do not load the extension (baseline run, to tell Sphinx/tooling failures from ours)",
    )
    group.addoption(
        "--mlglossary-expected",
        metavar="FILE",
        default=os.environ.get("MLGLOSSARY_EXPECTED_DIFFERENCES", ""),
        help="file listing the tests expected to differ with the extension loaded",
    )
    group.addoption(
        "--mlglossary-verify-expected",
        action="store_true",
        help="run only the listed tests, each with its switch off: they must pass",
    )
    group.addoption(
        "--mlglossary-require-all",
        action="store_true",
        help="fail if a listed test is not collected at all (run.py sets it for its default test files)",
    )
    group.addoption(
        "--mlglossary-allow-network",
        action="store_true",
        help="do not refuse connections to non-loopback addresses",
    )


def _patch(owner: Any, name: str, value: Any) -> None:
    _saved.append((owner, name, owner.__dict__.get(name, _MISSING)))
    setattr(owner, name, value)


# --- injection -------------------------------------------------------------------------


def _install_injection() -> None:
    from sphinx.config import Config
    from sphinx.testing.util import SphinxTestApp

    original_read = Config.__dict__["read"].__func__
    original_init = SphinxTestApp.__dict__["__init__"]
    init_signature = inspect.signature(original_init)

    @functools.wraps(original_read)
    def read(cls: type[Config], *args: Any, **kwargs: Any) -> Config:
        config: Config = original_read(cls, *args, **kwargs)
        if _in_test_app.get() and EXTENSION not in config.extensions:
            config.extensions = [*config.extensions, EXTENSION]
        return config

    @functools.wraps(original_init)
    def __init__(self: SphinxTestApp, *args: Any, **kwargs: Any) -> None:
        global _apps_created
        switch = _current_switch
        if switch and switch != NO_ENV_VERSION:
            # verify mode: turn the listed option off for this app
            name, _, value = switch.partition("=")
            bound = init_signature.bind(self, *args, **kwargs)
            bound.arguments["confoverrides"] = {
                **(bound.arguments.get("confoverrides") or {}),
                name: ast.literal_eval(value),
            }
            args, kwargs = bound.args[1:], bound.kwargs
        token = _in_test_app.set(True)
        try:
            with _without_env_version(switch == NO_ENV_VERSION):
                original_init(self, *args, **kwargs)
        finally:
            _in_test_app.reset(token)
        _apps_created += 1
        if EXTENSION not in self.extensions:
            raise AssertionError(f"{EXTENSION} was not loaded into this test app (srcdir {self.srcdir})")

    _patch(Config, "read", classmethod(read))
    _patch(SphinxTestApp, "__init__", __init__)


class _without_env_version:
    """While active, the extension's setup() returns its metadata without "env_version"."""

    def __init__(self, active: bool) -> None:
        self.active = active

    def __enter__(self) -> None:
        if not self.active:
            return
        import sphinxcontrib_mlglossary as package

        self.package = package
        self.original = package.setup

        @functools.wraps(self.original)
        def setup(app: Any) -> dict[str, Any]:
            metadata = dict(self.original(app))
            metadata.pop("env_version", None)
            return metadata

        package.setup = setup

    def __exit__(self, *exc: object) -> None:
        if self.active:
            self.package.setup = self.original


# --- offline ---------------------------------------------------------------------------


def _is_loopback(host: Any) -> bool:
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    host = str(host).strip("[]")
    if host.lower() in {"localhost", "localhost.localdomain", ""}:
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _refuse(address: Any) -> None:
    raise OSError(f"sphinx-suite runs offline: connection to {address!r} refused (only loopback is allowed)")


def _install_offline_guard() -> None:
    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_getaddrinfo = socket.getaddrinfo

    def connect(self: socket.socket, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
            _refuse(address)
        return original_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
            _refuse(address)
        return original_connect_ex(self, address)

    @functools.wraps(original_getaddrinfo)
    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not _is_loopback(host):
            _refuse(host)
        return original_getaddrinfo(host, *args, **kwargs)

    _patch(socket.socket, "connect", connect)
    _patch(socket.socket, "connect_ex", connect_ex)
    _patch(socket, "getaddrinfo", getaddrinfo)


# --- expected differences --------------------------------------------------------------


def _read_expected(path: str) -> dict[str, Expected]:
    """``<file name>::<test id> | <switch> | <reason>`` lines; ``#`` starts a comment line."""
    expected: dict[str, Expected] = {}
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split("|", 2)]
        if len(fields) != 3 or not all(fields) or "::" not in fields[0] or "/" in fields[0].partition("::")[0]:
            raise pytest.UsageError(f"{path}:{number}: expected '<file>::<test> | <switch> | <reason>', got {raw!r}")
        test_id, switch, reason = fields
        if switch != NO_ENV_VERSION:
            name, eq, value = switch.partition("=")
            try:
                ast.literal_eval(value)
            except (ValueError, SyntaxError):
                eq = ""
            if not eq or not name.isidentifier():
                raise pytest.UsageError(f"{path}:{number}: switch must be NAME=VALUE or {NO_ENV_VERSION}: {switch!r}")
        if test_id in expected:
            raise pytest.UsageError(f"{path}:{number}: {test_id} is listed twice")
        expected[test_id] = Expected(switch, reason)
    return expected


def _short_id(nodeid: str) -> str:
    path, _, rest = nodeid.partition("::")
    return f"{path.rsplit('/', 1)[-1]}::{rest}"


def pytest_configure(config: pytest.Config) -> None:
    off = config.getoption("--mlglossary-off")
    if off and config.getoption("--mlglossary-verify-expected"):
        raise pytest.UsageError("--mlglossary-off and --mlglossary-verify-expected exclude each other")
    if not off:
        _install_injection()
    if not config.getoption("--mlglossary-allow-network"):
        _install_offline_guard()
    path = config.getoption("--mlglossary-expected")
    config.stash[_EXPECTED] = _read_expected(path) if path and not off else {}


def pytest_unconfigure(config: pytest.Config) -> None:
    while _saved:
        owner, name, value = _saved.pop()
        if value is _MISSING:
            delattr(owner, name)
        else:
            setattr(owner, name, value)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark (or, verifying, select) the listed tests; runs before -k/-m deselection."""
    expected = config.stash[_EXPECTED]
    verify = config.getoption("--mlglossary-verify-expected")
    if verify and not expected:
        raise pytest.UsageError("--mlglossary-verify-expected needs --mlglossary-expected FILE")
    seen: set[str] = set()
    files: set[str] = set()
    kept, dropped = [], []
    for item in items:
        short = _short_id(item.nodeid)
        files.add(short.partition("::")[0])
        entry = expected.get(short)
        if entry is None:
            dropped.append(item)
            continue
        seen.add(short)
        kept.append(item)
        if verify:
            item.stash[_SWITCH] = entry.switch
        else:
            item.add_marker(pytest.mark.xfail(reason=f"mlglossary: {entry.reason}", strict=True, raises=AssertionError))
    # an entry whose file was collected but that matches no test is stale
    require_all = config.getoption("--mlglossary-require-all")
    stale = sorted(t for t in expected if t not in seen and (require_all or t.partition("::")[0] in files))
    if stale:
        raise pytest.UsageError(
            "the expected differences list tests that were not collected (renamed or removed?):\n  "
            + "\n  ".join(stale)
        )
    if verify:
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    global _current_switch
    _current_switch = item.stash.get(_SWITCH, None)
    try:
        return (yield)
    finally:
        _current_switch = None


# --- report ----------------------------------------------------------------------------


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("--mlglossary-off"):
        return f"mlglossary: BASELINE run, {EXTENSION} is NOT loaded"
    import sphinxcontrib_mlglossary

    where = Path(sphinxcontrib_mlglossary.__file__).parent
    mode = (
        "VERIFY run: only the expected differences, each with its switch off"
        if config.getoption("--mlglossary-verify-expected")
        else "default configuration"
    )
    return (
        f"mlglossary: {EXTENSION} {sphinxcontrib_mlglossary.__version__} from {where}, appended to "
        f"`extensions` of every SphinxTestApp; {mode}; {len(config.stash[_EXPECTED])} expected differences"
    )


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if config.getoption("--mlglossary-off"):
        terminalreporter.write_line("mlglossary: baseline run, extension not loaded")
        return
    terminalreporter.write_line(f"mlglossary: {_apps_created} Sphinx test apps created, each loaded {EXTENSION}")
