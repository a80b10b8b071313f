"""The servers of tests/remote (started once per test module)."""
from tests.servers import connect_url, standalone_master  # noqa: F401 - pytest fixtures
