"""The file systems of pystream's own writers: plain paths and file:// URIs are local, other
URIs go to pyarrow's file system of their scheme, one the node lacks is a clear error."""
from __future__ import annotations

import pytest

from pystream.runtime import filesystems


def test_plain_paths_and_file_uris_are_one_local_directory(tmp_path):
    plain = filesystems.directory(str(tmp_path)).join("a", "b")
    uri = filesystems.directory("file://%s" % tmp_path).join("a", "b")
    assert plain == uri
    plain.make()
    plain.write_text("0.json", '{"time": 1}')
    uri.rename("0.json", "1.json")
    assert (uri.names(), plain.read_text("1.json"), plain.exists("0.json")) == (
        ["1.json"], '{"time": 1}', False)
    uri.remove("1.json")
    assert plain.names() == [] and filesystems.directory(str(tmp_path / "none")).names() == []


@pytest.mark.parametrize("path, local", [
    ("/data/x", True), ("relative/x", True), ("file:///data/x", True),
    ("hdfs://namenode:8020/x", False), ("s3a://bucket/x", False), ("gs://b/x", False)])
def test_which_paths_are_local(path, local):
    assert filesystems.is_local(path) is local


def test_a_file_system_the_node_lacks_is_a_clear_error():
    with pytest.raises(OSError, match="no file system for nosuch://host/x on this node"):
        filesystems.directory("nosuch://host/x")
