#!/usr/bin/env python3
"""Build the git-prism benchmark corpus: a git repository made of real release history.

What
----
The repository holds the successive published releases of a few Rust crates
(from crates.io) and Python packages (from PyPI). Each release's source tree is
placed under ``rust/<name>/`` or ``python/<name>/``, replacing the previous
release of that package entirely, so files deleted upstream are deleted here
and files moved upstream show up as renames. There is one commit per release,
all packages interleaved in one linear history ordered by release date. Each
commit is dated with its release date, says ``<name> <version>`` and carries a
lightweight tag ``<name>-<version>``.

Why
---
git-prism's benchmarks need a repository that behaves like a real one: large
and small diffs, renames, deletions, restructurings (clap 2 -> 3 -> 4, the
``src/`` layouts of requests and flask), a packed object store, and enough
history for ranges of 1, 10, 100 and 1000 commits ending at HEAD. Registry
archives are the only source of real code this machine can reach, and they are
immutable and checksummed, so the corpus is reproducible: releases are taken up
to a fixed cut-off date (``--until``) and registry metadata is cached.

How
---
1. Release metadata (crates.io sparse index, PyPI JSON API) is fetched once and
   cached under ``<out>/downloads/meta``; yanked releases and pre-releases are
   skipped.
2. Archives are downloaded in parallel into ``<out>/downloads`` and verified
   against the registry's sha256; a cached archive is never downloaded again.
3. Archives are read in memory (with strict path safety checks) and streamed to
   ``git fast-import``, which is much faster than one ``git add``/``git commit``
   pair per release and stores file contents exactly (no .gitignore or
   .gitattributes from the packages gets in the way). The work tree is then
   checked out and ``git gc`` packs the repository.
4. Everything is built in a temporary directory and renamed into place; a stamp
   (hash of the exact release list plus the script version) makes a re-run with
   the same inputs exit immediately.

Usage: ``python3 bench/corpus.py [--out DIR] [--max-per-package N] [--force]``.
Progress goes to stderr; the last line on stdout is the repository's path.
Standard library only.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import contextlib
import dataclasses
import datetime as dt
import fcntl
import hashlib
import json
import os
import posixpath
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Iterator

# Bump whenever a change to this script changes the repository it builds.
SCRIPT_VERSION = 1

# Releases published before this instant are included; pinned so that every
# machine builds the same corpus. Override with --until.
DEFAULT_UNTIL = "2026-11-01T00:00:00Z"


@dataclasses.dataclass(frozen=True)
class Package:
    ecosystem: str  # "crates" or "pypi"
    name: str
    max_versions: int | None = None  # keep only the most recent N releases


# Chosen for long histories with big restructurings as well as small patches:
#  - clap: ~350 releases; 2.x -> 3.x reorganised src/ wholesale, 4.x moved the
#    code out to clap_builder, leaving a small crate (mass deletions).
#  - regex: ~165 releases over 12 years, incl. the 1.9 rewrite onto regex-automata.
#  - syn: ~345 releases; the 0.x -> 1.0 -> 2.0 rewrites, frequent small patches.
#  - requests: ~150 sdists since 2011; moved to a src/ layout in 2.32.
#  - flask: moved to src/flask in 1.0; docs/examples reshuffled many times.
#  - attrs: moved to src/, added the attrs/ namespace package in 21.3.
#  - tokio (latest 60 releases): ~500 source files, so HEAD holds about 1,000
#    Rust and Python files, the size the function-context benchmark asks for.
PACKAGES: tuple[Package, ...] = (
    Package("crates", "clap"),
    Package("crates", "regex"),
    Package("crates", "syn"),
    Package("pypi", "requests"),
    Package("pypi", "flask"),
    Package("pypi", "attrs"),
    Package("crates", "tokio", max_versions=60),
)

DOWNLOAD_THREADS = 16
READ_AHEAD = 6  # archives decoded ahead of fast-import
MAX_FILE_SIZE = 5 * 1024 * 1024  # larger files are left out of the corpus
MAX_FAILURE_RATIO = 0.05  # abort when more releases than this cannot be used
HTTP_TIMEOUT = 30
HTTP_ATTEMPTS = 3
USER_AGENT = f"git-prism-bench-corpus/{SCRIPT_VERSION}"

CRATES_INDEX = "https://index.crates.io"
CRATES_DOWNLOAD = "https://static.crates.io/crates"
PYPI_JSON = "https://pypi.org/pypi"

IDENT = b"git-prism corpus <corpus@git-prism.invalid>"
SDIST_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip")  # preference order

# PEP 440 version grammar (canonical regex from the specification's appendix).
PEP440 = re.compile(
    r"""v?(?:(?:(?P<epoch>[0-9]+)!)?(?P<release>[0-9]+(?:\.[0-9]+)*)
    (?P<pre>[-_.]?(?:alpha|a|beta|b|preview|pre|c|rc)[-_.]?[0-9]*)?
    (?P<post>-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?
    (?P<dev>[-_.]?dev[-_.]?[0-9]*)?)(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?""",
    re.VERBOSE | re.IGNORECASE,
)


class CorpusError(Exception):
    """A failure that ends the build with a one-line message and exit status 1."""


class FetchError(Exception):
    """A download failed; `network` tells a connectivity problem from an HTTP error."""

    def __init__(self, message: str, network: bool):
        super().__init__(message)
        self.network = network


@dataclasses.dataclass(frozen=True)
class Release:
    ecosystem: str
    package: str
    version: str
    epoch: int  # release date, seconds since 1970 UTC
    seq: int  # publication order within the package (tie-breaker)
    url: str
    filename: str
    sha256: str | None

    @property
    def pkgdir(self) -> str:
        return ("rust/" if self.ecosystem == "crates" else "python/") + self.package

    @property
    def tag(self) -> str:
        return f"{self.package}-{self.version}"

    @property
    def date(self) -> str:
        return iso(self.epoch)

    @property
    def cache_path(self) -> str:
        return f"{self.ecosystem}/{self.package}/{self.filename}"


def log(message: str) -> None:
    print(f"[corpus] {message}", file=sys.stderr, flush=True)


def iso(epoch: int) -> str:
    return dt.datetime.fromtimestamp(epoch, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(text: str) -> int:
    """Parse an ISO 8601 timestamp ('Z' or offset) into epoch seconds."""
    moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    return int(moment.timestamp())


# --------------------------------------------------------------------------
# HTTP
# --------------------------------------------------------------------------


def http_get(url: str) -> bytes:
    """GET a URL with retries; raise FetchError with a readable reason."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    for attempt in range(1, HTTP_ATTEMPTS + 1):
        try:
            with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
                return response.read()
        except urllib.error.HTTPError as err:
            retriable = err.code == 429 or err.code >= 500
            if not retriable or attempt == HTTP_ATTEMPTS:
                raise FetchError(f"HTTP {err.code} for {url}", network=False) from None
        except (urllib.error.URLError, OSError) as err:
            if attempt == HTTP_ATTEMPTS:
                reason = getattr(err, "reason", err)
                raise FetchError(f"cannot reach {url}: {reason}", network=True) from None
        time.sleep(attempt)  # simple linear back-off
    raise AssertionError("unreachable")


def write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


# --------------------------------------------------------------------------
# Release metadata
# --------------------------------------------------------------------------


def crates_index_url(name: str) -> str:
    name = name.lower()
    if len(name) <= 2:
        prefix = str(len(name))
    elif len(name) == 3:
        prefix = f"3/{name[0]}"
    else:
        prefix = f"{name[:2]}/{name[2:4]}"
    return f"{CRATES_INDEX}/{prefix}/{name}"


def cached_metadata(url: str, cache: Path, until: int, refresh: bool) -> str:
    """Return the body of a metadata URL, from the cache when it is recent enough.

    A cached copy is used when it was fetched after the --until cut-off: the
    releases it lists up to that instant cannot change any more (short of a yank).
    """
    if cache.exists() and not refresh:
        entry = json.loads(cache.read_text())
        if entry["fetched_at"] >= until:
            return entry["body"]
    try:
        body = http_get(url).decode("utf-8")
    except FetchError as err:
        raise CorpusError(
            f"cannot fetch release metadata ({err}) and no usable copy is cached in {cache.parent}"
        ) from None
    entry = {"url": url, "fetched_at": int(time.time()), "body": body}
    write_atomically(cache, json.dumps(entry).encode())
    return body


def crate_releases(name: str, body: str) -> list[Release]:
    """Stable, non-yanked releases from a sparse-index file (one JSON per line)."""
    entries = [json.loads(line) for line in body.splitlines() if line.strip()]
    epochs = fill_missing_dates([e.get("pubtime") for e in entries])
    releases = []
    for seq, (entry, epoch) in enumerate(zip(entries, epochs)):
        version = entry["vers"]
        if entry.get("yanked") or "-" in version or epoch is None:
            continue
        filename = f"{name}-{version}.crate"
        url = f"{CRATES_DOWNLOAD}/{name}/{filename}"
        releases.append(Release("crates", name, version, epoch, seq, url, filename, entry.get("cksum")))
    return releases


def fill_missing_dates(pubtimes: list[str | None]) -> list[int | None]:
    """Old index lines lack `pubtime`. Lines are in publication order, so a missing
    date is taken from the previous line (or the next one for the first lines)."""
    epochs = [parse_time(p) if p else None for p in pubtimes]
    last = None
    for i, epoch in enumerate(epochs):
        epochs[i] = last = epoch if epoch is not None else last
    following = None
    for i in reversed(range(len(epochs))):
        epochs[i] = following = epochs[i] if epochs[i] is not None else following
    return epochs


def is_stable_pep440(version: str) -> bool:
    match = PEP440.fullmatch(version.strip())
    return bool(match) and not match.group("pre") and not match.group("dev")


def pypi_releases(name: str, body: str) -> list[Release]:
    """Stable releases that have a non-yanked sdist, from PyPI's JSON API."""
    releases = []
    for version, files in json.loads(body)["releases"].items():
        if not is_stable_pep440(version):
            continue
        sdist = pick_sdist(files)
        if sdist is None:
            continue  # wheel-only or fully yanked release
        live = [f for f in files if not f.get("yanked")]
        epoch = min(parse_time(f["upload_time_iso_8601"]) for f in live)
        sha = sdist.get("digests", {}).get("sha256")
        releases.append(Release("pypi", name, version, epoch, 0, sdist["url"], sdist["filename"], sha))
    releases.sort(key=lambda r: (r.epoch, r.filename))
    return [dataclasses.replace(r, seq=i) for i, r in enumerate(releases)]


def pick_sdist(files: list[dict]) -> dict | None:
    candidates = [
        f for f in files
        if f.get("packagetype") == "sdist" and not f.get("yanked")
        and f["filename"].lower().endswith(SDIST_SUFFIXES)
    ]
    def preference(f: dict) -> int:
        return next(i for i, s in enumerate(SDIST_SUFFIXES) if f["filename"].lower().endswith(s))
    return min(candidates, key=preference, default=None)


def load_releases(meta_dir: Path, until: int, refresh: bool) -> dict[Package, list[Release]]:
    result = {}
    for package in PACKAGES:
        if package.ecosystem == "crates":
            url = crates_index_url(package.name)
            body = cached_metadata(url, meta_dir / f"crates-{package.name}.json", until, refresh)
            result[package] = crate_releases(package.name, body)
        else:
            url = f"{PYPI_JSON}/{package.name}/json"
            body = cached_metadata(url, meta_dir / f"pypi-{package.name}.json", until, refresh)
            result[package] = pypi_releases(package.name, body)
    return result


def select_releases(
    available: dict[Package, list[Release]], until: int, max_per_package: int | None
) -> list[Release]:
    """Releases before the cut-off, capped per package (most recent kept), in
    commit order: by date across packages, then package order, then publication."""
    selected = []
    for index, package in enumerate(PACKAGES):
        releases = sorted((r for r in available[package] if r.epoch < until), key=lambda r: (r.epoch, r.seq))
        caps = [c for c in (package.max_versions, max_per_package) if c is not None]
        if caps:
            releases = releases[-min(caps):] if min(caps) > 0 else []
        selected += [(r.epoch, index, r.seq, r) for r in releases]
    return [entry[-1] for entry in sorted(selected, key=lambda e: e[:3])]


def selection_hash(releases: list[Release]) -> str:
    listing = [[r.package, r.version, r.date] for r in releases]
    payload = json.dumps({"script_version": SCRIPT_VERSION, "releases": listing})
    return hashlib.sha256(payload.encode()).hexdigest()


# --------------------------------------------------------------------------
# Downloads
# --------------------------------------------------------------------------


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def is_cached(release: Release, downloads: Path) -> bool:
    path = downloads / release.cache_path
    return path.is_file() and (release.sha256 is None or sha256_of(path) == release.sha256)


def download(release: Release, downloads: Path) -> None:
    data = http_get(release.url)
    if release.sha256 and hashlib.sha256(data).hexdigest() != release.sha256:
        raise FetchError(f"checksum mismatch for {release.url}", network=False)
    write_atomically(downloads / release.cache_path, data)


def fetch_archives(releases: list[Release], downloads: Path, max_failures: int) -> dict[Release, str]:
    """Make sure every archive is in the cache. Returns {release: reason} for the
    ones that could not be downloaded; raises CorpusError when there are too many
    or when the network is plainly unreachable."""
    with concurrent.futures.ThreadPoolExecutor(DOWNLOAD_THREADS) as pool:
        cached = list(pool.map(lambda r: is_cached(r, downloads), releases))
    missing = [r for r, ok in zip(releases, cached) if not ok]
    log(f"{len(releases) - len(missing)} archives cached, {len(missing)} to download")
    if not missing:
        return {}

    failures: dict[Release, str] = {}
    # Probe with one download first so that an offline machine fails fast with
    # one clear message instead of a thousand time-outs.
    try:
        download(missing[0], downloads)
    except FetchError as err:
        if err.network:
            raise CorpusError(
                f"network unavailable ({err}); {len(missing)} of {len(releases)} archives "
                f"are not cached in {downloads}"
            ) from None
        failures[missing[0]] = str(err)
        log(f"warning: skipping {missing[0].tag}: {err}")

    done = 1
    with concurrent.futures.ThreadPoolExecutor(DOWNLOAD_THREADS) as pool:
        futures = {pool.submit(download, r, downloads): r for r in missing[1:]}
        for future in concurrent.futures.as_completed(futures):
            release, done = futures[future], done + 1
            try:
                future.result()
            except FetchError as err:
                failures[release] = str(err)
                log(f"warning: skipping {release.tag}: {err}")
                if len(failures) > max_failures:
                    pool.shutdown(cancel_futures=True)
                    raise CorpusError(
                        f"{len(failures)} downloads failed (limit {max_failures}); last: {err}"
                    ) from None
            if done % 100 == 0 or done == len(missing):
                log(f"downloaded {done}/{len(missing)}")
    return failures


# --------------------------------------------------------------------------
# Reading archives safely
# --------------------------------------------------------------------------

# One entry of a package tree: git mode ("100644", "100755", "120000") and content
# (the link target for symlinks).
Tree = dict[str, tuple[str, bytes]]


@dataclasses.dataclass
class RawEntry:
    parts: tuple[str, ...]
    kind: str  # "file", "symlink" or "hardlink"
    mode: str = "100644"
    data: bytes = b""
    link: str = ""


def safe_parts(name: str) -> tuple[str, ...] | None:
    """Split an archive member name into path components, or None if unsafe:
    absolute, climbing with '..', or containing a '.git' component (which git
    refuses to check out)."""
    if name.startswith("/") or re.match(r"[A-Za-z]:[\\/]", name):
        return None
    parts = tuple(p for p in name.split("/") if p not in ("", "."))
    if not parts or any(p == ".." or p.lower() == ".git" for p in parts):
        return None
    return parts


def git_mode(unix_mode: int) -> str:
    return "100755" if unix_mode & 0o111 else "100644"


def read_tar(path: Path, skipped: collections.Counter) -> list[RawEntry]:
    entries = []
    with tarfile.open(path, "r:*") as archive:
        for member in archive:
            if member.isdir():
                continue
            parts = safe_parts(member.name)
            if parts is None:
                skipped["unsafe path"] += 1
            elif member.isreg():
                if member.size > MAX_FILE_SIZE:
                    skipped["larger than 5 MB"] += 1
                    continue
                data = archive.extractfile(member).read()
                entries.append(RawEntry(parts, "file", git_mode(member.mode), data))
            elif member.issym():
                entries.append(RawEntry(parts, "symlink", link=member.linkname))
            elif member.islnk():
                entries.append(RawEntry(parts, "hardlink", link=member.linkname))
            else:
                skipped["device or fifo"] += 1
    return entries


def read_zip(path: Path, skipped: collections.Counter) -> list[RawEntry]:
    entries = []
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            parts = safe_parts(info.filename)
            unix_mode = info.external_attr >> 16 if info.create_system == 3 else 0
            kind = stat.S_IFMT(unix_mode)
            if parts is None:
                skipped["unsafe path"] += 1
            elif kind not in (0, stat.S_IFREG, stat.S_IFLNK):
                skipped["device or fifo"] += 1
            elif info.file_size > MAX_FILE_SIZE:
                skipped["larger than 5 MB"] += 1
            elif kind == stat.S_IFLNK:
                target = archive.read(info).decode("utf-8", "surrogateescape")
                entries.append(RawEntry(parts, "symlink", link=target))
            else:
                entries.append(RawEntry(parts, "file", git_mode(unix_mode), archive.read(info)))
    return entries


def strip_top_dir(entries: list[RawEntry]) -> int:
    """Number of leading components to drop: 1 when every entry sits under the
    same top-level directory (`name-version/`), else 0."""
    tops = {e.parts[0] for e in entries}
    return 1 if len(tops) == 1 and all(len(e.parts) > 1 for e in entries) else 0


def link_stays_inside(link_path: str, target: str, symlinks: set[str]) -> bool:
    """True when a symlink at `link_path` pointing to `target` resolves inside the
    package root, judged lexically. Traversing another symlink is refused, since
    '..' after it would climb from wherever that link points."""
    if not target or target.startswith("/"):
        return False
    resolved = link_path.split("/")[:-1]
    for part in target.split("/"):
        if resolved and "/".join(resolved) in symlinks:
            return False
        if part == "..":
            if not resolved:
                return False
            resolved.pop()
        elif part not in ("", "."):
            resolved.append(part)
    return True


def build_tree(entries: list[RawEntry], skipped: collections.Counter) -> Tree:
    """Turn raw archive entries into a package tree, enforcing path safety."""
    depth = strip_top_dir(entries)
    path_of = {e.parts: "/".join(e.parts[depth:]) for e in entries}
    symlinks = {path_of[e.parts] for e in entries if e.kind == "symlink"}
    tree: Tree = {}
    for entry in entries:
        path = path_of[entry.parts]
        if entry.kind == "file":
            tree[path] = (entry.mode, entry.data)
        elif entry.kind == "symlink":
            if link_stays_inside(path, entry.link, symlinks):
                tree[path] = ("120000", entry.link.encode("utf-8", "surrogateescape"))
            else:
                skipped["symlink leaving the package"] += 1
        else:  # a hard link names an earlier member of the same archive
            target_parts = safe_parts(entry.link)
            target = path_of.get(target_parts) if target_parts else None
            if target in tree and tree[target][0] != "120000":
                tree[path] = tree[target]
            else:
                skipped["hard link leaving the package"] += 1
    return drop_path_conflicts(tree, skipped)


def drop_path_conflicts(tree: Tree, skipped: collections.Counter) -> Tree:
    """Drop entries below a path that is itself a file or symlink (a file/directory
    clash git cannot represent, and a way to write through a symlink)."""
    clean = {}
    for path, entry in tree.items():
        parts = path.split("/")
        if any("/".join(parts[:i]) in tree for i in range(1, len(parts))):
            skipped["path below a file or symlink"] += 1
        else:
            clean[path] = entry
    return clean


def read_tree(path: Path) -> tuple[Tree, collections.Counter]:
    """Read a .crate / sdist archive into a package tree (top directory stripped)."""
    skipped: collections.Counter = collections.Counter()
    try:
        if path.name.lower().endswith(".zip"):
            entries = read_zip(path, skipped)
        else:
            entries = read_tar(path, skipped)
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError, ValueError) as err:
        reason = " ".join(str(err).split())  # some tarfile errors span several lines
        raise ValueError(f"unreadable archive {path.name}: {reason}") from None
    return build_tree(entries, skipped), skipped


def read_ahead(releases: list[Release], downloads: Path) -> Iterator[tuple[Release, Tree | None, object]]:
    """Yield (release, tree, skipped-or-error) in order, decoding a few archives
    ahead in threads (decompression releases the GIL) while git imports."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        pending: collections.deque = collections.deque()
        upcoming = iter(releases)
        for release in upcoming:
            pending.append((release, pool.submit(read_tree, downloads / release.cache_path)))
            if len(pending) >= READ_AHEAD:
                break
        while pending:
            release, future = pending.popleft()
            following = next(upcoming, None)
            if following is not None:
                pending.append((following, pool.submit(read_tree, downloads / following.cache_path)))
            try:
                tree, skipped = future.result()
                yield release, tree, skipped
            except ValueError as err:
                yield release, None, err


# --------------------------------------------------------------------------
# Git
# --------------------------------------------------------------------------


def find_git() -> str:
    for candidate in ("/usr/local/bin/git", "/usr/bin/git"):
        if os.access(candidate, os.X_OK):
            return candidate
    raise CorpusError("git not found at /usr/local/bin/git or /usr/bin/git")


def git_env(home: Path) -> dict[str, str]:
    """A hermetic environment: no user/system config, no inherited GIT_* variables,
    and the git-prism shim (if installed) passing straight through to git."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "LC_ALL": "C",
        "TZ": "UTC",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_PRISM_PASSTHROUGH": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_AUTHOR_NAME": "git-prism corpus",
        "GIT_AUTHOR_EMAIL": "corpus@git-prism.invalid",
        "GIT_COMMITTER_NAME": "git-prism corpus",
        "GIT_COMMITTER_EMAIL": "corpus@git-prism.invalid",
    }


class Git:
    def __init__(self, repo: Path, home: Path):
        self.exe, self.repo, self.env = find_git(), repo, git_env(home)

    def run(self, *args: str) -> str:
        result = subprocess.run(
            [self.exe, *args], cwd=self.repo, env=self.env, capture_output=True, text=True
        )
        if result.returncode != 0:
            raise CorpusError(f"git {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout.strip()

    def fast_import(self) -> subprocess.Popen:
        return subprocess.Popen(
            [self.exe, "fast-import", "--quiet", "--done"],
            cwd=self.repo, env=self.env, stdin=subprocess.PIPE, bufsize=1 << 20,
        )


def quote_path(path: str) -> bytes:
    """C-style quoting accepted by fast-import for any path."""
    out = bytearray(b'"')
    for byte in path.encode("utf-8", "surrogateescape"):
        if byte in (0x22, 0x5C):
            out += b"\\" + bytes([byte])
        elif byte < 0x20 or byte == 0x7F:
            out += b"\\%03o" % byte
        else:
            out.append(byte)
    return bytes(out + b'"')


def write_commit(stream, release: Release, tree: Tree, mark: int) -> None:
    """One fast-import commit replacing the package directory with `tree`, plus
    its lightweight tag."""
    message = f"{release.package} {release.version}\n".encode()
    when = b"%d +0000" % release.epoch
    stream.write(b"commit refs/heads/main\nmark :%d\n" % mark)
    stream.write(b"author %s %s\ncommitter %s %s\n" % (IDENT, when, IDENT, when))
    stream.write(b"data %d\n%s" % (len(message), message))
    stream.write(b"D %s\n" % quote_path(release.pkgdir))
    for path in sorted(tree):
        mode, data = tree[path]
        quoted = quote_path(f"{release.pkgdir}/{path}")
        stream.write(b"M %s inline %s\ndata %d\n" % (mode.encode(), quoted, len(data)))
        stream.write(data)
        stream.write(b"\n")
    stream.write(b"\nreset refs/tags/%s\nfrom :%d\n\n" % (release.tag.encode(), mark))


def import_history(
    git: Git, releases: list[Release], downloads: Path, max_failures: int, failed: dict[Release, str]
) -> list[Release]:
    """Stream every release into git fast-import. Returns the committed releases."""
    committed: list[Release] = []
    skipped_total: collections.Counter = collections.Counter()
    process = git.fast_import()
    try:
        for release, tree, info in read_ahead(releases, downloads):
            if tree is None:
                failed[release] = str(info)
                log(f"warning: skipping {release.tag}: {info}")
                if len(failed) > max_failures:
                    raise CorpusError(f"{len(failed)} releases unusable (limit {max_failures}); last: {info}")
                continue
            skipped_total.update(info)
            committed.append(release)
            write_commit(process.stdin, release, tree, len(committed))
            if len(committed) % 100 == 0:
                log(f"imported {len(committed)}/{len(releases)} ({release.date[:10]} {release.tag})")
        process.stdin.write(b"done\n")
        process.stdin.close()
    except BrokenPipeError:
        pass  # fast-import died; its own message is already on stderr
    except BaseException:
        process.kill()
        process.wait()
        raise
    if process.wait() != 0:
        raise CorpusError(f"git fast-import failed with status {process.returncode}")
    if skipped_total:
        details = ", ".join(f"{n} {reason}" for reason, n in sorted(skipped_total.items()))
        log(f"archive entries left out: {details}")
    return committed


def build_repository(
    build: Path, out: Path, releases: list[Release], downloads: Path,
    max_failures: int, failed: dict[Release, str],
) -> list[Release]:
    """Create the repository in `build`: import history, check out, pack."""
    build.mkdir(parents=True)
    git = Git(build, home=out)
    git.run("init", "-q", "-b", "main", ".")
    started = time.monotonic()
    committed = import_history(git, releases, downloads, max_failures, failed)
    log(f"fast-import done in {time.monotonic() - started:.0f}s; checking out and packing")
    git.run("checkout", "-q", "-f", "main")  # populate the index and work tree
    # fast-import deltas each blob only against the previous blob it received,
    # and a plain gc reuses those deltas: force one full delta search (a few
    # seconds, ~6x smaller pack), then gc for packed refs and the commit-graph.
    git.run("repack", "-q", "-a", "-d", "-f")
    git.run("gc", "-q")
    count = int(git.run("rev-list", "--count", "HEAD"))
    if count != len(committed):
        raise CorpusError(f"expected {len(committed)} commits, found {count}")
    return committed


# --------------------------------------------------------------------------
# Outputs and orchestration
# --------------------------------------------------------------------------


def summary(repo: Path, head: str, committed: list[Release], failed: dict[Release, str], until: int) -> dict:
    packages = {}
    for package in PACKAGES:
        mine = [r for r in committed if r.package == package.name]
        if not mine:
            continue
        packages[package.name] = {
            "ecosystem": package.ecosystem,
            "dir": mine[0].pkgdir,
            "versions": len(mine),
            "first_version": mine[0].version,
            "first_date": mine[0].date,
            "last_version": mine[-1].version,
            "last_date": mine[-1].date,
        }
    return {
        "script_version": SCRIPT_VERSION,
        "repo": str(repo),
        "head": head,
        "commits": len(committed),
        "until": iso(until),
        "packages": packages,
        "skipped": {r.tag: reason for r, reason in failed.items()},
    }


def default_out_dir() -> Path:
    target = os.environ.get("CARGO_TARGET_DIR")
    if target:
        return Path(target).absolute() / "bench-corpus"
    return Path(__file__).resolve().parent.parent / "target" / "bench-corpus"


@contextlib.contextmanager
def exclusive_lock(out: Path) -> Iterator[None]:
    """Serialise concurrent runs on the same output directory."""
    with (out / ".lock").open("w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log("another build is running on this directory; waiting")
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def is_up_to_date(out: Path, digest: str) -> bool:
    stamp_path, repo = out / "stamp.json", out / "repo"
    if not stamp_path.is_file() or not (repo / ".git" / "HEAD").is_file():
        return False
    try:
        return json.loads(stamp_path.read_text()).get("selection") == digest
    except (ValueError, OSError):
        return False


def install(build: Path, out: Path, digest: str, info: dict) -> Path:
    """Swap the finished build in. The stamp goes first and comes back last, so an
    interruption anywhere in between leaves a state that triggers a rebuild."""
    repo = out / "repo"
    (out / "stamp.json").unlink(missing_ok=True)
    if repo.exists():
        shutil.rmtree(repo)
    os.rename(build, repo)
    write_atomically(out / "corpus.json", (json.dumps(info, indent=2) + "\n").encode())
    stamp = {"script_version": SCRIPT_VERSION, "selection": digest, "commits": info["commits"]}
    write_atomically(out / "stamp.json", (json.dumps(stamp, indent=2) + "\n").encode())
    return repo


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path,
        help="output directory (default: $CARGO_TARGET_DIR/bench-corpus, else target/bench-corpus)")
    parser.add_argument(
        "--max-per-package", type=int, metavar="N",
        help="keep only the N most recent releases of each package (quick tests)")
    parser.add_argument(
        "--until", default=DEFAULT_UNTIL,
        help=f"include releases published before this ISO date (default {DEFAULT_UNTIL})")
    parser.add_argument(
        "--refresh-metadata", action="store_true", help="re-fetch registry metadata even if cached")
    parser.add_argument("--force", action="store_true", help="rebuild even if the stamp matches")
    return parser.parse_args(argv)


def run(args: argparse.Namespace) -> Path:
    started = time.monotonic()
    out = (args.out or default_out_dir()).absolute()
    downloads = out / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    until = parse_time(args.until if "T" in args.until else args.until + "T00:00:00Z")

    with exclusive_lock(out):
        available = load_releases(downloads / "meta", until, args.refresh_metadata)
        releases = select_releases(available, until, args.max_per_package)
        if not releases:
            raise CorpusError("no releases selected")
        digest = selection_hash(releases)
        if not args.force and is_up_to_date(out, digest):
            log(f"up to date ({len(releases)} releases)")
            return out / "repo"

        log(f"building {len(releases)} releases of {len(PACKAGES)} packages into {out}")
        max_failures = int(len(releases) * MAX_FAILURE_RATIO)
        failed = fetch_archives(releases, downloads, max_failures)
        usable = [r for r in releases if r not in failed]

        build = out / "repo.building"
        if build.exists():
            shutil.rmtree(build)  # left over from an interrupted run
        try:
            committed = build_repository(build, out, usable, downloads, max_failures, failed)
            head = Git(build, home=out).run("rev-parse", "HEAD")
            info = summary(out / "repo", head, committed, failed, until)
            repo = install(build, out, digest, info)
        finally:
            if build.exists():
                shutil.rmtree(build, ignore_errors=True)
        log(f"built {len(committed)} commits in {time.monotonic() - started:.0f}s")
        return repo


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        repo = run(args)
    except CorpusError as err:
        print(f"corpus.py: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("corpus.py: interrupted", file=sys.stderr)
        return 130
    print(repo)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
