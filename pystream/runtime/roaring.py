"""The 32-bit RoaringBitmap format (https://github.com/RoaringBitmap/RoaringFormatSpec), as
Flink's BITMAP_TO_BYTES writes it and BITMAP_FROM_BYTES reads it.

A bitmap is a set of unsigned 32-bit integers. In pystream it is a sorted list of them (a
Spark ``array<bigint>``); these two functions turn such a list into the format's bytes and
back. Written bitmaps are run-optimised, as Flink writes them: each container (the values
sharing their high 16 bits) is an array of up to 4,096 values, a bitmap of 2^16 bits, or a
list of runs where that is smaller.
"""
from __future__ import annotations

import struct
from itertools import groupby
from typing import List, Optional, Sequence, Tuple

__all__ = ["serialize", "deserialize"]

SERIAL_COOKIE_NO_RUNCONTAINER = 12346
SERIAL_COOKIE = 12347
NO_OFFSET_THRESHOLD = 4  # fewer containers than this with runs: no offset header
ARRAY_CONTAINER_MAX = 4096  # larger containers are bitmaps of 2^16 bits
BITMAP_CONTAINER_WORDS = 1024


def serialize(values: Optional[Sequence[int]]) -> Optional[bytes]:
    """The format's bytes of a bitmap given as its sorted unsigned values."""
    if values is None:
        return None
    containers = [(key, [v & 0xFFFF for v in group])
                  for key, group in groupby(values, key=lambda v: v >> 16)]
    bodies = [_container_bytes(lows) for _, lows in containers]
    runs = [is_run for _, is_run in bodies]
    size = len(containers)
    if any(runs):
        flags = bytearray((size + 7) // 8)
        for i, is_run in enumerate(runs):
            flags[i // 8] |= is_run << (i % 8)
        header = [struct.pack("<I", SERIAL_COOKIE | (size - 1) << 16), bytes(flags)]
        with_offsets = size >= NO_OFFSET_THRESHOLD
    else:
        header = [struct.pack("<II", SERIAL_COOKIE_NO_RUNCONTAINER, size)]
        with_offsets = True
    header += [struct.pack("<HH", key, len(lows) - 1) for key, lows in containers]
    if with_offsets:
        offset = sum(map(len, header)) + 4 * size
        for body, _ in bodies:
            header.append(struct.pack("<I", offset))
            offset += len(body)
    return b"".join(header + [body for body, _ in bodies])


def _container_bytes(lows: List[int]) -> Tuple[bytes, bool]:
    """A container's bytes, and whether it is a list of runs: RoaringBitmap's runOptimize
    keeps runs where they take fewer bytes than the array or the bitmap."""
    runs = _runs(lows)
    as_runs = 2 + 4 * len(runs)
    if len(lows) <= ARRAY_CONTAINER_MAX:
        if 2 * len(lows) > as_runs:
            return _runs_bytes(runs), True
        return struct.pack("<%dH" % len(lows), *lows), False
    if 2 * BITMAP_CONTAINER_WORDS * 4 > as_runs:
        return _runs_bytes(runs), True
    words = [0] * BITMAP_CONTAINER_WORDS
    for low in lows:
        words[low >> 6] |= 1 << (low & 63)
    return struct.pack("<%dQ" % BITMAP_CONTAINER_WORDS, *words), False


def _runs(lows: List[int]) -> List[Tuple[int, int]]:
    """The runs of consecutive values in sorted ``lows``: (start, length - 1) each."""
    runs: List[Tuple[int, int]] = []
    for low in lows:
        if runs and runs[-1][0] + runs[-1][1] + 1 == low:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((low, 0))
    return runs


def _runs_bytes(runs: List[Tuple[int, int]]) -> bytes:
    return struct.pack("<H%dH" % (2 * len(runs)), len(runs),
                       *(n for run in runs for n in run))


def deserialize(data: Optional[bytes]) -> Optional[List[int]]:
    """The sorted unsigned values of a bitmap in the format's bytes. Bytes not in the format
    raise ValueError."""
    if data is None:
        return None
    try:
        return _read(memoryview(bytes(data)))
    except struct.error as error:
        raise ValueError("Not a RoaringBitmap: the bytes end too soon (%s)." % error) from None


def _read(data: memoryview) -> List[int]:
    (cookie,) = struct.unpack_from("<I", data, 0)
    position = 4
    if cookie & 0xFFFF == SERIAL_COOKIE:
        size = (cookie >> 16) + 1
        run_flags = bytes(data[position:position + (size + 7) // 8])
        position += (size + 7) // 8
        has_offsets = size >= NO_OFFSET_THRESHOLD
    elif cookie == SERIAL_COOKIE_NO_RUNCONTAINER:
        (size,) = struct.unpack_from("<I", data, position)
        position += 4
        run_flags = bytes((size + 7) // 8)
        has_offsets = True
    else:
        raise ValueError("Not a RoaringBitmap: unknown cookie %d." % cookie)
    descriptions = [struct.unpack_from("<HH", data, position + 4 * i) for i in range(size)]
    position += 4 * size + (4 * size if has_offsets else 0)
    values: List[int] = []
    for i, (key, cardinality_minus_one) in enumerate(descriptions):
        high = key << 16
        if run_flags[i // 8] >> (i % 8) & 1:
            (runs,) = struct.unpack_from("<H", data, position)
            pairs = struct.unpack_from("<%dH" % (2 * runs), data, position + 2)
            position += 2 + 4 * runs
            for start, length in zip(pairs[::2], pairs[1::2]):
                values.extend(range(high | start, (high | start) + length + 1))
        elif cardinality_minus_one + 1 > ARRAY_CONTAINER_MAX:
            words = struct.unpack_from("<%dQ" % BITMAP_CONTAINER_WORDS, data, position)
            position += 8 * BITMAP_CONTAINER_WORDS
            values.extend(high | (w << 6) | bit for w, word in enumerate(words) if word
                          for bit in range(64) if word >> bit & 1)
        else:
            count = cardinality_minus_one + 1
            values.extend(high | low for low in struct.unpack_from("<%dH" % count, data,
                                                                     position))
            position += 2 * count
    return values
