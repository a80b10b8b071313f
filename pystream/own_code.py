"""pystream's own code as a zip, for a cluster's executors that do not have it installed.

A classic session on a cluster adds it with ``addPyFile`` (``session.get_session``): Spark
sends it to each executor and puts it first on its Python workers' path, so the workers run
the driver's pystream, whether or not the nodes have one. The zip holds the ``pystream``
package's sources and, beside each, its compiled code for this Python (a worker of the same
Python version imports that instead of compiling the source; another version compiles it):
Python caches nothing it imports from a zip. It is made once per content, in pystream's cache
directory.
"""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import zipfile

import pystream
from pystream.cache import cache_dir


def own_code_zip() -> str:
    """The path of the zip of the installed ``pystream`` package (made if missing)."""
    package = os.path.dirname(os.path.abspath(pystream.__file__))
    sources = sorted(_sources(package))
    digest = hashlib.sha256()
    for path in sources:
        stat = os.stat(path)
        digest.update(("%s %d %d\n" % (os.path.relpath(path, package), stat.st_size,
                                        stat.st_mtime_ns)).encode())
    directory = os.path.join(cache_dir(), "code")
    target = os.path.join(directory, "pystream-%s.zip" % digest.hexdigest()[:16])
    if not os.path.exists(target):
        os.makedirs(directory, exist_ok=True)
        building = "%s.%d.tmp" % (target, os.getpid())
        with zipfile.ZipFile(building, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sources:
                name = os.path.join("pystream", os.path.relpath(path, package))
                archive.write(path, name)
                if path.endswith(".py"):
                    archive.writestr(name + "c", _compiled(path))
        os.replace(building, target)
    return target


def _compiled(path: str) -> bytes:
    """``path``'s code as a .pyc that is never checked against its source (unchecked hash:
    the zip's entries do not change)."""
    with open(path, "rb") as f:
        source = f.read()
    code = compile(source, path, "exec", dont_inherit=True)
    flags = (1).to_bytes(4, "little")  # hash-based, unchecked
    return (importlib.util.MAGIC_NUMBER + flags + importlib.util.source_hash(source)
            + marshal.dumps(code))


def _sources(package: str):
    for root, directories, names in os.walk(package):
        directories[:] = [d for d in directories if d != "__pycache__"]
        for name in names:
            if name.endswith((".py", ".typed")):
                yield os.path.join(root, name)
