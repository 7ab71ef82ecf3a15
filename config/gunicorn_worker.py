"""gunicorn's gthread worker with a listening socket of its own; deploy/gunicorn.conf.py names it as
`worker_class`; `reuse_port` is on with GUNICORN_REUSE_PORT=1 (off by default, see there).

With `reuse_port` gunicorn 27 opens one socket per worker on the same address (SO_REUSEPORT) instead
of one socket shared by all, and the kernel hands each new connection to one of them. With the shared
socket the worker whose main loop happened to be awake took most of a wave of new connections (the
announcement burst: one of three workers served 59 % of the requests while the others idled;
docs/performance.md, "The announcement burst"), and a kept-alive connection stays with the worker that
accepted it.

What this class adds: a socket of its own has a queue of its own. gunicorn's worker, when it stops
(max_requests reached, a reload, the server's stop), only stops watching its socket and closes it when
its last connection has ended, seconds later; connections the kernel queued on it meanwhile would be
reset when it closes. Here the worker takes what is queued already and closes its sockets at once, so
that the kernel gives new connections to the other workers.
"""

from __future__ import annotations

from gunicorn.workers.gthread import TConn, ThreadWorker


class OwnSocketThreadWorker(ThreadWorker):
    def set_accept_enabled(self, enabled):
        super().set_accept_enabled(enabled)
        if not enabled and self.cfg.reuse_port and (not self.alive or not self.is_parent_alive()):
            self.leave_the_port()

    def leave_the_port(self):
        """Accepts the connections already queued on this worker's sockets (each is answered as any
        other), then closes the sockets: the kernel gives later connections to the other workers."""
        for listener in self.sockets:
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
