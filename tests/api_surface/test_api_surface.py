"""PyFlink's public API surface (``pyflink_2_3.json``, see ``generate.py``) exists in pystream.

Each entry is one test: the module, class, method or attribute exists at the same import path
(``pyflink.x.y`` -> ``pystream.x.y``) and a callable accepts every parameter PyFlink's
accepts, at the same position or by keyword, requiring no more than PyFlink requires
(``*args``/``**kwargs`` accept anything). What is still missing is listed in ``missing.txt``
(``path.*`` covers the names under it): one strict xfail per line instead, which fails as soon
as one of its entries passes (then the line goes, or gets narrower).

``python tests/api_surface/test_api_surface.py`` prints the failing entries, shortest paths
first, in ``missing.txt``'s format.

No Spark: importing pystream's API modules does not start it (checked at the end).
"""
from __future__ import annotations

import functools
import importlib
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ENTRIES: list[dict] = json.loads((HERE / "pyflink_2_3.json").read_text())
MODULES = {e["path"] for e in ENTRIES if e["kind"] == "module"}


def read_missing() -> dict[str, str]:
    """``missing.txt``: ``path: reason`` lines; ``#`` starts a comment."""
    missing = {}
    for line in (HERE / "missing.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            path, _, reason = line.partition(":")
            missing[path.strip()] = reason.strip() or "missing"
    return missing


MISSING = read_missing()


def covers(line: str, path: str) -> bool:
    """A missing.txt path names one entry; ``path.*`` names it and every entry under it."""
    if line.endswith(".*"):
        line = line[:-2]
        return path == line or path.startswith(line + ".")
    return path == line


def missing_reason(path: str) -> str | None:
    for line, reason in MISSING.items():
        if covers(line, path):
            return reason
    return None


def pystream_path(path: str) -> str:
    return "pystream" + path[len("pyflink"):]


class Incompatible(Exception):
    pass


@functools.cache
def resolve(path: str):
    """pystream's object for a PyFlink path: (owner, name, object as stored in the owner)."""
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in MODULES:
            break
    module_path = pystream_path(".".join(parts[:i]))
    try:
        obj = importlib.import_module(module_path)
    except ImportError as e:
        raise Incompatible(f"no module {module_path} ({e})") from None
    owner, name = None, None
    for name in parts[i:]:
        owner = obj
        try:
            obj = inspect.getattr_static(owner, name) if inspect.isclass(owner) else \
                getattr(owner, name)
        except AttributeError:
            raise Incompatible(f"{pystream_path(path)} does not exist") from None
    return owner, name, obj


def signature(func) -> list[inspect.Parameter] | None:
    try:
        return list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return None


P = inspect.Parameter
POSITIONAL = (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)
BY_KEYWORD = (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY)


def check_params(expected: list, params: list[inspect.Parameter] | None) -> None:
    """Every call PyFlink accepts is accepted, meaning the same (see the module docstring)."""
    if params is None:
        return      # a builtin or C callable: nothing to compare
    positional = [p for p in params if p.kind in POSITIONAL]
    keywords = {p.name: p for p in params if p.kind in BY_KEYWORD}
    var_args = any(p.kind is P.VAR_POSITIONAL for p in params)
    var_kwargs = any(p.kind is P.VAR_KEYWORD for p in params)
    matched = set()
    n_positional = 0
    for name, kind, has_default in expected:
        if kind == "var_positional":
            if not var_args:
                raise Incompatible(f"no *{name}")
            continue
        if kind == "var_keyword":
            if not var_kwargs:
                raise Incompatible(f"no **{name}")
            continue
        mine = None
        if kind in ("positional_only", "positional_or_keyword"):
            index = n_positional
            n_positional += 1
            if index < len(positional):
                mine = positional[index]
                if kind == "positional_or_keyword" and (mine.name != name
                                                        or mine.kind is P.POSITIONAL_ONLY):
                    only = " (positional-only)" if mine.kind is P.POSITIONAL_ONLY else ""
                    raise Incompatible(f"parameter {index + 1} is {mine.name!r}{only}, "
                                       f"not {name!r}")
            elif not var_args:
                raise Incompatible(f"no parameter {index + 1} ({name!r})")
        if kind in ("positional_or_keyword", "keyword_only") and mine is None:
            mine = keywords.get(name)
            if mine is None and not var_kwargs:
                raise Incompatible(f"no keyword {name!r}")
        if mine is not None:
            matched.add(mine.name)
            if has_default and mine.default is P.empty:
                raise Incompatible(f"{name!r} is required (PyFlink: optional)")
    for p in params:
        if p.name not in matched and p.default is P.empty and p.kind in (*POSITIONAL,
                                                                            P.KEYWORD_ONLY):
            raise Incompatible(f"requires {p.name!r}, which PyFlink does not have")


def check_callable(entry: dict, owner, name: str, raw) -> None:
    kind = entry["kind"]
    if kind == "function":
        if not callable(raw):
            raise Incompatible("not callable")
        if entry["params"] is not None:
            check_params(entry["params"], signature(raw))
        return
    on_class = kind in ("staticmethod", "classmethod")
    if isinstance(raw, staticmethod):
        params = signature(raw.__func__)
    elif isinstance(raw, classmethod):
        params = signature(raw.__func__)
        params = params and params[1:]
    elif inspect.isfunction(raw):
        if on_class:
            raise Incompatible(f"a method, PyFlink's is a {kind} (called on the class)")
        params = signature(raw)
        params = params and params[1:]
    elif isinstance(raw, (property, functools.cached_property)):
        raise Incompatible(f"a property, PyFlink's is a {kind}")
    elif callable(raw):
        params = signature(raw)     # e.g. a class, called as a constructor
    else:
        raise Incompatible(f"not callable ({type(raw).__name__})")
    if entry["params"] is not None:
        check_params(entry["params"], params)


def check_entry(entry: dict) -> None:
    kind, path = entry["kind"], entry["path"]
    owner, name, obj = resolve(path)
    if kind == "module":
        return
    if kind == "alias":
        target = resolve(entry["target"])[2]
        got = getattr(owner, name)
        if got is not target and not (inspect.isfunction(got) and got == target):
            raise Incompatible(f"{pystream_path(path)} is not {pystream_path(entry['target'])}")
        return
    if kind == "class":
        if not inspect.isclass(obj):
            raise Incompatible(f"{pystream_path(path)} is not a class")
        if entry["params"] is not None:
            check_params(entry["params"], signature(obj))
        return
    if kind == "property":
        if isinstance(obj, (staticmethod, classmethod)) or inspect.isfunction(obj):
            raise Incompatible("a method, PyFlink's is a property")
        return
    if kind == "attribute":
        return
    check_callable(entry, owner, name, obj)


@pytest.mark.parametrize("entry", [pytest.param(e, id=e["path"]) for e in ENTRIES
                                   if missing_reason(e["path"]) is None])
def test_entry(entry):
    check_entry(entry)


@pytest.mark.parametrize("line", [
    pytest.param(line, id=line,
                 marks=pytest.mark.xfail(strict=True, raises=Incompatible, reason=reason))
    for line, reason in MISSING.items()])
def test_missing(line):
    """Every entry a missing.txt line names still fails (a strict xfail: when one passes, the
    line must go or become narrower)."""
    passing, failure = [], None
    for entry in ENTRIES:
        if covers(line, entry["path"]):
            try:
                check_entry(entry)
                passing.append(entry["path"])
            except Incompatible as e:
                failure = e
    if failure is not None and not passing:
        raise failure


def test_missing_lines_name_entries():
    """Each line of missing.txt names entries (no stale lines)."""
    paths = [e["path"] for e in ENTRIES]
    stale = [m for m in MISSING if not any(covers(m, p) for p in paths)]
    assert not stale


NO_SPARK_CHECK = """
import importlib, sys
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except ImportError:
        pass
from pyspark import SparkContext
assert SparkContext._gateway is None and SparkContext._active_spark_context is None
"""


def test_importing_the_api_starts_no_spark():
    """In a fresh interpreter: importing every pystream module of the surface starts no JVM."""
    modules = sorted(pystream_path(m) for m in MODULES)
    done = subprocess.run([sys.executable, "-c", NO_SPARK_CHECK, *modules],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def failures() -> dict[str, str]:
    """path -> why, for every failing entry (ignoring missing.txt)."""
    out = {}
    for entry in ENTRIES:
        try:
            check_entry(entry)
        except Incompatible as e:
            out[entry["path"]] = str(e)
    return out


def main() -> None:
    failed = failures()
    covered = []    # "path.*" when the entries below a path all fail too
    for path in sorted(failed):
        if any(path.startswith(c + ".") for c in covered):
            continue
        below = [e["path"] for e in ENTRIES if e["path"].startswith(path + ".")]
        if below and all(b in failed for b in below):
            covered.append(path)
            print(f"{path}.*: {failed[path]}")
        else:
            print(f"{path}: {failed[path]}")
    print(f"# {len(failed)} failing entries", file=sys.stderr)


if __name__ == "__main__":
    main()
