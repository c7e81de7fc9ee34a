"""requirements.lock is what a fresh machine installs (.ci/run and the README's two commands
use it as pip's constraints): every package pyproject.toml asks for is pinned there, each pin
fits what pyproject.toml allows, and this machine runs the versions it pins (issue 38: a
fresh machine's newer Babel failed a test that the machine CI ran on passed)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;]+)\s*$")


def pins(text: str) -> dict[str, str]:
    found = {}
    for line in text.splitlines():
        if line.startswith("#") or line.startswith(" ") or not line.strip():
            continue
        match = PIN.match(line)
        assert match, f"not an exact pin: {line!r} (refresh the lock with .ci/lock)"
        found[canonicalize_name(match[1])] = match[2]
    return found


def asked_for() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [Requirement(r) for r in project["dependencies"]]
    for extra in project.get("optional-dependencies", {}).values():
        wanted += [Requirement(r) for r in extra]
    return wanted


LOCKED = pins((ROOT / "requirements.lock").read_text())


def test_the_lock_pins_every_package_pyproject_asks_for_within_its_bounds():
    problems = []
    for requirement in asked_for():
        version = LOCKED.get(canonicalize_name(requirement.name))
        if version is None:
            problems.append(f"{requirement.name} is not in requirements.lock")
        elif not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{requirement.name}=={version} is outside {requirement}")
    assert not problems, "run .ci/lock: " + "; ".join(problems)


def test_the_installed_packages_are_the_locked_ones():
    # .ci/run installs with `-c requirements.lock`; a machine that did not runs other code
    # than CI tested. Packages of an extra this machine didn't install are not checked.
    differ = []
    for name, version in LOCKED.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
        if Version(installed) != Version(version):
            differ.append(f"{name} {installed} (locked {version})")
    assert not differ, ("install as the README says (pip install -c requirements.lock -e "
                        "'.[test]'): " + ", ".join(differ))


def test_pins_are_read_as_written():
    assert pins("# comment\nbabel==2.19.0\n    # via x\nSQLAlchemy==2.1.9\n") == {
        "babel": "2.19.0", "sqlalchemy": "2.1.9"}
