"""Keyed state: descriptors, state interfaces and time-to-live, with PyFlink's names.

>>> from pystream.common import Types
>>> counter = ValueStateDescriptor('cnt', Types.LONG())
>>> # in open(): self.cnt = runtime_context.get_state(counter)
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from enum import Enum
from typing import Dict, Generic, Iterable, Iterator, List, Optional, Tuple, TypeVar

from pystream.common.time import Duration, Time
from pystream.common.typeinfo import TypeInformation, Types
from pystream.core.functions import AggregateFunction, ReduceFunction

__all__ = [
    "State", "ValueState", "AppendingState", "MergingState", "ReducingState", "AggregatingState",
    "ListState", "MapState", "ReadOnlyBroadcastState", "BroadcastState", "StateDescriptor",
    "ValueStateDescriptor", "ListStateDescriptor", "MapStateDescriptor",
    "ReducingStateDescriptor", "AggregatingStateDescriptor", "StateTtlConfig",
    "OperatorStateStore",
]

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")
IN = TypeVar("IN")
OUT = TypeVar("OUT")


class State(ABC):
    """A piece of keyed state, scoped to the key of the current record."""

    @abstractmethod
    def clear(self) -> None:
        """Remove the value for the current key."""


class ValueState(State, Generic[T]):
    """One value per key."""

    @abstractmethod
    def value(self) -> Optional[T]:
        """The value for the current key, or None."""

    @abstractmethod
    def update(self, value: T) -> None:
        """Set the value for the current key."""


class AppendingState(State, Generic[IN, OUT]):
    """State that values are added to."""

    @abstractmethod
    def get(self) -> OUT:
        """The current value."""

    @abstractmethod
    def add(self, value: IN) -> None:
        """Add ``value``."""


class MergingState(AppendingState[IN, OUT]):
    """An AppendingState whose values can be merged (session windows)."""


class ReducingState(MergingState[T, T]):
    """Values added are combined with the descriptor's ReduceFunction."""


class AggregatingState(MergingState[IN, OUT]):
    """Values added go into the descriptor's AggregateFunction; ``get`` is its result."""


class ListState(MergingState[T, Iterable[T]]):
    """A list of values per key."""

    @abstractmethod
    def update(self, values: List[T]) -> None:
        """Replace the list by ``values``."""

    @abstractmethod
    def add_all(self, values: List[T]) -> None:
        """Append all ``values``."""

    def __iter__(self) -> Iterator[T]:
        return iter(self.get())


class MapState(State, Generic[K, V]):
    """A dict per key."""

    @abstractmethod
    def get(self, key: K) -> V:
        """The value for ``key``, or None."""

    @abstractmethod
    def put(self, key: K, value: V) -> None:
        """Set ``key`` to ``value``."""

    @abstractmethod
    def put_all(self, dict_value: Dict[K, V]) -> None:
        """Set all entries of ``dict_value``."""

    @abstractmethod
    def remove(self, key: K) -> None:
        """Remove ``key``."""

    @abstractmethod
    def contains(self, key: K) -> bool:
        """Whether ``key`` is present."""

    @abstractmethod
    def items(self) -> Iterable[Tuple[K, V]]:
        """All entries."""

    @abstractmethod
    def keys(self) -> Iterable[K]:
        """All keys."""

    @abstractmethod
    def values(self) -> Iterable[V]:
        """All values."""

    @abstractmethod
    def is_empty(self) -> bool:
        """Whether there is no entry."""

    def __getitem__(self, key: K) -> V:
        return self.get(key)

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def __delitem__(self, key: K) -> None:
        self.remove(key)

    def __contains__(self, key: K) -> bool:
        return self.contains(key)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())


class ReadOnlyBroadcastState(State, Generic[K, V]):
    """Broadcast state as seen from the non-broadcast side (read only)."""

    @abstractmethod
    def get(self, key: K) -> V:
        """The value for ``key``."""

    @abstractmethod
    def contains(self, key: K) -> bool:
        """Whether ``key`` is present."""

    @abstractmethod
    def items(self) -> Iterable[Tuple[K, V]]:
        """All entries."""

    @abstractmethod
    def keys(self) -> Iterable[K]:
        """All keys."""

    @abstractmethod
    def values(self) -> Iterable[V]:
        """All values."""

    @abstractmethod
    def is_empty(self) -> bool:
        """Whether there is no entry."""

    def __getitem__(self, key: K) -> V:
        return self.get(key)

    def __contains__(self, key: K) -> bool:
        return self.contains(key)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())


class BroadcastState(ReadOnlyBroadcastState[K, V]):
    """Broadcast state as seen from the broadcast side."""

    @abstractmethod
    def put(self, key: K, value: V) -> None:
        """Set ``key`` to ``value``."""

    @abstractmethod
    def put_all(self, dict_value: Dict[K, V]) -> None:
        """Set all entries."""

    @abstractmethod
    def remove(self, key: K) -> None:
        """Remove ``key``."""

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def __delitem__(self, key: K) -> None:
        self.remove(key)


class OperatorStateStore(ABC):
    """Access to operator (broadcast) state."""

    @abstractmethod
    def get_broadcast_state(self, state_descriptor: "MapStateDescriptor") -> BroadcastState:
        """The broadcast state of ``state_descriptor``."""


class StateDescriptor(ABC):
    """Names a piece of state and its type."""

    def __init__(self, name: str, type_info: TypeInformation):
        self.name = name
        self.type_info = type_info
        self._ttl_config: Optional[StateTtlConfig] = None

    def get_name(self) -> str:
        return self.name

    def enable_time_to_live(self, ttl_config: "StateTtlConfig") -> None:
        """Let values expire ``ttl_config.get_ttl()`` after their last write (or read)."""
        self._ttl_config = ttl_config

    @property
    def ttl_config(self) -> Optional["StateTtlConfig"]:
        return self._ttl_config


class ValueStateDescriptor(StateDescriptor):
    """Describes a ValueState: ``ValueStateDescriptor('cnt', Types.LONG())``."""

    def __init__(self, name: str, value_type_info: TypeInformation):
        super().__init__(name, value_type_info)


class ListStateDescriptor(StateDescriptor):
    """Describes a ListState of elements of ``elem_type_info``."""

    def __init__(self, name: str, elem_type_info: TypeInformation):
        super().__init__(name, Types.LIST(elem_type_info))
        self.elem_type_info = elem_type_info


class MapStateDescriptor(StateDescriptor):
    """Describes a MapState (or broadcast state) from ``key_type_info`` to ``value_type_info``."""

    def __init__(self, name: str, key_type_info: TypeInformation,
                 value_type_info: TypeInformation):
        super().__init__(name, Types.MAP(key_type_info, value_type_info))
        self.key_type_info = key_type_info
        self.value_type_info = value_type_info


class ReducingStateDescriptor(StateDescriptor):
    """Describes a ReducingState combining values with ``reduce_function``."""

    def __init__(self, name: str, reduce_function, type_info: TypeInformation):
        super().__init__(name, type_info)

        if not isinstance(reduce_function, ReduceFunction) and not callable(reduce_function):
            raise TypeError("The input must be a ReduceFunction or a callable function!")
        self._reduce_function = reduce_function

    def get_reduce_function(self):
        return self._reduce_function


class AggregatingStateDescriptor(StateDescriptor):
    """Describes an AggregatingState; ``state_type_info`` is the accumulator's type."""

    def __init__(self, name: str, agg_function, state_type_info: TypeInformation):
        super().__init__(name, state_type_info)

        if not isinstance(agg_function, AggregateFunction):
            raise TypeError("The input must be a pystream.datastream.functions.AggregateFunction!")
        self._agg_function = agg_function

    def get_agg_function(self):
        return self._agg_function


class StateTtlConfig:
    """Time-to-live of state values (processing time).

    >>> ttl = StateTtlConfig.new_builder(Time.seconds(10)).build()
    """

    class UpdateType(Enum):
        Disabled = 0
        OnCreateAndWrite = 1
        OnReadAndWrite = 2

    class StateVisibility(Enum):
        ReturnExpiredIfNotCleanedUp = 0
        NeverReturnExpired = 1

    class TtlTimeCharacteristic(Enum):
        ProcessingTime = 0

    def __init__(self, update_type: "StateTtlConfig.UpdateType",
                 state_visibility: "StateTtlConfig.StateVisibility",
                 ttl_time_characteristic: "StateTtlConfig.TtlTimeCharacteristic", ttl: Time,
                 cleanup_strategies: Optional["StateTtlConfig.CleanupStrategies"] = None):
        self._update_type = update_type
        self._state_visibility = state_visibility
        self._ttl_time_characteristic = ttl_time_characteristic
        self._ttl = ttl
        self._cleanup_strategies = cleanup_strategies or StateTtlConfig.CleanupStrategies({},
                                                                                           True)

    @staticmethod
    def new_builder(ttl) -> "StateTtlConfig.Builder":
        return StateTtlConfig.Builder(ttl)

    def get_update_type(self) -> "StateTtlConfig.UpdateType":
        return self._update_type

    def get_state_visibility(self) -> "StateTtlConfig.StateVisibility":
        return self._state_visibility

    def get_ttl(self) -> Time:
        return self._ttl

    def get_ttl_time_characteristic(self) -> "StateTtlConfig.TtlTimeCharacteristic":
        return self._ttl_time_characteristic

    def is_enabled(self) -> bool:
        return self._update_type is not StateTtlConfig.UpdateType.Disabled

    def get_cleanup_strategies(self) -> "StateTtlConfig.CleanupStrategies":
        return self._cleanup_strategies

    def ttl_millis(self) -> int:
        ttl = self._ttl
        return ttl.to_milliseconds() if isinstance(ttl, (Time, Duration)) else int(ttl)

    def __repr__(self):
        """As PyFlink writes it (its spacing too)."""
        return ("StateTtlConfig<update_type=%s, state_visibility=%s,ttl_time_characteristic "
                "=%s,ttl=%s>" % (self._update_type, self._state_visibility,
                                 self._ttl_time_characteristic, self._ttl))

    class Builder:
        def __init__(self, ttl):
            self._ttl = ttl
            self._update_type = StateTtlConfig.UpdateType.OnCreateAndWrite
            self._state_visibility = StateTtlConfig.StateVisibility.NeverReturnExpired
            self._ttl_time_characteristic = StateTtlConfig.TtlTimeCharacteristic.ProcessingTime
            self._strategies: Dict = {}
            self._is_cleanup_in_background = True

        def set_update_type(self, update_type) -> "StateTtlConfig.Builder":
            self._update_type = update_type
            return self

        def update_ttl_on_create_and_write(self) -> "StateTtlConfig.Builder":
            return self.set_update_type(StateTtlConfig.UpdateType.OnCreateAndWrite)

        def update_ttl_on_read_and_write(self) -> "StateTtlConfig.Builder":
            return self.set_update_type(StateTtlConfig.UpdateType.OnReadAndWrite)

        def set_state_visibility(self, state_visibility) -> "StateTtlConfig.Builder":
            self._state_visibility = state_visibility
            return self

        def return_expired_if_not_cleaned_up(self) -> "StateTtlConfig.Builder":
            return self.set_state_visibility(
                StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp)

        def never_return_expired(self) -> "StateTtlConfig.Builder":
            return self.set_state_visibility(StateTtlConfig.StateVisibility.NeverReturnExpired)

        def set_ttl_time_characteristic(self, ttl_time_characteristic
                                        ) -> "StateTtlConfig.Builder":
            self._ttl_time_characteristic = ttl_time_characteristic
            return self

        def use_processing_time(self) -> "StateTtlConfig.Builder":
            return self.set_ttl_time_characteristic(
                StateTtlConfig.TtlTimeCharacteristic.ProcessingTime)

        def cleanup_full_snapshot(self) -> "StateTtlConfig.Builder":
            """Recorded: expired values are dropped when read (pystream cleans up lazily)."""
            strategies = StateTtlConfig.CleanupStrategies
            self._strategies[strategies.Strategies.FULL_STATE_SCAN_SNAPSHOT] = \
                strategies.EMPTY_STRATEGY
            return self

        def cleanup_incrementally(self, cleanup_size: int = 5,
                                  run_cleanup_for_every_record: bool = False):
            """Recorded: expired values are dropped when read (pystream cleans up lazily)."""
            strategies = StateTtlConfig.CleanupStrategies
            self._strategies[strategies.Strategies.INCREMENTAL_CLEANUP] = \
                strategies.IncrementalCleanupStrategy(cleanup_size, run_cleanup_for_every_record)
            return self

        def cleanup_in_rocksdb_compact_filter(self, query_time_after_num_entries: int = 1000,
                                              periodic_compaction_time=None):
            """Recorded: expired values are dropped when read (pystream cleans up lazily)."""
            strategies = StateTtlConfig.CleanupStrategies
            self._strategies[strategies.Strategies.ROCKSDB_COMPACTION_FILTER] = \
                strategies.RocksdbCompactFilterCleanupStrategy(query_time_after_num_entries,
                                                               periodic_compaction_time)
            return self

        def disable_cleanup_in_background(self) -> "StateTtlConfig.Builder":
            """Recorded (see ``CleanupStrategies.is_cleanup_in_background``)."""
            self._is_cleanup_in_background = False
            return self

        def set_ttl(self, ttl) -> "StateTtlConfig.Builder":
            self._ttl = ttl
            return self

        def build(self) -> "StateTtlConfig":
            return StateTtlConfig(self._update_type, self._state_visibility,
                                  self._ttl_time_characteristic, self._ttl,
                                  StateTtlConfig.CleanupStrategies(
                                      dict(self._strategies), self._is_cleanup_in_background))

    class CleanupStrategies:
        """When expired state is cleaned up. pystream always drops an expired value when it is
        read; the strategies are recorded."""

        class Strategies(Enum):
            FULL_STATE_SCAN_SNAPSHOT = 0
            INCREMENTAL_CLEANUP = 1
            ROCKSDB_COMPACTION_FILTER = 2

        class CleanupStrategy(ABC):
            """Base interface for cleanup strategies configurations."""

        class EmptyCleanupStrategy(CleanupStrategy):
            pass

        class IncrementalCleanupStrategy(CleanupStrategy):
            """Incremental cleanup of expired state."""

            def __init__(self, cleanup_size: int, run_cleanup_for_every_record: bool):
                self._cleanup_size = cleanup_size
                self._run_cleanup_for_every_record = run_cleanup_for_every_record

            def get_cleanup_size(self) -> int:
                return self._cleanup_size

            def run_cleanup_for_every_record(self) -> bool:
                return self._run_cleanup_for_every_record

        class RocksdbCompactFilterCleanupStrategy(CleanupStrategy):
            """Cleanup while RocksDB compacts."""

            def __init__(self, query_time_after_num_entries: int,
                         periodic_compaction_time: Optional[Duration] = None):
                self._query_time_after_num_entries = query_time_after_num_entries
                self._periodic_compaction_time = periodic_compaction_time \
                    if periodic_compaction_time else Duration.of_days(30)

            def get_query_time_after_num_entries(self) -> int:
                return self._query_time_after_num_entries

            def get_periodic_compaction_time(self) -> Duration:
                return self._periodic_compaction_time

        EMPTY_STRATEGY = EmptyCleanupStrategy()

        def __init__(self, strategies: Dict, is_cleanup_in_background: bool):
            self._strategies = strategies
            self._is_cleanup_in_background = is_cleanup_in_background

        def is_cleanup_in_background(self) -> bool:
            return self._is_cleanup_in_background

        def in_full_snapshot(self) -> bool:
            return self.Strategies.FULL_STATE_SCAN_SNAPSHOT in self._strategies

        def get_incremental_cleanup_strategy(self):
            default = self.IncrementalCleanupStrategy(5, False) \
                if self._is_cleanup_in_background else None
            return self._strategies.get(self.Strategies.INCREMENTAL_CLEANUP, default)

        def get_rocksdb_compact_filter_cleanup_strategy(self):
            default = self.RocksdbCompactFilterCleanupStrategy(1000) \
                if self._is_cleanup_in_background else None
            return self._strategies.get(self.Strategies.ROCKSDB_COMPACTION_FILTER, default)
