"""The architecture tests read source files only: no Spark session."""
import pytest


@pytest.fixture(scope="session", autouse=True)
def spark():
    """Overrides the suite's Spark session: these tests must not start one."""
    yield None
