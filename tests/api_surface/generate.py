"""Write ``pyflink_2_3.json``: PyFlink's public Python API, the surface pystream mirrors.

Run it by hand with PyFlink's interpreter (PyFlink is not a dependency of pystream)::

    /tmp/flinkvenv/bin/python tests/api_surface/generate.py

One JSON object per line, sorted by path:

* ``{"kind": "module", "path": "pyflink.common"}``
* ``{"kind": "class", "path": ..., "params": [...] | null, "bases": [...]}``: ``params`` is the
  constructor's signature, ``null`` when only PyFlink's Java side constructs it (a required
  ``j_*``/``java_*`` parameter) or it is an Enum;
* ``{"kind": "method" | "classmethod" | "staticmethod" | "function", "path": ..., "params":
  [...]}``: parameters without ``self``/``cls``, each ``[name, kind, has_default]`` with
  ``kind`` one of ``positional_only``, ``positional_or_keyword``, ``var_positional``,
  ``keyword_only``, ``var_keyword``;
* ``{"kind": "property" | "attribute", "path": ...}`` (Enum members are attributes);
* ``{"kind": "alias", "path": "pyflink.datastream.DataStream", "target":
  "pyflink.datastream.data_stream.DataStream"}``: a name a module re-exports (``__all__`` or
  an import of a package's ``__init__``), its members are listed once, where it is defined.

Public means: not starting with ``_``, defined in pyflink. A module with ``__all__`` also
lists the public classes and functions it defines outside ``__all__`` (the classes some
methods return, e.g. ``AllWindowedStream``), except the implementation helpers in
``INTERNAL``; a package lists every pyflink class or function it offers, in ``__all__`` or not
(``pyflink.datastream.connectors`` sets ``FileSink`` & co. on itself). Py4J plumbing is left
out: ``get_java_*`` methods, ``j_*``/``java_*`` parameters.
"""
from __future__ import annotations

import enum
import importlib
import inspect
import json
import pkgutil
import re
import sys
from pathlib import Path

PACKAGES = ["pyflink.common", "pyflink.datastream", "pyflink.table"]

# Modules that are implementation, not API (no __all__, only helpers for PyFlink's runtime).
SKIPPED_MODULES = {
    "pyflink.common.constants",     # MAX_LONG_VALUE & co., used by PyFlink's internals
    "pyflink.common.utils",         # JavaObjectWrapper
    "pyflink.datastream.utils",     # Java/Python object conversions
    "pyflink.table.functions",      # the Python implementations of built-in aggregates
    "pyflink.table.serializers",    # Arrow serializers of the Python workers
    "pyflink.table.utils",          # Arrow/pandas conversions, Java arrays
}

# Names defined (outside __all__) in an API module that are PyFlink's implementation.
INTERNAL = re.compile(
    r"^(Internal\w*|\w*Wrapper|Delegat\w*|PassThrough\w*|NullByteKeySelector"
    r"|WindowOperationDescriptor|Min|long_to_int_with_bit_mixing|mod_inverse"
    r"|create_arrow_schema|from_arrow_type|to_arrow_type|VoidNamespaceSerializer"
    r"|RowDataBulkWriterFactory)$")

# Parameters that take Java objects (a required one: only PyFlink's Java side calls it).
PLUMBING_PARAM_PREFIXES = ("j_", "_j_", "java_")

# Members that are Py4J plumbing.
PLUMBING_MEMBER = re.compile(r"^(get_java_\w*|java_udt)$")

PARAM_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "positional_only",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "positional_or_keyword",
    inspect.Parameter.VAR_POSITIONAL: "var_positional",
    inspect.Parameter.KEYWORD_ONLY: "keyword_only",
    inspect.Parameter.VAR_KEYWORD: "var_keyword",
}

OUT = Path(__file__).with_name("pyflink_2_3.json")


def is_pyflink(obj) -> bool:
    return (getattr(obj, "__module__", None) or "").startswith("pyflink.")


def params_of(func, drop_first: bool):
    """The parameters as [name, kind, has_default] (``None``: a Java-side constructor)."""
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    params = list(sig.parameters.values())
    if drop_first and params and params[0].kind in (
            inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
        params = params[1:]
    out = []
    for p in params:
        has_default = p.default is not inspect.Parameter.empty
        if p.name.startswith(PLUMBING_PARAM_PREFIXES):
            if not has_default and p.kind not in (inspect.Parameter.VAR_POSITIONAL,
                                                  inspect.Parameter.VAR_KEYWORD):
                return None
            continue
        out.append([p.name, PARAM_KINDS[p.kind], has_default])
    return out


def constructor_params(cls):
    if issubclass(cls, enum.Enum):
        return None
    init = None
    for klass in cls.__mro__:
        if "__init__" in vars(klass) or "__new__" in vars(klass):
            init = klass
            break
    if init is object:
        return []
    if "__init__" in vars(init):
        return params_of(vars(init)["__init__"], drop_first=True)
    return params_of(cls, drop_first=False)


class Surface:
    def __init__(self):
        self.entries: dict[str, dict] = {}
        self.defined: dict[int, str] = {}     # id(object) -> path where it is listed
        self.modules: list[str] = []

    def add(self, entry: dict) -> None:
        self.entries.setdefault(entry["path"], entry)

    def add_class(self, cls, path: str) -> None:
        self.defined[id(cls)] = path
        bases = [f"{b.__module__}.{b.__qualname__}" for b in cls.__bases__ if is_pyflink(b)
                 and not b.__name__.startswith("_")]
        self.add({"kind": "class", "path": path, "params": constructor_params(cls),
                  "bases": bases})
        members = {m.name: m.value for m in cls} if issubclass(cls, enum.Enum) else {}
        for name in sorted(set(dir(cls)) | set(members)):
            if name.startswith("_") or PLUMBING_MEMBER.match(name):
                continue
            member_path = f"{path}.{name}"
            if name in members:
                self.add({"kind": "attribute", "path": member_path})
                continue
            owner = next((k for k in cls.__mro__ if name in vars(k)), None)
            if owner is None or not is_pyflink(owner):
                continue
            raw = vars(owner)[name]
            if isinstance(raw, staticmethod):
                self.add({"kind": "staticmethod", "path": member_path,
                          "params": params_of(raw.__func__, drop_first=False)})
            elif isinstance(raw, classmethod):
                self.add({"kind": "classmethod", "path": member_path,
                          "params": params_of(raw.__func__, drop_first=True)})
            elif isinstance(raw, property):
                self.add({"kind": "property", "path": member_path})
            elif inspect.isfunction(raw):
                self.add({"kind": "method", "path": member_path,
                          "params": params_of(raw, drop_first=True)})
            elif inspect.isclass(raw):
                if not is_pyflink(raw):
                    self.add({"kind": "attribute", "path": member_path})
                elif owner is cls and raw.__qualname__ == f"{cls.__qualname__}.{name}":
                    self.add_class(raw, member_path)
                # else: a nested class inherited from a base, listed with the base
            else:
                self.add({"kind": "attribute", "path": member_path})

    def add_module(self, modname: str) -> None:
        module = importlib.import_module(modname)
        self.modules.append(modname)
        self.add({"kind": "module", "path": modname})
        exported = set(getattr(module, "__all__", ()))
        is_package = hasattr(module, "__path__")
        for name, obj in sorted(vars(module).items()):
            if name.startswith("_"):
                continue
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or not is_pyflink(obj):
                if name in exported and not inspect.ismodule(obj):
                    self.add({"kind": "attribute", "path": f"{modname}.{name}"})
                continue
            here = obj.__module__ == modname and obj.__qualname__ == name
            if here and exported and name not in exported and INTERNAL.match(name):
                continue
            if not here and not (name in exported or is_package):
                continue    # an import the module uses, not a name it offers
            path = f"{modname}.{name}"
            if here:
                if inspect.isclass(obj):
                    self.add_class(obj, path)
                else:
                    self.defined[id(obj)] = path
                    self.add({"kind": "function", "path": path,
                              "params": params_of(obj, drop_first=False)})
            else:
                self.add({"kind": "alias", "path": path, "target": id(obj), "obj": obj})

    def resolve_aliases(self) -> None:
        for path, entry in list(self.entries.items()):
            if entry["kind"] != "alias":
                continue
            obj = entry.pop("obj")
            target = self.defined.get(entry["target"])
            if target is None:
                # defined in a module left out: list it here
                del self.entries[path]
                if inspect.isclass(obj):
                    self.add_class(obj, path)
                else:
                    self.add({"kind": "function", "path": path,
                              "params": params_of(obj, drop_first=False)})
            else:
                entry["target"] = target


def main() -> None:
    surface = Surface()
    for pkg in PACKAGES:
        package = importlib.import_module(pkg)
        names = [pkg] + [i.name for i in pkgutil.walk_packages(package.__path__, pkg + ".")]
        for modname in names:
            if modname in SKIPPED_MODULES or any(p.startswith("_") for p in modname.split(".")):
                continue
            surface.add_module(modname)
    surface.resolve_aliases()
    lines = [json.dumps(surface.entries[p], sort_keys=True) for p in sorted(surface.entries)]
    OUT.write_text("[\n" + ",\n".join(lines) + "\n]\n")
    print(f"{len(lines)} entries -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
