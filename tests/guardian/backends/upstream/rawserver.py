"""A raw asyncio TCP server on loopback for hostile-upstream tests: the handler writes
whatever bytes a scenario wants (no HTTP library in the way), on a loop in its own thread."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


@contextlib.contextmanager
def raw_upstream(handle: Handler) -> Iterator[str]:
    """Serve `handle` on a free loopback port -> its base URL (up to /v1); a client that hangs
    up is no error, and each connection is closed after its handler. On exit, cancel the
    connections still open and stop the loop."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            await handle(reader, writer)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(RuntimeError):  # the server's loop already stopped
                writer.close()

    loop = asyncio.new_event_loop()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = loop.run_until_complete(asyncio.start_server(serve, "127.0.0.1", port))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        async def shutdown() -> None:
            server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shutdown(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


async def read_request(reader: asyncio.StreamReader) -> tuple[str, dict[str, Any]]:
    """One HTTP/1.1 request -> (its request line, its JSON body or {})."""
    line = await reader.readline()
    length = 0
    while (h := await reader.readline()) not in (b"\r\n", b""):
        if h.lower().startswith(b"content-length:"):
            length = int(h.split(b":")[1])
    body = json.loads(await reader.readexactly(length)) if length else {}
    return line.decode().strip(), body
