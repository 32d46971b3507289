"""The tests' SSH client (tests/ssh_support.py) gives up on a server that
does not answer, saying so: a server paused (SIGSTOP) takes the TCP
connection in its kernel and says nothing, and a test that connected to
it hung for good."""

from __future__ import annotations

import asyncio
import socket

import pytest
from ssh_support import Client


async def test_connecting_to_a_server_that_says_nothing_fails_in_its_time_saying_so():
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen()  # (never accepted: the kernel completes the connection, nothing speaks)
    port = silent.getsockname()[1]
    try:
        connecting = asyncio.ensure_future(Client.connect(port, "ann", timeout=0.5))
        done, _ = await asyncio.wait([connecting], timeout=20)
        assert done, "Client.connect waits for good on a server that says nothing"
        with pytest.raises(TimeoutError, match=f"ann connecting to the SSH server on port "
                                               f"{port}: no SSH handshake and sign-in in 0.5 s"):
            connecting.result()
    finally:
        if not connecting.done():
            connecting.cancel()
            await asyncio.gather(connecting, return_exceptions=True)
        silent.close()
