"""The smallest fault-injecting TCP proxy that `make hub-check` needs (scripts/hub_check.py), on loopback:

    python scripts/fault_proxy.py LISTEN_PORT UPSTREAM_PORT CONTROL_PORT

It forwards every connection to 127.0.0.1:UPSTREAM_PORT and obeys one-line commands on the control port
(each answered with one line):

    pass            forward as they come
    delay MS        hold each chunk MS milliseconds before passing it on (both ways): a slow line
    drop P          each new connection with probability P is dropped, alternately at once (reset
                    before the request reached the hub) or after the request was passed on and before
                    the answer came back (the hub applied it; the venue never hears of it)
    refuse          stop listening: connections are refused, as when the hub's address is down
    stats           the counts of connections passed, dropped early and dropped late

Why not toxiproxy: it is a Go program and no package of it exists in Debian, PyPI or npm (only its
clients do); this machine fetches nothing else. What hub-check needs is these four faults; asyncio from
the standard library does them in a hundred lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys

HOST = "127.0.0.1"


class Proxy:
    def __init__(self, listen: int, upstream: int):
        self.listen, self.upstream = listen, upstream
        self.delay = 0.0
        self.drop = 0.0
        self.server: asyncio.Server | None = None
        self.counts = {"passed": 0, "dropped_early": 0, "dropped_late": 0}
        self.late_next = False

    async def open(self) -> None:
        if self.server is None:
            self.server = await asyncio.start_server(self.handle, HOST, self.listen, reuse_address=True)

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        dropped = random.random() < self.drop  # noqa: S311 (a fault's chance, not a secret)
        late = dropped and self.late_next
        if dropped:
            self.late_next = not self.late_next
        if dropped and not late:
            self.counts["dropped_early"] += 1
            writer.transport.abort()  # a reset: the venue's request never reaches the hub
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(HOST, self.upstream)
        except OSError:
            writer.transport.abort()
            return
        if late:
            self.counts["dropped_late"] += 1
            # the request goes through; the first bytes of the answer are swallowed and both ends cut
            await asyncio.gather(self.pipe(reader, up_writer), self.cut(up_reader, up_writer, writer))
            return
        self.counts["passed"] += 1
        await asyncio.gather(self.pipe(reader, up_writer), self.pipe(up_reader, writer))

    async def pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while chunk := await source.read(65536):
                if self.delay:
                    await asyncio.sleep(self.delay)
                sink.write(chunk)
                await sink.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            sink.close()

    async def cut(self, up_reader: asyncio.StreamReader, up_writer: asyncio.StreamWriter,
                  writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError):
            await up_reader.read(1)  # the hub has answered: it has applied the batch
        up_writer.transport.abort()
        writer.transport.abort()

    async def command(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        line = (await reader.readline()).decode().split()
        answer = "ok"
        match line:
            case ["pass"]:
                self.delay = self.drop = 0.0
                await self.open()
            case ["delay", ms]:
                self.delay = float(ms) / 1000
                await self.open()
            case ["drop", share]:
                self.drop = float(share)
                await self.open()
            case ["refuse"]:
                await self.close()
            case ["stats"]:
                answer = " ".join(f"{k}={v}" for k, v in self.counts.items())
            case _:
                answer = "unknown command"
        writer.write((answer + "\n").encode())
        await writer.drain()
        writer.close()


async def main(listen: int, upstream: int, control: int) -> None:
    proxy = Proxy(listen, upstream)
    await proxy.open()
    server = await asyncio.start_server(proxy.command, HOST, control, reuse_address=True)
    print(f"fault proxy: {HOST}:{listen} -> {HOST}:{upstream}, commands on {HOST}:{control}", flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    asyncio.run(main(*(int(port) for port in sys.argv[1:4])))
