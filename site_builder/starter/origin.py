"""Where the running site-builder was installed from, as a requirement a site's CI can install.

``init`` writes a workflow that installs the tool that wrote the site. How it was installed
is in the distribution's ``direct_url.json`` (PEP 610): absent for an install from a package
index, which the version pins; a git URL and commit for an install from git; a file or URL
for a wheel; a folder for an install from a clone. A folder is on this machine only: when it
is a git clone whose ``origin`` is on a server, the workflow installs the same commit from
there; otherwise the requirement is the folder itself, which works here but not on GitHub's
runners, and ``init`` says which line to change.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

import site_builder
from site_builder import __version__

NAME = "site-builder"
"""The distribution's name, as pip knows it."""
_SCP_LIKE = re.compile(r"^(?P<user>[\w.-]+)@(?P<host>[\w.-]+):(?P<path>[^/].*)$")


@dataclass(frozen=True, slots=True)
class Origin:
    """What a site's CI installs to get this site-builder."""

    requirement: str
    """For ``pip install``: ``site-builder==0.1.0``, ``site-builder @ git+URL@COMMIT``, …"""
    note: str | None = None
    """What ``init`` says about it: how to make it work on CI; None when it works there as is."""


def origin() -> Origin:
    """The requirement of the running site-builder (see the module's docstring)."""
    checkout = _source_checkout()
    if checkout is not None:
        return from_folder(checkout)
    return from_direct_url(_direct_url())


def from_direct_url(direct: dict[str, object] | None) -> Origin:
    """The requirement that ``direct_url.json`` (parsed; None when there is none) describes."""
    if direct is None:
        return Origin(f"{NAME}=={__version__}")
    url = str(direct.get("url", ""))
    vcs = direct.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") == "git" and vcs.get("commit_id"):
        return _at(f"{NAME} @ git+{url}@{vcs['commit_id']}", url)
    if "dir_info" in direct and url.startswith("file:"):
        return from_folder(Path(unquote(urlsplit(url).path)))
    return _at(f"{NAME} @ {url}", url)  # a wheel or an archive


def _at(requirement: str, url: str) -> Origin:
    """``requirement``, installed from ``url``: with a note when that is on this machine."""
    return Origin(requirement, _unreachable(requirement) if url.startswith("file:") else None)


def from_folder(folder: Path) -> Origin:
    """A site-builder installed from ``folder``: its git commit, from its ``origin`` remote
    when that is on a server; else the folder itself, which only this machine can reach."""
    remote, commit = _git(folder, "remote", "get-url", "origin"), _git(folder, "rev-parse", "HEAD")
    server = _server_url(remote) if remote else None
    if server and commit:
        note = (
            f"the workflows install site-builder from {server} at commit {commit[:12]}, the one "
            f"checked out in {folder}, where this site-builder was installed from: push that "
            "commit there, or change the requirement in .github/workflows/ (site.yml, both jobs, "
            "and sources.yml)"
        )
        return Origin(f"{NAME} @ git+{server}@{commit}", note)
    requirement = f"{NAME} @ {folder.resolve().as_uri()}"
    return Origin(requirement, _unreachable(requirement))


def _unreachable(requirement: str) -> str:
    return (
        f"this site-builder was installed from this machine ({requirement.partition(' @ ')[2]}), "
        "which GitHub's runners cannot reach: in .github/workflows/ (site.yml, both jobs, and "
        "sources.yml), change "
        f'"{requirement}" to a requirement they can install, e.g. '
        f'"{NAME} @ git+https://github.com/OWNER/REPOSITORY@TAG"'
    )


def _server_url(remote: str) -> str | None:
    """A git remote as pip takes it after ``git+``; None for one on this machine."""
    if remote.startswith(("https://", "http://", "ssh://", "git://")):
        return remote
    if found := _SCP_LIKE.match(remote):  # git@github.com:owner/repository.git
        return f"ssh://{found['user']}@{found['host']}/{found['path']}"
    return None


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


def _source_checkout() -> Path | None:
    """The project folder when site-builder runs from it (an editable install, or the folder
    on the path): its own ``pyproject.toml`` beside the package. Its ``*.egg-info`` would
    shadow the installed distribution's ``direct_url.json`` for a command run there."""
    folder = Path(site_builder.__file__).resolve().parents[1]
    settings = folder / "pyproject.toml"
    try:
        text = settings.read_text("utf-8")
    except OSError:
        return None
    return folder if re.search(rf'^name = "{NAME}"$', text, re.MULTILINE) else None


def _direct_url() -> dict[str, object] | None:
    try:
        text = metadata.distribution(NAME).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        found = json.loads(text) if text else None
    except ValueError:
        return None
    return found if isinstance(found, dict) else None
