"""Table environments for the Table API tests (the Spark session is the run's shared one)."""
import pytest

from pystream.table import EnvironmentSettings, TableEnvironment


@pytest.fixture(params=["batch", "streaming"])
def t_env(request) -> TableEnvironment:
    """A fresh TableEnvironment, in BATCH and in STREAMING mode."""
    return TableEnvironment.create(_settings(request.param))


@pytest.fixture
def batch_t_env() -> TableEnvironment:
    return TableEnvironment.create(_settings("batch"))


@pytest.fixture
def streaming_t_env() -> TableEnvironment:
    return TableEnvironment.create(_settings("streaming"))


def _settings(mode: str) -> EnvironmentSettings:
    if mode == "batch":
        return EnvironmentSettings.in_batch_mode()
    return EnvironmentSettings.in_streaming_mode()


def rows(table) -> list:
    """The rows a table's query gives, as plain tuples."""
    with table.execute().collect() as results:
        return [tuple(r) for r in results]


def changelog(table) -> list:
    """The changelog a table's query gives: (kind, values...) per record."""
    with table.execute().collect() as results:
        return [(str(r.get_row_kind()),) + tuple(r) for r in results]
