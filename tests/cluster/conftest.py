"""What every cluster test shares."""

import pytest

from crib3.players import workers


@pytest.fixture(autouse=True)
def _workers():
    """The computer players' worker processes, shut down after each test
    (a node's bots start them in the test's own process)."""
    yield
    workers.shut_down()
