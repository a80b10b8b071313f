"""``EnvironmentSettings``: the mode (batch or streaming) and the built-in catalog's names."""
from __future__ import annotations

from typing import Optional

from pystream.common.configuration import Configuration

__all__ = ["EnvironmentSettings"]


class EnvironmentSettings:
    """How a TableEnvironment is created: ``EnvironmentSettings.in_streaming_mode()``."""

    class Builder:
        def __init__(self):
            self._streaming = True
            self._catalog = "default_catalog"
            self._database = "default_database"
            self._configuration = Configuration()

        def with_configuration(self, config: Configuration) -> "EnvironmentSettings.Builder":
            self._configuration.add_all(config)
            return self

        def in_batch_mode(self) -> "EnvironmentSettings.Builder":
            self._streaming = False
            return self

        def in_streaming_mode(self) -> "EnvironmentSettings.Builder":
            self._streaming = True
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
            return EnvironmentSettings(self._streaming, self._catalog, self._database,
                                       self._configuration)

    def __init__(self, streaming: bool = True, catalog: str = "default_catalog",
                 database: str = "default_database",
                 configuration: Optional[Configuration] = None):
        self._streaming = streaming
        self._catalog = catalog
        self._database = database
        self._configuration = configuration or Configuration()

    def get_built_in_catalog_name(self) -> str:
        return self._catalog

    def get_built_in_database_name(self) -> str:
        return self._database

    def is_streaming_mode(self) -> bool:
        return self._streaming

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
