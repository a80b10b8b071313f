"""The servers of tests/remote: a standalone cluster (for this module), Kafka and PostgreSQL
(the Spark Connect server is the run's, from the root conftest)."""
from tests.connectors.conftest import kafka_servers, postgres  # noqa: F401 - pytest fixtures
from tests.servers import standalone_master  # noqa: F401 - a pytest fixture
