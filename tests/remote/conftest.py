"""The servers of tests/remote (started once per test module), Kafka and PostgreSQL."""
from tests.connectors.conftest import kafka_servers, postgres  # noqa: F401 - pytest fixtures
from tests.servers import connect_url, standalone_master  # noqa: F401 - pytest fixtures
