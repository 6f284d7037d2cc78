"""The workflow ``init`` writes installs the site-builder that wrote the site, from where it was
installed; when that is this machine only, ``init`` says which line to change and how.

The last test is the whole path a new user takes: ``init`` in an empty folder, the workflow's
own install command run in a fresh virtual environment, then ``validate`` with what it
installed."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from site_builder import __version__
from site_builder.starter.origin import Origin, from_direct_url, from_folder
from tests.support.sites import RunCli

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def test_from_a_package_index_the_version_is_pinned() -> None:
    assert from_direct_url(None) == Origin(f"site-builder=={__version__}")


def test_from_git_the_commit_installed() -> None:
    direct = {
        "url": "https://github.com/example/site_builder",
        "vcs_info": {"vcs": "git", "commit_id": COMMIT},
    }
    assert from_direct_url(direct) == Origin(
        f"site-builder @ git+https://github.com/example/site_builder@{COMMIT}"
    )


def test_from_a_wheel_on_a_server_that_wheel_and_from_one_on_this_machine_a_note() -> None:
    served = "https://files.example/site_builder-0.1.0-py3-none-any.whl"
    assert from_direct_url({"url": served, "archive_info": {}}) == Origin(f"site-builder @ {served}")
    local = from_direct_url(
        {"url": "file:///home/ann/site_builder-0.1.0-py3-none-any.whl", "archive_info": {}}
    )
    assert local.requirement == "site-builder @ file:///home/ann/site_builder-0.1.0-py3-none-any.whl"
    assert local.note is not None
    assert 'change "site-builder @ file:///home/ann/site_builder-0.1.0-py3-none-any.whl" to' in local.note


def _clone(folder: Path, remote: str | None) -> str:
    """A git repository at ``folder`` with one commit (and ``remote`` as its origin); its commit."""
    folder.mkdir()
    env = {**os.environ, "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.org"}
    env |= {"GIT_COMMITTER_NAME": "A", "GIT_COMMITTER_EMAIL": "a@example.org"}
    for args in (["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "one"]):
        subprocess.run(["git", "-C", str(folder), *args], check=True, env=env)
    if remote is not None:
        subprocess.run(["git", "-C", str(folder), "remote", "add", "origin", remote], check=True)
    done = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("remote", "installed"),
    [
        ("https://github.com/example/site_builder.git", "git+https://github.com/example/site_builder.git"),
        ("git@github.com:example/site_builder.git", "git+ssh://git@github.com/example/site_builder.git"),
    ],
    ids=["https", "scp-like"],
)
def test_from_a_clone_with_a_server_its_commit_from_there(
    tmp_path: Path, remote: str, installed: str
) -> None:
    commit = _clone(tmp_path / "clone", remote)
    found = from_direct_url({"url": (tmp_path / "clone").as_uri(), "dir_info": {"editable": True}})
    assert found.requirement == f"site-builder @ {installed}@{commit}"
    assert (
        found.note is not None
        and f"at commit {commit[:12]}" in found.note
        and "push that commit" in found.note
    )


@pytest.mark.parametrize(
    "remote", [None, "/srv/git/site_builder"], ids=["no-remote", "remote-on-this-machine"]
)
def test_from_a_folder_only_this_machine_reaches_the_folder_and_a_note(
    tmp_path: Path, remote: str | None
) -> None:
    folder = tmp_path / "clone"
    _clone(folder, remote)
    found = from_folder(folder)
    assert found.requirement == f"site-builder @ {folder.as_uri()}"
    assert found.note == (
        f"this site-builder was installed from this machine ({folder.as_uri()}), which GitHub's runners "
        "cannot reach: in .github/workflows/ (site.yml, both jobs, and sources.yml), change "
        '"site-builder @ '
        f'{folder.as_uri()}" to a requirement they can install, e.g. '
        '"site-builder @ git+https://github.com/OWNER/REPOSITORY@TAG"'
    )


def install_commands(workflow: Path) -> list[list[str]]:
    """The ``pip install`` commands of every job of the workflow, as argument lists."""
    jobs = yaml.safe_load(workflow.read_text("utf-8"))["jobs"]
    return [
        shlex.split(step["run"])
        for job in jobs.values()
        for step in job["steps"]
        if "pip install" in step.get("run", "")
    ]


def test_init_says_the_note_and_both_jobs_install_the_same_requirement(
    tmp_path: Path, run_cli: RunCli
) -> None:
    result = run_cli(["init", str(tmp_path / "site")])
    assert result.code == 0, result.err
    commands = install_commands(tmp_path / "site" / ".github" / "workflows" / "site.yml")
    assert len(commands) == 2 and commands[0] == commands[1]
    assert commands[0][:4] == ["python", "-m", "pip", "install"]
    assert commands[0][4].startswith("site-builder")
    # The tests run from a clone (an editable install): init says what the workflow installs.
    (note,) = [line for line in result.err.splitlines() if line.startswith("note: ")]
    requirement = commands[0][4]
    if requirement.startswith("site-builder @ file:"):
        assert f'change "{requirement}" to a requirement they can install' in note
    else:  # a clone whose origin is on a server: its commit, from there
        assert requirement.startswith("site-builder @ git+") and "push that commit" in note


@pytest.mark.slow
def test_a_site_made_by_init_installs_with_its_workflow_s_command_and_validates(
    tmp_path: Path, run_cli: RunCli
) -> None:
    """From an empty folder: ``init``, the workflow's install command in a fresh virtual
    environment (pip as CI runs it), then that environment's ``site-builder validate``."""
    site = tmp_path / "site"
    assert run_cli(["init", str(site)]).code == 0
    (command, *_) = install_commands(site / ".github" / "workflows" / "site.yml")
    if not command[4].startswith(("site-builder @ file:", "site-builder==")):
        pytest.skip(f"{command[4]} is on a git server, and this machine reaches none")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    installed = subprocess.run(
        [str(python), *command[1:], "--quiet", "--disable-pip-version-check"],
        cwd=site,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    validated = subprocess.run(
        [str(venv / "bin" / "site-builder"), "validate"], cwd=site, env=env, capture_output=True, text=True
    )
    assert validated.returncode == 0, validated.stderr
    assert validated.stderr.startswith("ok: 1 revision valid")
