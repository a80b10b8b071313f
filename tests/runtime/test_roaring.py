"""The RoaringBitmap format of BITMAP_TO_BYTES / BITMAP_FROM_BYTES, against bytes PyFlink 2.3
wrote (tests/table/programs/bitmap_functions.py prints their MD5s; these are their first
bytes, printed by the same query)."""
import pytest

from pystream.runtime.roaring import deserialize, serialize

# (values, PyFlink's bytes): one array container; runs without offsets (fewer than four
# containers); runs across two containers
WRITTEN_BY_PYFLINK = [
    ([1], "3a3000000100000000000000100000000100"),
    (list(range(5000)), "3b3000000100008713010000008713"),
    (list(range(100000)), "3b300100030000ffff01009f8601000000ffff010000009f86"),
]


@pytest.mark.parametrize("values, written", WRITTEN_BY_PYFLINK)
def test_bitmaps_are_written_and_read_as_pyflink_writes_them(values, written):
    assert serialize(values).hex() == written
    assert deserialize(bytes.fromhex(written)) == values


def test_a_dense_container_is_a_bitmap_and_reads_back():
    values = [v for v in range(0, 65536, 3)] + [(1 << 32) - 1]
    data = serialize(values)
    # cookie and size, two (key, cardinality) and two offsets, a bitmap, an array of one
    assert len(data) == 8 + 2 * 4 + 2 * 4 + 8192 + 2
    assert deserialize(data) == values


def test_bytes_not_in_the_format_fail_clearly():
    with pytest.raises(ValueError, match="unknown cookie"):
        deserialize(b"\x00\x01\x02\x03")
    with pytest.raises(ValueError, match="end too soon"):
        deserialize(bytes.fromhex("3a30000001000000"))
