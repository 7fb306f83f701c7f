"""Every corpus the benchmarks measure: what it is, where it lives, and how it is loaded or installed.

A section of the registry (:mod:`benchmarks.registry`) names the corpora it measures by the
:class:`Corpus` entries of :data:`CORPORA`. The loaders check a corpus file and raise
``ValueError`` naming its first problem; the installers put the npm packages a corpus pins into
``benchmarks/.cache/`` (gitignored) and return None, with one line on stderr, when npm or the
registry cannot provide them.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.npm import npm_install
from webr4.browser.actions import UserAction, parse_actions
from webr4.resources import resource_dir
from webr4.serve import serve

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"


@dataclass(frozen=True)
class Corpus:
    """A corpus as the registry names it: ``name``, what it holds, and where (a path of this
    repository, or a note where the section makes its own)."""

    name: str
    what: str
    where: str


SITES = Corpus("sites", "the bundled sites with their expected races, and any site folder given on the command line",
               "webr4/resources/sites/")
GENERATED = Corpus("generated", "pages or traces the section generates itself, from a fixed seed", "(in the section)")
CPU_HEAVY = Corpus("cpu_heavy", "one page whose timer events do real JavaScript work", "benchmarks/pages/cpu-heavy/")
NPM_LIBRARIES = Corpus("npm_libraries", "jQuery, React, Vue: the npm libraries of the test suite's cache",
                       ".pytest_cache/d/webr4-instrument-npm/")
REAL_APPS = Corpus("real_apps", "TodoMVC apps of many frameworks from the npm registry, with one session",
                   "benchmarks/real_apps.json")
TODOMVC_EXAMPLES = Corpus("todomvc_examples", "the todomvc package's examples as it ships them (module loaders, "
                          "web-component polyfills), with the real apps' session", "benchmarks/real_apps.json")
REAL_WEB = Corpus("real_web", "pages of libraries of many kinds from the npm registry, each with its session",
                  "benchmarks/real_web.json, benchmarks/pages/real_web/")
FLAKY = Corpus("flaky", "a Playwright project whose tests fail when one response is slow", "benchmarks/flaky/")
CORPORA = {corpus.name: corpus for corpus in (SITES, GENERATED, CPU_HEAVY, NPM_LIBRARIES, REAL_APPS, TODOMVC_EXAMPLES,
                                              REAL_WEB, FLAKY)}

CPU_HEAVY_PAGE = HERE / "pages" / "cpu-heavy"
FLAKY_DIR = HERE / "flaky"
APPS_FILE = HERE / "real_apps.json"
APPS_CACHE = CACHE / "real_apps"
APPS_DIR = APPS_CACHE / "apps"
"""One folder per real app, once :func:`ensure_apps` has assembled them."""
TODOMVC = APPS_CACHE / "node_modules" / "todomvc" / "examples"
"""The todomvc package's examples, installed with the real apps."""
WEB_FILE = HERE / "real_web.json"
WEB_HOST_PAGES = HERE / "pages" / "real_web"
WEB_CACHE = CACHE / "real_web"
WEB_ROOT = WEB_CACHE / "root"
"""The real-web pages' served root, once :func:`ensure_web_root` has made it."""
LIBRARIES_DIR = HERE.parent / ".pytest_cache" / "d" / "webr4-instrument-npm"
LIBRARY_PACKAGES = ("jquery@3", "react@18", "react-dom@18", "vue@3", "jsdom@24")
"""The packages and versions of ``tests/conftest.py``'s ``npm_dir`` fixture, with its marker file."""
LIBRARIES = LIBRARIES_DIR / "node_modules"
_LIBRARIES_MARKER = LIBRARIES_DIR / ".webr4-installed"
APP_FIELDS = ("name", "framework", "version", "generation", "source")
PAGE_FIELDS = ("name", "kind", "package", "page")
_PINNED = re.compile(r"(@[a-z0-9._-]+/)?[a-z0-9._-]+@\d+\.\d+\.\d+")


# The bundled sites.

def find_sites(*directories: Path) -> list[Path]:
    """Every folder directly inside ``directories`` with an ``index.html`` and an ``expected.json``."""
    return [site for directory in directories for site in sorted(directory.iterdir())
            if (site / "index.html").is_file() and (site / "expected.json").is_file()]


def bundled_sites() -> list[Path]:
    """The sites webr4 ships, each with its expected races."""
    return find_sites(resource_dir("sites"))


def site_session(site: Path) -> list[dict[str, Any]]:
    """The session of a site folder: the user steps its ``expected.json`` gives, in webr4's action format."""
    session: list[dict[str, Any]] = json.loads((site / "expected.json").read_text()).get("session", [])
    return session


@contextmanager
def served(sites: list[Path]) -> Iterator[dict[Path, str]]:
    """Serve the folders holding ``sites`` on loopback; yields each site's URL."""
    with ExitStack() as stack:
        bases = {parent: stack.enter_context(serve(parent)) for parent in {site.parent for site in sites}}
        yield {site: f"{bases[site.parent]}{site.name}/" for site in sites}


# The real apps: TodoMVC from the npm registry.

@dataclass(frozen=True)
class App:
    """One app of the corpus: ``source`` is its folder inside the installed packages, ``vendor``
    maps a path inside the app to a file of another pinned package that it is copied from."""

    name: str
    framework: str
    version: str
    generation: str
    source: str
    vendor: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class AppCorpus:
    packages: tuple[str, ...]
    session: list[dict[str, Any]]
    apps: tuple[App, ...]

    @property
    def steps(self) -> list[UserAction]:
        return parse_actions(self.session)


def _entry_fields(entry: dict[str, Any], kind: str, required: tuple[str, ...], optional: str) -> str:
    """The entry's name, once it has every ``required`` field as a non-empty string and no field
    but those and ``optional``; ``ValueError`` names the first it lacks or the unknown ones."""
    name = entry.get("name", "?")
    missing = [key for key in required if not isinstance(entry.get(key), str) or not entry[key]]
    if missing:
        raise ValueError(f"{kind} {name!r} lacks {', '.join(missing)}")
    unknown = set(entry) - {*required, optional}
    if unknown:
        raise ValueError(f"{kind} {name!r} has unknown fields {', '.join(sorted(unknown))}")
    return str(name)


def load_apps(path: Path = APPS_FILE) -> AppCorpus:
    """Read and check the real-app corpus file; ``ValueError`` names the first problem."""
    raw = json.loads(path.read_text())
    packages = raw.get("packages")
    if not isinstance(packages, list) or not all(isinstance(p, str) and "@" in p[1:] for p in packages):
        raise ValueError("packages must be a list of pinned npm specs such as 'todomvc@0.1.1'")
    parse_actions(raw.get("session"))
    apps = []
    for entry in raw.get("apps", []):
        _entry_fields(entry, "app", APP_FIELDS, "vendor")
        apps.append(App(**entry))
    if len({app.name for app in apps}) != len(apps):
        raise ValueError("app names must be unique")
    installed = [spec.rsplit("@", 1)[0] for spec in packages]
    for app in apps:
        for source in (app.source, *app.vendor.values()):
            if not any(source.startswith(f"{name}/") for name in installed):
                raise ValueError(f"app {app.name!r} takes {source} from a package the corpus does not install")
    return AppCorpus(tuple(packages), raw["session"], tuple(apps))


def ensure_apps(corpus: AppCorpus, cache: Path = APPS_CACHE) -> Path | None:
    """The directory that holds one folder per app, installing and assembling them when the cache
    lacks them; None (with a note on stderr) when npm or the registry cannot provide them."""
    marker = cache / ".installed"
    apps = cache / "apps"
    wanted = json.dumps([corpus.packages, [asdict(app) for app in corpus.apps]])
    if marker.is_file() and marker.read_text() == wanted:
        return apps
    if not npm_install(cache, corpus.packages, who="real_apps", otherwise="the real-app corpus is not measured",
                       save=False):
        return None
    shutil.rmtree(apps, ignore_errors=True)
    modules = cache / "node_modules"
    for app in corpus.apps:
        shutil.copytree(modules / app.source, apps / app.name)
        for target, source in app.vendor.items():
            (apps / app.name / target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(modules / source, apps / app.name / target)
    marker.write_text(wanted)
    return apps


@contextlib.contextmanager
def served_apps(prefix: str) -> Iterator[tuple[AppCorpus, str, Path]]:
    """For a tool that measures the real apps: the corpus, the loopback URL its apps are served
    under and a scratch directory named with ``prefix``, removed afterwards. Exits with status 2
    when the apps cannot be installed (the installer has said why)."""
    corpus = load_apps()
    apps_dir = ensure_apps(corpus)
    if apps_dir is None:
        raise SystemExit(2)
    with serve(apps_dir) as base, tempfile.TemporaryDirectory(prefix=prefix) as scratch:
        yield corpus, base, Path(scratch)


# The real web pages: libraries from the npm registry.

@dataclass(frozen=True)
class WebPage:
    """One page of the real-web corpus: ``page`` is its path under the served root."""

    name: str
    kind: str
    package: str
    page: str
    session: list[dict[str, Any]]

    @property
    def steps(self) -> list[UserAction]:
        return parse_actions(self.session)


@dataclass(frozen=True)
class PageCorpus:
    packages: tuple[str, ...]
    pages: tuple[WebPage, ...]


def load_pages(path: Path = WEB_FILE, host_pages: Path = WEB_HOST_PAGES) -> PageCorpus:
    """Read and check the real-web corpus file; ``ValueError`` names the first problem: a package
    not pinned to one version, a page lacking a field or with one unknown, a session that is not
    webr4's action format, a page whose package the corpus does not install, a page outside its
    package or missing from ``host_pages``, or a name used twice."""
    raw = json.loads(path.read_text())
    packages = raw.get("packages")
    if not isinstance(packages, list) or not all(isinstance(p, str) and _PINNED.fullmatch(p) for p in packages):
        raise ValueError("packages must be a list of npm specs pinned to one version, such as 'quill@2.0.3'")
    pages = []
    for entry in raw.get("pages", []):
        name = _entry_fields(entry, "page", PAGE_FIELDS, "session")
        try:
            parse_actions(entry.get("session"))
        except (ValueError, TypeError) as error:
            raise ValueError(f"page {name!r} has a bad session: {error}") from None
        if entry["package"] not in packages:
            raise ValueError(f"page {name!r} shows {entry['package']}, which the corpus does not install")
        package_name = entry["package"].rsplit("@", 1)[0]
        shipped = entry["page"].startswith(f"node_modules/{package_name}/")
        hosted = entry["page"].startswith(f"pages/{name}/")
        if not shipped and not hosted:
            raise ValueError(f"page {name!r} must be node_modules/{package_name}/... or pages/{name}/...")
        if hosted and not (host_pages / entry["page"].removeprefix("pages/")).is_file():
            raise ValueError(f"page {name!r}: {entry['page']} is not in {host_pages}")
        pages.append(WebPage(**entry))
    if len({page.name for page in pages}) != len(pages):
        raise ValueError("page names must be unique")
    return PageCorpus(tuple(packages), tuple(pages))


def ensure_web_root(corpus: PageCorpus, cache: Path = WEB_CACHE) -> Path | None:
    """The directory to serve, holding ``node_modules`` (the corpus's packages, installed when
    the cache lacks them) and ``pages`` (a link to the host pages); None, with a note on stderr,
    when npm or the registry cannot provide the packages."""
    marker = cache / ".installed"
    wanted = json.dumps(corpus.packages)
    if not (marker.is_file() and marker.read_text() == wanted):
        if not npm_install(cache, corpus.packages, who="real_web", otherwise="the real-web corpus is not measured",
                           save=False):
            return None
        marker.write_text(wanted)
    root = cache / "root"
    root.mkdir(exist_ok=True)
    for name, target in (("node_modules", cache / "node_modules"), ("pages", WEB_HOST_PAGES)):
        link = root / name
        if not link.is_symlink() or link.resolve() != target.resolve():
            link.unlink(missing_ok=True)
            link.symlink_to(target.resolve(), target_is_directory=True)
    return root


# The test suite's npm libraries, and the flaky-test corpus.

def ensure_libraries() -> Path | None:
    """:data:`LIBRARIES`, the ``node_modules`` of the test suite's npm packages, installed into its cache unless they
    are there; None (with a note on stderr) when they cannot be had."""
    if not (_LIBRARIES_MARKER.is_file() and _LIBRARIES_MARKER.read_text() == " ".join(LIBRARY_PACKAGES)):
        if not npm_install(LIBRARIES_DIR, LIBRARY_PACKAGES, who="rewrite_speed",
                           otherwise="measuring the synthetic script only", timeout=600):
            return None
        _LIBRARIES_MARKER.write_text(" ".join(LIBRARY_PACKAGES))
    return LIBRARIES


def load_flaky(path: Path = FLAKY_DIR / "corpus.json") -> list[dict[str, Any]]:
    """The flaky-test corpus's entries, in file order: each names a test, its slow response and how slow."""
    entries: list[dict[str, Any]] = json.loads(path.read_text())
    return entries
