"""gunicorn's gthread worker with a listening socket of its own beside the master's shared one;
deploy/gunicorn.conf.py names it as `worker_class`, turns `reuse_port` on (GUNICORN_REUSE_PORT=0 turns
it off) and opens the shared socket in the master (`keep_a_shared_socket`, from `when_ready`).

With `reuse_port` gunicorn 27 opens one socket per worker on the same address (SO_REUSEPORT) instead
of one socket shared by all, and the kernel hands each new connection to one of them. With only the
shared socket the worker whose main loop happened to be awake took most of a wave of new connections
(the announcement burst: one of three workers served 59 % of the requests while the others idled;
docs/performance.md, "The announcement burst"), and a kept-alive connection stays with the worker
that accepted it.

What this module adds:
- The master keeps one socket on the same address as well (with SO_REUSEPORT, so it joins the same
  group), and every worker watches it beside its own. The kernel hands it its share of the
  connections and whichever worker is free takes them; and while every worker restarts at once
  (max_requests) it is the one socket left open, so connections wait in its queue for the new
  workers instead of being refused (gunicorn 27 alone opens no socket in the master with reuse_port).
- A socket of its own has a queue of its own. gunicorn's worker, when it stops (max_requests reached,
  a reload, the server's stop), only stops watching its socket and closes it when its last connection
  has ended, seconds later; connections the kernel queued on it meanwhile would be reset when it
  closes. Here the worker takes what is queued on its own socket already and closes it at once, so
  that the kernel gives new connections to the other workers' and the shared socket.
- gunicorn writes an answer's head and its body in two sends; on a TCP connection each is a segment of
  its own that the kernel delivers and the phone's side wakes up for. The worker's answers are
  `OneSendResponse`s: a body whose length is known goes out with the head in one send (a 15 KB answer
  cost gunicorn 370-390 instead of 300 microseconds of CPU, `ab -k -c 20`; docs/performance.md, "The
  announcement burst"). gunicorn builds an HTTP/1 answer with `gunicorn.http.wsgi.Response` unless
  told otherwise (HTTP/2 passes its own), so the worker names this class there when it starts.
"""

from __future__ import annotations

import socket

from gunicorn import sock
from gunicorn.http import wsgi
from gunicorn.workers.gthread import TConn, ThreadWorker


def keep_a_shared_socket(server) -> None:
    """In the master, before the workers are forked: with `reuse_port` gunicorn opens no socket there;
    open one on each address (SO_REUSEPORT is set by gunicorn's socket for `reuse_port`). The workers
    get it as gunicorn's LISTENERS and watch it beside their own (`OwnSocketThreadWorker`)."""
    if server.cfg.reuse_port and hasattr(socket, "SO_REUSEPORT") and not server.LISTENERS:
        server.LISTENERS = sock.create_sockets(server.cfg, server.log)


class OneSendResponse(wsgi.Response):
    """gunicorn's HTTP/1 answer, its head sent with the first part of a body of known length in one send.
    Everything else (no Content-Length: chunked; HEAD, 204, 304; a file sent with sendfile; what comes
    after the first part) is gunicorn's own way."""

    def write(self, arg):
        if (self.headers_sent or self.chunked or getattr(self, "_omits_body", True) or not isinstance(arg, bytes)
                or self.response_length is None or len(arg) > self.response_length):
            return super().write(arg)
        self.sock.sendall(self.head() + arg)
        self.headers_sent = True
        self.sent += len(arg)

    def head(self) -> bytes:
        """The status line and headers as gunicorn's `send_headers` writes them."""
        lines = self.default_headers()
        lines.extend(f"{name}: {value}\r\n" for name, value in self.headers)
        return f"{''.join(lines)}\r\n".encode("latin-1")


class OwnSocketThreadWorker(ThreadWorker):
    def __init__(self, age, ppid, sockets, *args, **kwargs):
        super().__init__(age, ppid, sockets, *args, **kwargs)
        # the master's sockets; with reuse_port gunicorn replaces self.sockets by the worker's own after
        # the fork (arbiter.spawn_worker), and init_process adds these back
        self.shared_sockets = list(sockets)

    def init_process(self):
        self.watch_the_shared_sockets()
        wsgi.Response = OneSendResponse  # (in this worker process: the class `wsgi.create` builds answers with)
        super().init_process()

    def watch_the_shared_sockets(self):
        """After the fork, with reuse_port: the worker's own sockets and the master's shared ones."""
        if self.cfg.reuse_port:
            self.sockets = self.sockets + [s for s in self.shared_sockets if s not in self.sockets]

    def set_accept_enabled(self, enabled):
        super().set_accept_enabled(enabled)
        if not enabled and self.cfg.reuse_port and (not self.alive or not self.is_parent_alive()):
            self.leave_the_port()

    def leave_the_port(self):
        """Accepts the connections already queued on this worker's own sockets (each is answered as any
        other), then closes them: the kernel gives later connections to the other workers and to the
        shared socket, which stays open in the master (this process only stops watching it)."""
        shared = [s for s in self.sockets if s in getattr(self, "shared_sockets", ())]
        for listener in self.sockets:
            if listener in shared:
                continue
            listener.setblocking(False)
            while True:
                try:
                    client, address = listener.accept()
                except OSError:  # nothing queued any more (EAGAIN), or the socket is gone
                    break
                self.nr_conns += 1
                client.setblocking(True)
                self.enqueue_req(TConn(self.cfg, client, address, listener.getsockname()))
            listener.close()
        self.sockets = []
