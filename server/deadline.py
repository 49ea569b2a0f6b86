"""A deadline for a request's head on the app server (issue 40, item 5).

uvicorn, which serves ``st.App``, has no timeout on the receipt of a request: its keep-alive
timer covers only the time between requests and is cancelled by every byte received, so a
client that sends its headers a byte every few seconds holds a connection (and an open file)
for ever; a thousand of them from one laptop left the server unreachable. ASGI middleware
cannot help: it runs once the head is parsed. (HAProxy in front of a hall cuts such clients
after 15 s, ``timeout http-request``; ``make serve`` has no proxy.)

:func:`install` gives uvicorn's HTTP/1.1 protocol a deadline: a connection must send a whole
request head within :data:`HEAD_SECONDS` of connecting, or of the end of its last response,
else it is answered ``408`` with a sentence and closed. Once a head has arrived the deadline
is off (a long event stream or a websocket is never cut; a POST's body has its own time in
the class routes, ``routes.BODY_SECONDS``). uvicorn is not configurable here (Streamlit
builds its ``uvicorn.Config``), so the protocol class's methods are wrapped once, at the
server's start; ``tests/server/test_serving.py`` checks it on a real ``streamlit run serve.py``.
"""

from __future__ import annotations

import logging
from typing import Any

#: Seconds a connection has to send a request's head (a browser sends it at once; HAProxy
#: allows 15 s in front of a hall).
HEAD_SECONDS = 10.0

_LOG = logging.getLogger("boostlab.server")
_BODY = b"The request's headers did not arrive within 10 s: the connection is closed.\n"
_408 = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: " + str(len(_BODY)).encode() + b"\r\n\r\n" + _BODY
)


def _arm(protocol: Any) -> None:
    _disarm(protocol)
    protocol._bl_deadline = protocol.loop.call_later(HEAD_SECONDS, _late, protocol)


def _disarm(protocol: Any) -> None:
    timer = getattr(protocol, "_bl_deadline", None)
    if timer is not None:
        timer.cancel()
        protocol._bl_deadline = None


def _late(protocol: Any) -> None:
    protocol._bl_deadline = None
    transport = protocol.transport
    if transport is None or transport.is_closing():
        return
    _LOG.warning(
        "A client sent no whole request within %.0f s: answered 408 and closed", HEAD_SECONDS
    )
    try:
        transport.write(_408)
    finally:
        transport.close()


def _patch(cls: type, head_done: str) -> None:
    """Wrap ``cls``'s connection_made, connection_lost, on_response_complete and the method
    ``head_done`` (after which a request's head has been read if ``scope`` changed)."""
    if getattr(cls, "_bl_deadline_installed", False):
        return
    made, lost = cls.connection_made, cls.connection_lost
    complete, handle = cls.on_response_complete, getattr(cls, head_done)

    def connection_made(self: Any, transport: Any) -> None:
        made(self, transport)
        _arm(self)

    def connection_lost(self: Any, exc: Exception | None) -> None:
        _disarm(self)
        lost(self, exc)

    def on_response_complete(self: Any) -> None:
        # armed first: a pipelined request's head, read within, disarms it again
        _arm(self)
        complete(self)
        if self.transport.is_closing():
            _disarm(self)

    def head_read(self: Any, *args: Any) -> Any:
        before = self.scope
        out = handle(self, *args)
        if self.scope is not before:  # a request's head (or a websocket's) has arrived
            _disarm(self)
        return out

    cls.connection_made = connection_made
    cls.connection_lost = connection_lost
    cls.on_response_complete = on_response_complete
    setattr(cls, head_done, head_read)
    cls._bl_deadline_installed = True


def install() -> list[str]:
    """Give uvicorn's HTTP/1.1 protocols the head deadline (once; later calls do nothing).
    The names of the protocols it was given to."""
    done = []
    from uvicorn.protocols.http.h11_impl import H11Protocol

    _patch(H11Protocol, "handle_events")
    done.append("h11")
    try:  # uvicorn prefers httptools where it is installed (it is not a dependency here)
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return done
    _patch(HttpToolsProtocol, "on_headers_complete")
    done.append("httptools")
    return done
