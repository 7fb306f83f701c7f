"""A loopback WebSocket server for tests (RFC 6455, text frames only): it greets each client
with "hello", answers each text message with "echo:<message>" and closes when asked to."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import struct
import threading
from typing import Iterator

_ACCEPT_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_TEXT, _CLOSE = 0x1, 0x8


def _frame(opcode: int, payload: bytes) -> bytes:
    """An unmasked server frame."""
    if len(payload) < 126:
        return bytes([0x80 | opcode, len(payload)]) + payload
    return bytes([0x80 | opcode, 126]) + struct.pack(">H", len(payload)) + payload


async def _read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """A client frame (always masked), unmasked."""
    first, second = await reader.readexactly(2)
    length = second & 0x7F
    if length == 126:
        (length,) = struct.unpack(">H", await reader.readexactly(2))
    elif length == 127:
        (length,) = struct.unpack(">Q", await reader.readexactly(8))
    mask = await reader.readexactly(4)
    data = await reader.readexactly(length)
    return first & 0x0F, bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def _client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        request = await reader.readuntil(b"\r\n\r\n")
        key = next(line.split(b":", 1)[1].strip() for line in request.split(b"\r\n")
                   if line.lower().startswith(b"sec-websocket-key:"))
        accept = base64.b64encode(hashlib.sha1(key + _ACCEPT_GUID).digest())
        writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n")
        writer.write(_frame(_TEXT, b"hello"))
        await writer.drain()
        while True:
            opcode, payload = await _read_frame(reader)
            if opcode == _CLOSE:
                writer.write(_frame(_CLOSE, payload[:2]))
                await writer.drain()
                break
            if opcode == _TEXT:
                writer.write(_frame(_TEXT, b"echo:" + payload))
                await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, StopIteration):
        pass
    finally:
        writer.close()


@contextlib.contextmanager
def websocket_server() -> Iterator[int]:
    """Serve on 127.0.0.1 while the block runs; yields the port."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    port: list[int] = []

    async def start() -> None:
        server = await asyncio.start_server(_client, "127.0.0.1", 0)
        port.append(server.sockets[0].getsockname()[1])
        ready.set()
        async with server:
            with contextlib.suppress(asyncio.CancelledError):
                await server.serve_forever()

    thread = threading.Thread(target=lambda: loop.run_until_complete(start()), daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield port[0]
    finally:
        for task in asyncio.all_tasks(loop):
            loop.call_soon_threadsafe(task.cancel)
        thread.join(5)
        loop.close()
