"""Keys on the subtasks Flink gives them.

Flink puts a key in key group ``murmur(key.hashCode()) % max_parallelism`` and a key group on
subtask ``group * parallelism // max_parallelism`` (its ``KeyGroupRangeAssignment``). PyFlink
keys a stream by a one-field ``Row`` holding the key: its pickle (protocol 5) when
``key_by`` has no key type, else the Java value of that type; such a Row hashes to
``62 + hash(field)``.

Spark sends a keyed record to partition ``pmod(murmur3(__key, 42), partitions)``. So that
partition index and subtask index agree, a key's bytes get a salt: zero bytes up to a whole
4-byte word, then one word computed (Murmur3's steps run backwards) so that Spark's hash is
a number whose remainder is Flink's subtask. The salt follows the pickle's STOP opcode,
where ``pickle.loads`` stops reading, and it is a function of the key: equal keys keep equal
bytes, and different keys different bytes (a pickle ends with its STOP byte, never zero, so
the key's length is read back from the salted bytes).
"""
from __future__ import annotations

import pickle
import zlib
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from pystream.common.typeinfo import TypeInformation
from pystream.runtime.java_hashes import bytes_hash, int32, java_hash_of

_M = 0xFFFFFFFF
FLINK_PICKLE_PROTOCOL = 5  # the protocol of PyFlink's pickled keys (as its hashes show)
_C1, _C2 = 0xCC9E2D51, 0x1B873593


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M


def flink_murmur(code: int) -> int:
    """Flink's ``MathUtils.murmurHash(int)``: Murmur3 of one 4-byte word from seed 0, made
    non-negative."""
    code = int32(_fmix(_mix(0, code & _M) ^ 4))
    return code if code >= 0 else (-code if code != -(1 << 31) else 0)


def flink_subtask(key_hash: int, parallelism: int, max_parallelism: int) -> int:
    """The subtask Flink runs the key whose ``hashCode()`` is ``key_hash`` on."""
    group = flink_murmur(key_hash) % max_parallelism
    return group * parallelism // max_parallelism


def _fmix(h: int) -> int:
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & _M
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & _M
    return h ^ (h >> 16)


def _mix(h1: int, k1: int) -> int:
    k1 = (_rotl((k1 * _C1) & _M, 15) * _C2) & _M
    return (_rotl(h1 ^ k1, 13) * 5 + 0xE6546B64) & _M


def _mix_words(h1: int, data: bytes) -> int:
    for i in range(0, len(data) - len(data) % 4, 4):
        h1 = _mix(h1, int.from_bytes(data[i:i + 4], "little"))
    return h1


def _finish(h1: int, tail: bytes, length: int) -> int:
    """Spark mixes the bytes after the last whole 4-byte word one by one, sign-extended."""
    for b in tail:
        h1 = _mix(h1, (b - 256 if b > 127 else b) & _M)
    return int32(_fmix(h1 ^ length))


def spark_hash(data: bytes, seed: int = 42) -> int:
    """Spark's ``hash()`` of a BINARY value (``Murmur3_x86_32.hashUnsafeBytes``)."""
    aligned = len(data) - len(data) % 4
    return _finish(_mix_words(seed, data[:aligned]), data[aligned:], len(data))


@dataclass(frozen=True)
class KeyPlacement:
    """Salts the ``__key`` bytes of a keyed operator's input: ``parallelism`` and
    ``max_parallelism`` are the operator's, ``partitions`` the number of partitions Spark
    hashes its input into, ``key_type`` the type ``key_by`` was given (None: pickled)."""

    parallelism: int
    max_parallelism: int
    partitions: int
    key_type: Optional[TypeInformation] = None
    _salted: Dict[bytes, bytes] = field(default_factory=dict, compare=False, repr=False)

    def place(self, keys: list, encoded: List[bytes]) -> List[bytes]:
        """``encoded`` (the bytes of ``keys``) salted."""
        salted, out = self._salted, []
        java_hash = None if self.key_type is None else java_hash_of(self.key_type)
        for key, data in zip(keys, encoded):
            placed = salted.get(data)
            if placed is None:
                if len(salted) >= 1 << 16:
                    salted.clear()
                placed = salted[data] = self._salt(data, self.key_hash(key, data, java_hash))
            out.append(placed)
        return out

    @staticmethod
    def key_hash(key, data: bytes, java_hash) -> int:
        """``hashCode()`` of PyFlink's key Row."""
        if java_hash is not None and key is not None:
            return int32(62 + java_hash(key))
        if type(key) not in (int, str, bytes, float, bool):  # ours are pickled without memo
            data = pickle.dumps(key, FLINK_PICKLE_PROTOCOL)
        return int32(62 + bytes_hash(data))

    def _salt(self, data: bytes, key_hash: int) -> bytes:
        target = flink_subtask(key_hash, self.parallelism, self.max_parallelism)
        padded = data + b"\0" * (-len(data) % 4)
        # a hash of Spark's with remainder ``target``, as varied as the keys
        spread = zlib.crc32(data) % max((1 << 31) // self.partitions - 1, 1)
        word = _word_for_hash(_mix_words(42, padded), target + self.partitions * spread,
                              len(padded) + 4)
        return padded + word.to_bytes(4, "little")


def _inverse(odd: int) -> int:
    return pow(odd, -1, 1 << 32)


def _rotr(x: int, r: int) -> int:
    return ((x >> r) | (x << (32 - r))) & _M


def _unshift(h: int, shift: int) -> int:
    """The inverse of ``h ^= h >>> shift``."""
    x = h
    for _ in range(32 // shift + 1):
        x = h ^ (x >> shift)
    return x


def _word_for_hash(h1: int, wanted: int, length: int) -> int:
    """The 4-byte word that, mixed into Murmur3's state ``h1`` as the last word of a value
    of ``length`` bytes, gives the hash ``wanted`` (every step of Murmur3 is invertible)."""
    h = _unshift(wanted & _M, 16)
    h = (h * _inverse(0xC2B2AE35)) & _M
    h = _unshift(h, 13)
    h = (h * _inverse(0x85EBCA6B)) & _M
    h = _unshift(h, 16) ^ length  # the state before fmix
    k1 = _rotr(((h - 0xE6546B64) * _inverse(5)) & _M, 13) ^ h1
    return (_rotr((k1 * _inverse(_C2)) & _M, 15) * _inverse(_C1)) & _M
