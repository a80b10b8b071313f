"""Paths on local and shared file systems, for the files pystream writes itself (a FileSink's
part files and its batch log; Spark's own readers and writers handle every other path).

A plain path is a local one. A URI goes through pyarrow's file system of its scheme:
``file://``, ``hdfs://`` (libhdfs, as on a Hadoop node), ``s3://`` and Hadoop's ``s3a://``,
``gs://``, ``abfs://``/``abfss://``; the credentials are the ones those libraries find on the
node (environment, instance metadata, Hadoop's configuration), as for Spark.
"""
from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass
from typing import List

from pyarrow import fs as pafs

_URI = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_PYARROW_SCHEMES = {"s3a": "s3", "s3n": "s3"}  # Hadoop's names of pyarrow's file systems


def scheme_of(path: str) -> str:
    """The URI scheme of ``path`` (lower case), or '' for a plain path."""
    match = _URI.match(path)
    return match.group(1).lower() if match else ""


def is_local(path: str) -> bool:
    """Whether ``path`` is on this machine's file system (a plain path or ``file://``)."""
    return scheme_of(path) in ("", "file")


def local_path(path: str) -> str:
    """A plain absolute path for a local ``path`` (``file:///x`` -> ``/x``)."""
    if scheme_of(path) == "file":
        path = path[len("file://"):]
    return os.path.abspath(path)


@dataclass(frozen=True)
class Directory:
    """A directory of some file system, and the operations pystream's writers use in it."""

    filesystem: pafs.FileSystem
    path: str

    def join(self, *names: str) -> "Directory":
        return Directory(self.filesystem, posixpath.join(self.path, *[n for n in names if n]))

    def file(self, name: str) -> str:
        return posixpath.join(self.path, name)

    def make(self) -> None:
        self.filesystem.create_dir(self.path, recursive=True)

    def names(self) -> List[str]:
        """The names of the files in the directory ([] when it does not exist)."""
        selector = pafs.FileSelector(self.path, allow_not_found=True)
        return [posixpath.basename(i.path) for i in self.filesystem.get_file_info(selector)
                if i.type == pafs.FileType.File]

    def exists(self, name: str) -> bool:
        return self.filesystem.get_file_info(self.file(name)).type == pafs.FileType.File

    def open_output(self, name: str):
        return self.filesystem.open_output_stream(self.file(name))

    def read_text(self, name: str) -> str:
        with self.filesystem.open_input_stream(self.file(name)) as f:
            return f.read().decode("utf-8")

    def write_text(self, name: str, text: str) -> None:
        """Write ``name`` whole: under a temporary name first, then renamed."""
        temp = name + ".tmp"
        with self.open_output(temp) as f:
            f.write(text.encode("utf-8"))
        self.sync(temp)
        self.rename(temp, name)

    def sync(self, name: str) -> None:
        """Flush a written file to the disk (local files; remote stores are durable once
        the stream is closed)."""
        if isinstance(self.filesystem, pafs.LocalFileSystem):
            fd = os.open(self.file(name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def rename(self, name: str, new_name: str) -> None:
        self.filesystem.move(self.file(name), self.file(new_name))

    def remove(self, name: str) -> None:
        self.filesystem.delete_file(self.file(name))


def directory(path: str) -> Directory:
    """The directory at ``path``: a plain path, or a URI of a file system (module docstring)."""
    if is_local(path):
        return Directory(pafs.LocalFileSystem(), local_path(path))
    scheme = scheme_of(path)
    uri = _PYARROW_SCHEMES.get(scheme, scheme) + path[len(scheme):]
    try:
        filesystem, inner = pafs.FileSystem.from_uri(uri)
    except (OSError, ValueError, ImportError) as e:
        raise OSError("no file system for %s on this node: %s" % (path, e)) from None
    return Directory(filesystem, inner)
