"""Admitted followers (issue 40, item 2): the server gives each follower its id when it joins.

A follower's id was made by its own page, so a script could make up as many as it liked: one
address cast 499 of 500 answers in half a second and filled every split, and twenty made-up
streams raised "following" by twenty. Now the id comes from the class
(``POST /api/class/<code>/join``), signed with the store's secret and bound to the class's
code: a stream, an answer or a split under any other id counts for nothing. The joins
themselves are budgeted per client address and per class (:class:`~server.store.Limits`),
so the ids one address can hold are bounded too, while a whole class behind one school
address still fits.

The signature is an HMAC-SHA256 (:mod:`hmac`, stdlib) of the code and a random nonce: the
store keeps no list of ids (a hall's processes share the secret through Redis; a process's
own store makes one at start), and checking an id costs one hash.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from typing import Any

#: Every admitted id starts with this (a page's own ids of before were "s-…").
PREFIX = "f-"
#: Hex digits of the nonce (64 bits: ids of one class never collide) and of the signature
#: (96 bits: guessing one is hopeless).
NONCE_HEX = 16
SIGNATURE_HEX = 24


class Tickets:
    """Issues and checks followers' ids with one secret.

    >>> tickets = Tickets(b"k" * 32)
    >>> sid = tickets.issue("ABCDEF")
    >>> tickets.valid("ABCDEF", sid), tickets.valid("ABCDEG", sid)
    (True, False)
    >>> tickets.valid("ABCDEF", sid[:-1] + ("0" if sid[-1] != "0" else "1"))
    False
    """

    def __init__(self, secret: bytes) -> None:
        if not isinstance(secret, bytes) or len(secret) < 16:
            raise ValueError(f"secret must be at least 16 bytes; got {len(secret)!r}")
        self._secret = secret

    def _sign(self, code: str, nonce: str) -> str:
        mac = hmac.new(self._secret, f"{code}:{nonce}".encode(), hashlib.sha256)
        return mac.hexdigest()[:SIGNATURE_HEX]

    def issue(self, code: str) -> str:
        """A new follower's id for the class ``code`` (as the store keeps it)."""
        nonce = secrets.token_hex(NONCE_HEX // 2)
        return f"{PREFIX}{nonce}-{self._sign(code, nonce)}"

    def valid(self, code: str, student: object) -> bool:
        """Whether ``student`` is an id this secret issued for ``code``."""
        if not isinstance(student, str) or not student.startswith(PREFIX):
            return False
        nonce, _, signature = student[len(PREFIX) :].partition("-")
        if len(nonce) != NONCE_HEX or len(signature) != SIGNATURE_HEX:
            return False
        return hmac.compare_digest(signature, self._sign(code, nonce))


def new_secret() -> bytes:
    """A secret for :class:`Tickets` (256 bits from :mod:`secrets`)."""
    return secrets.token_bytes(32)


def address_joins_full(code: str, n: int) -> str:
    """The refusal when one address has joined class ``code`` ``n`` times, its budget."""
    return (
        f"This network address has joined class {code} {n} times, its limit "
        "(BOOSTLAB_MAX_JOINS_PER_ADDRESS): a page that joined before keeps its place; "
        "reload a page that lost it."
    )


def class_joins_full(code: str, n: int) -> str:
    """The refusal when class ``code`` has admitted ``n`` followers, its budget."""
    return (
        f"Class {code} has admitted {n} followers, its limit (BOOSTLAB_MAX_JOINS_PER_CLASS): "
        "ask your teacher to open a new class."
    )


def not_admitted(code: str) -> str:
    """The refusal of an id the class did not give (made up, or another class's)."""
    return (
        f"This page's place in class {code} was not given by the class (or by another class): "
        "reload the page to join again."
    )


#: Peers whose ``X-Forwarded-For`` is believed: this machine (the hall's HAProxy, a local
#: reverse proxy). Anyone else's header is ignored (a client could write any address there).
TRUSTED_PROXIES = frozenset({"127.0.0.1", "::1"})


def client_address(peer: str, forwarded: str, trusted: frozenset[str] = TRUSTED_PROXIES) -> str:
    """Who asks: the address the trusted proxy in front saw (the last entry of
    ``X-Forwarded-For``, the one it added) when ``peer`` is one of ``trusted``, else the peer.

    >>> client_address("127.0.0.1", "10.0.0.7, 192.168.1.9", frozenset({"127.0.0.1"}))
    '192.168.1.9'
    >>> client_address("10.1.1.1", "1.2.3.4", frozenset({"127.0.0.1"}))
    '10.1.1.1'
    """
    if peer in trusted and forwarded.strip():
        return forwarded.split(",")[-1].strip()[:64]
    return peer[:64]


#: Wrong class codes a client may try in a minute before it waits (the routes' and the pages'
#: throttles). A whole class may share one address (a school's network, a proxy): 30 leaves
#: room for typos, while guessing one of 50 open classes among 31^6 codes at 30 a minute
#: would take about a year.
FREE_MISSES = 30


class Throttle:
    """Slows down a client that tries wrong class codes: after ``free`` misses within
    ``window`` seconds, each further try from it waits (``delay``) and is refused until the
    window has passed. Keyed by the client's address (the routes and the pages).

    The misses are counted in this process, or, once :meth:`share` is called, where a
    hall's processes all count them (Redis: each process counted apart, N × 30 a minute,
    issue 40, item 8). The routes call the ``_async`` methods (no wait on the event loop)."""

    def __init__(self, free: int = 5, window: float = 60.0, clock=time.monotonic) -> None:
        self.free, self.window, self._clock = free, window, clock
        self._misses: dict[str, list[float]] = {}
        self._lock = threading.Lock()
        self._shared: Any = None

    def share(self, shared: Any) -> None:
        """Count the misses in ``shared`` from now on (an object with this class's four
        methods: ``RedisStore.misses``); None counts them here again."""
        self._shared = shared

    def blocked(self, who: str) -> float:
        """Seconds until ``who`` may try again (0: now)."""
        if self._shared is not None:
            return self._shared.blocked(who)
        now = self._clock()
        with self._lock:
            recent = [t for t in self._misses.get(who, ()) if now - t < self.window]
            self._misses[who] = recent
            if len(recent) < self.free:
                return 0.0
            return self.window - (now - recent[-self.free])

    def miss(self, who: str) -> None:
        if self._shared is not None:
            self._shared.miss(who)
            return
        with self._lock:
            self._misses.setdefault(who, []).append(self._clock())
            if len(self._misses) > 10_000:  # forget the oldest clients
                for old in list(self._misses)[:5000]:
                    del self._misses[old]

    async def blocked_async(self, who: str) -> float:
        if self._shared is not None:
            return await self._shared.blocked_async(who)
        return self.blocked(who)

    async def miss_async(self, who: str) -> None:
        if self._shared is not None:
            await self._shared.miss_async(who)
        else:
            self.miss(who)


#: The process's one throttle of wrong class codes, for its pages and its routes alike,
#: keyed by the client's address as :func:`client_address` tells it (each counted wrong codes
#: apart: 2 × 30 a minute, and more with a hall's processes; issue 40, item 8); in a hall,
#: shared through Redis by all its processes (``routes.lifespan``).
THROTTLE = Throttle(free=FREE_MISSES)
