"""The inputs of the GitHub Actions our workflows use, at the major version they use.

Read from each action's ``action.yml`` at its major tag (the commit is the tag's on the day it
was read, 2026-12-04, from a snapshot of the action's repository): the names of its inputs,
and those it requires without a default. A workflow the docs show, or ``init`` writes, may
give an action only these inputs, and must give the required ones. An action or a major
version not listed here is an error of the test: read its ``action.yml`` and add it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Action:
    """One major version of an action, as its ``action.yml`` declares it."""

    commit: str
    """The commit its tag named when the inputs were read."""
    inputs: frozenset[str]
    required: frozenset[str] = frozenset()
    """Inputs marked required that have no default."""


ACTIONS = {
    "actions/checkout@v4": Action(
        "11d5960a326750d5838078e36cf38b85af677262",
        frozenset(
            {
                "allow-unsafe-pr-checkout",
                "clean",
                "fetch-depth",
                "fetch-tags",
                "filter",
                "github-server-url",
                "lfs",
                "path",
                "persist-credentials",
                "ref",
                "repository",
                "set-safe-directory",
                "show-progress",
                "sparse-checkout",
                "sparse-checkout-cone-mode",
                "ssh-key",
                "ssh-known-hosts",
                "ssh-strict",
                "ssh-user",
                "submodules",
                "token",
            }
        ),
    ),
    "actions/setup-python@v5": Action(
        "a26af69be951a213d495a4c3e4e4022e16d87065",
        frozenset(
            {
                "allow-prereleases",
                "architecture",
                "cache",
                "cache-dependency-path",
                "check-latest",
                "freethreaded",
                "python-version",
                "python-version-file",
                "token",
                "update-environment",
            }
        ),
    ),
    "actions/upload-artifact@v4": Action(
        "ea165f8d65b6e75b540449e92b4886f43607fa02",
        frozenset(
            {
                "compression-level",
                "if-no-files-found",
                "include-hidden-files",
                "name",
                "overwrite",
                "path",
                "retention-days",
            }
        ),
        frozenset({"path"}),
    ),
    # Read on 2026-12-05 (v4 was v4.3.0 then); the others on 2026-12-04.
    "actions/download-artifact@v4": Action(
        "d3f86a106a0bac45b974a628896c90dbdf5c8093",
        frozenset(
            {
                "artifact-ids",
                "github-token",
                "merge-multiple",
                "name",
                "path",
                "pattern",
                "repository",
                "run-id",
            }
        ),
    ),
    "actions/cache@v4": Action(
        "0057852bfaa89a56745cba8c7296529d2fc39830",
        frozenset(
            {
                "enableCrossOsArchive",
                "fail-on-cache-miss",
                "key",
                "lookup-only",
                "path",
                "restore-keys",
                "save-always",
                "upload-chunk-size",
            }
        ),
        frozenset({"key", "path"}),
    ),
    "actions/configure-pages@v5": Action(
        "983d7736d9b0ae728b81ab479565c72886d7745b",
        frozenset({"enablement", "generator_config_file", "static_site_generator", "token"}),
    ),
    "actions/upload-pages-artifact@v3": Action(
        "56afc609e74202658d3ffba0e8f6dda462b719fa",
        frozenset({"name", "path", "retention-days"}),
    ),
    "actions/deploy-pages@v4": Action(
        "d6db90164ac5ed86f2b6aed7e0febac5b3c0c03e",
        frozenset({"artifact_name", "error_count", "preview", "reporting_interval", "timeout", "token"}),
    ),
}
"""Each action and major version a workflow of ours uses."""


def step_problems(step: dict[str, object]) -> list[str]:
    """What is wrong with one workflow step's ``uses`` and ``with``; [] for a ``run`` step."""
    uses = step.get("uses")
    if not isinstance(uses, str):
        return []
    action = ACTIONS.get(uses)
    if action is None:
        return [f"{uses}: not an action and version tests/support/actions.py knows"]
    given = step.get("with") or {}
    assert isinstance(given, dict), step
    unknown = sorted(set(given) - action.inputs)
    missing = sorted(action.required - set(given))
    return [f"{uses}: no input {name!r}" for name in unknown] + [
        f"{uses}: {name!r} is required" for name in missing
    ]
