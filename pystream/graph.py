"""The job graph: frozen nodes built by the API and read by the compiler.

This module is the contract between ``pystream.datastream`` (which only builds nodes) and
``pystream.compiler`` (which turns them into Spark plans). Nodes are immutable; configuring an
operator (``name``, ``set_parallelism``, ...) replaces its node by an updated copy.
"""
from __future__ import annotations

import itertools
import os
import sys
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from pystream.common.typeinfo import TypeInformation

_ids = itertools.count(1)
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def call_site() -> str:
    """``file:line`` of the user's code that called into pystream (for error messages)."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not os.path.abspath(filename).startswith(_PACKAGE_DIR):
            return "%s:%d" % (os.path.basename(filename), frame.f_lineno)
        frame = frame.f_back
    return ""


@dataclass(frozen=True)
class Meta:
    """An operator's configuration: name, uid, parallelism, chaining, where it was defined."""

    name: str
    origin: str = ""
    uid: Optional[str] = None
    uid_hash: Optional[str] = None
    description: Optional[str] = None
    parallelism: Optional[int] = None
    max_parallelism: Optional[int] = None
    slot_sharing_group: Optional[str] = None
    chaining: str = "default"  # 'default' | 'new_chain' | 'disabled'
    buffer_timeout: Optional[int] = None  # set_buffer_timeout: recorded (no Spark equivalent)

    def label(self) -> str:
        """The operator as error messages name it: ``'Map' (job.py:12)``."""
        return "'%s'%s" % (self.name, " (%s)" % self.origin if self.origin else "")


@dataclass(frozen=True, eq=False, kw_only=True)
class Node:
    """An operator of the job graph; equality is identity."""

    meta: Meta
    output_type: TypeInformation
    id: int = field(default_factory=lambda: next(_ids))

    @property
    def inputs(self) -> Tuple["Node", ...]:
        return ()

    def with_meta(self, **changes) -> "Node":
        return replace(self, meta=replace(self.meta, **changes))


@dataclass(frozen=True, eq=False, kw_only=True)
class Source(Node):
    """Records from a connector (``source`` is the user-facing source object)."""

    source: Any
    bounded: bool = True


@dataclass(frozen=True, eq=False, kw_only=True)
class Stateless(Node):
    """A per-record Python function: ``kind`` is map, flat_map, filter or process.

    Chains of these fuse into one Python stage (operator chaining).
    """

    input: Node
    kind: str
    fn: Callable

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class KeyBy(Node):
    """Partitions a stream by the key ``key_selector`` extracts."""

    input: Node
    key_selector: Callable
    key_type: Optional[TypeInformation] = None

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class Keyed(Node):
    """The stateful primitive: a keyed function with state and timers, per key.

    ``function`` is a KeyedProcessFunction (a user's, or pystream's own for reduce, windows...).
    ``time_domain`` says which timers it needs ('event', 'processing' or None).

    Two-input operators (``connect``) have a second input, ``input2``, whose records reach
    the function's ``process_element2``: a KeyBy (keyed ConnectedStreams) or, with
    ``broadcast``, any stream, every record of which reaches every parallel instance (then
    ``input``'s records are keyed by parallel instance: see ``runtime.keyed_broadcast``).
    """

    input: KeyBy
    function: Any
    time_domain: Optional[str] = None
    input2: Optional[Node] = None
    broadcast: bool = False

    @property
    def inputs(self):
        return (self.input,) if self.input2 is None else (self.input, self.input2)


@dataclass(frozen=True, eq=False, kw_only=True)
class Union(Node):
    """The records of several streams of the same type."""

    streams: Tuple[Node, ...]

    @property
    def inputs(self):
        return self.streams


@dataclass(frozen=True, eq=False, kw_only=True)
class Partition(Node):
    """Redistributes records: shuffle, rebalance, rescale, forward, broadcast, global, custom."""

    input: Node
    strategy: str
    partitioner: Optional[Callable] = None
    key_selector: Optional[Callable] = None

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class SideOutput(Node):
    """The records ``input`` sent to the side output ``tag``."""

    input: Node
    tag: Any

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class AssignTimestamps(Node):
    """Assigns event-time timestamps to records and defines the watermark (``strategy``)."""

    input: Node
    strategy: Any

    @property
    def inputs(self):
        return (self.input,)


class CacheSlot:
    """Where a cached stream's result is kept between the jobs of its environment (set by
    the compiler the first time a BATCH job computes it; emptied by ``invalidate()``)."""

    def __init__(self):
        self.result: Any = None
        self.session: Any = None

    def clear(self) -> None:
        self.result = self.session = None


@dataclass(frozen=True, eq=False, kw_only=True)
class Cache(Node):
    """``DataStream.cache()``: ``input`` computed once (BATCH) and reused by later jobs."""

    input: Node
    slot: CacheSlot

    @property
    def inputs(self):
        return (self.input,)


@dataclass(frozen=True, eq=False, kw_only=True)
class Sink(Node):
    """Where records go: ``sink`` is the user-facing sink object (print, collect, file, ...)."""

    input: Node
    sink: Any

    @property
    def inputs(self):
        return (self.input,)


def walk(roots: List[Node]) -> Iterator[Node]:
    """Every node reachable from ``roots``, inputs before the nodes that read them."""
    seen: Dict[int, Node] = {}

    def visit(node: Node):
        if id(node) in seen:
            return
        for child in node.inputs:
            yield from visit(child)
        seen[id(node)] = node
        yield node

    for root in roots:
        yield from visit(root)
