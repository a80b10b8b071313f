"""The servers of tests/remote: a standalone cluster (per module), Kafka and PostgreSQL (the
Spark Connect server is the run's, from the root conftest), and what the jobs ship."""
import pytest

from tests.connectors.conftest import kafka_servers, postgres  # noqa: F401 - pytest fixtures
from tests.remote.materials import materials
from tests.servers import standalone, standalone_master  # noqa: F401 - pytest fixtures


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    return materials(tmp_path_factory.mktemp("materials"))


@pytest.fixture(scope="module")
def cache_env(tmp_path_factory):
    return {"PYSTREAM_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
