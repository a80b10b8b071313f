"""``ConfigOptions`` and ``ConfigOption`` (PyFlink's ``pyflink.common.config_options``)."""
from __future__ import annotations

from typing import Any, Generic, Optional, TypeVar

__all__ = ["ConfigOptions", "ConfigOption"]

T = TypeVar("T")

_NO_DEFAULT = object()


class ConfigOption(Generic[T]):
    """A configuration parameter: its key, its type and an optional default value. Built with
    :class:`ConfigOptions`; immutable once created.

    >>> option = ConfigOptions.key("tmp.dir").string_type().default_value("/tmp")
    >>> option.key(), option.default_value()
    ('tmp.dir', '/tmp')
    """

    def __init__(self, key: str, value_type: type = str, default: Any = _NO_DEFAULT):
        self._key = key
        self._type = value_type
        self._default = default

    def key(self) -> str:
        """The configuration key."""
        return self._key

    def has_default_value(self) -> bool:
        return self._default is not _NO_DEFAULT

    def default_value(self) -> Optional[T]:
        """The default value, or None."""
        return None if self._default is _NO_DEFAULT else self._default

    def __eq__(self, other):
        return isinstance(other, ConfigOption) and (self._key, self._type, self._default) == (
            other._key, other._type, other._default)

    def __hash__(self):
        return hash(self._key)

    def __repr__(self):
        return "Key: '%s' , default: %s" % (self._key, self.default_value())


class ConfigOptions:
    """Builds :class:`ConfigOption` objects.

    >>> ConfigOptions.key("application.parallelism").int_type().default_value(100)
    Key: 'application.parallelism' , default: 100
    >>> ConfigOptions.key("user.name").string_type().no_default_value()
    Key: 'user.name' , default: None
    """

    @staticmethod
    def key(key: str) -> "ConfigOptions.OptionBuilder":
        """Starts building a new ConfigOption for ``key``."""
        return ConfigOptions.OptionBuilder(key)

    class OptionBuilder:
        def __init__(self, key: str):
            self._key = key

        def boolean_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[bool]":
            """The value of the option is a bool."""
            return ConfigOptions.TypedConfigOptionBuilder(self._key, bool)

        def int_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[int]":
            """The value of the option is an int (32 bits)."""
            return ConfigOptions.TypedConfigOptionBuilder(self._key, int)

        def long_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[int]":
            """The value of the option is an int (64 bits)."""
            return ConfigOptions.TypedConfigOptionBuilder(self._key, int)

        def float_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[float]":
            """The value of the option is a float (single precision)."""
            return ConfigOptions.TypedConfigOptionBuilder(self._key, float)

        def double_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[float]":
            """The value of the option is a float (double precision)."""
            return ConfigOptions.TypedConfigOptionBuilder(self._key, float)

        def string_type(self) -> "ConfigOptions.TypedConfigOptionBuilder[str]":
            """The value of the option is a str."""
            return ConfigOptions.TypedConfigOptionBuilder(self._key, str)

    class TypedConfigOptionBuilder(Generic[T]):
        def __init__(self, key: str, value_type: type):
            self._key = key
            self._type = value_type

        def default_value(self, value: T) -> "ConfigOption[T]":
            """The option, with ``value`` as its default."""
            return ConfigOption(self._key, self._type, value)

        def no_default_value(self) -> "ConfigOption[str]":
            """The option, without a default value."""
            return ConfigOption(self._key, self._type)
