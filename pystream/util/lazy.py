"""Packages whose names load when first used (PEP 562): ``import pystream.table`` and the
like stay cheap, and a module that needs one submodule does not run the others."""
from __future__ import annotations

from importlib import import_module
from typing import Callable, Dict, List, Tuple

__all__ = ["lazy_names"]


def lazy_names(package: str, exports: Dict[str, str],
               names: List[str]) -> Tuple[Callable[[str], object], Callable[[], List[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: ``exports`` maps a name to the module
    that defines it (a submodule's name, or a whole dotted path); any other name is tried as
    a submodule (as after ``import package.submodule``)."""

    def __getattr__(name: str) -> object:
        module = exports.get(name)
        if module is not None:
            path = module if "." in module else "%s.%s" % (package, module)
            return getattr(import_module(path), name)
        try:
            return import_module("%s.%s" % (package, name))
        except ModuleNotFoundError:
            raise AttributeError("module %r has no attribute %r" % (package, name)) from None

    def __dir__() -> List[str]:
        return names

    return __getattr__, __dir__
