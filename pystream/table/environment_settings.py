"""``EnvironmentSettings``: the mode (batch or streaming) and the built-in catalog's names."""
from __future__ import annotations

from typing import Optional

from pystream.common.configuration import Configuration
from pystream.util.exceptions import IllegalArgumentException

__all__ = ["EnvironmentSettings"]

RUNTIME_MODE = "execution.runtime-mode"


def _streaming(configuration: Configuration) -> bool:
    """Whether ``execution.runtime-mode`` says STREAMING (or AUTOMATIC: Flink's tables are
    then STREAMING unless bounded; pystream's, STREAMING)."""
    mode = configuration.get_string(RUNTIME_MODE, "STREAMING")
    if mode.strip().upper() not in ("STREAMING", "BATCH", "AUTOMATIC"):
        raise IllegalArgumentException.unparsed(RUNTIME_MODE, mode)
    return mode.strip().upper() != "BATCH"


class EnvironmentSettings:
    """How a TableEnvironment is created: ``EnvironmentSettings.in_streaming_mode()``."""

    class Builder:
        def __init__(self):
            self._catalog = "default_catalog"
            self._database = "default_database"
            self._configuration = Configuration()

        def with_configuration(self, config: Configuration) -> "EnvironmentSettings.Builder":
            self._configuration.add_all(config)
            return self

        def in_batch_mode(self) -> "EnvironmentSettings.Builder":
            self._configuration.set_string(RUNTIME_MODE, "BATCH")
            return self

        def in_streaming_mode(self) -> "EnvironmentSettings.Builder":
            self._configuration.set_string(RUNTIME_MODE, "STREAMING")
            return self

        def with_built_in_catalog_name(self, built_in_catalog_name: str
                                       ) -> "EnvironmentSettings.Builder":
            self._catalog = built_in_catalog_name
            return self

        def with_built_in_database_name(self, built_in_database_name: str
                                        ) -> "EnvironmentSettings.Builder":
            self._database = built_in_database_name
            return self

        def build(self) -> "EnvironmentSettings":
            return EnvironmentSettings(_streaming(self._configuration), self._catalog,
                                       self._database, Configuration(self._configuration))

    def __init__(self, streaming: bool = True, catalog: str = "default_catalog",
                 database: str = "default_database",
                 configuration: Optional[Configuration] = None):
        self._catalog = catalog
        self._database = database
        self._configuration = configuration or Configuration()
        if not self._configuration.contains_key(RUNTIME_MODE) and not streaming:
            self._configuration.set_string(RUNTIME_MODE, "BATCH")

    def get_built_in_catalog_name(self) -> str:
        return self._catalog

    def get_built_in_database_name(self) -> str:
        return self._database

    def is_streaming_mode(self) -> bool:
        """Whether the mode (``execution.runtime-mode`` of the settings' configuration) is
        STREAMING, Flink's default."""
        return _streaming(self._configuration)

    def get_configuration(self) -> Configuration:
        return self._configuration

    def to_configuration(self) -> Configuration:
        return self._configuration

    @staticmethod
    def new_instance() -> "EnvironmentSettings.Builder":
        return EnvironmentSettings.Builder()

    @staticmethod
    def in_streaming_mode() -> "EnvironmentSettings":
        return EnvironmentSettings.Builder().in_streaming_mode().build()

    @staticmethod
    def in_batch_mode() -> "EnvironmentSettings":
        return EnvironmentSettings.Builder().in_batch_mode().build()
