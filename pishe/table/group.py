"""The no-peek deal's cryptography, from well-kept libraries: the prime-order group
ristretto255, and ed25519 signatures of every page's messages.

Nothing here does arithmetic of its own. :class:`Group` is the one small interface
the deal (:mod:`pishe.table.nopeek`) uses, on bytes only, so that every backend gives
the same bytes for the same inputs:

- under CPython, :class:`SodiumGroup`: libsodium (``crypto_core_ristretto255_*`` and
  ``crypto_scalarmult_ristretto255``), Debian's ``libsodium23``, through ``ctypes``
  (PyNaCl bundles libsodium but does not expose its ristretto255 functions);
- under Pyodide, :class:`NobleGroup`: ``@noble/curves`` (audited) in the page's
  worker, through ``web/core/group.js``.

Points and scalars are 32 bytes, in RFC 9496's encoding and little-endian. A card's
point is RFC 9496's element derivation of 64 uniform bytes (libsodium's
``crypto_core_ristretto255_from_hash``, noble's ``ristretto255_hasher.deriveToCurve``);
a scalar is 64 bytes reduced modulo the group's order ℓ. A page signs its messages with
ed25519 (RFC 8032) from a 32-byte seed: libsodium's ``crypto_sign_seed_keypair``,
``crypto_sign_detached`` and ``crypto_sign_verify_detached``, noble's ``ed25519``
(verified strictly, as RFC 8032 and libsodium do: ``zip215: false``).
``tests/test_nopeek.py`` checks that both backends give identical bytes.
"""

from __future__ import annotations

import sys
from typing import Sequence

from ..errors import PisheError

__all__ = ["Group", "GroupError", "SodiumGroup", "NobleGroup", "group"]

#: Bytes of an encoded point or scalar (and of an ed25519 seed or public key).
SIZE = 32
#: Bytes of an ed25519 signature.
SIGNATURE = 64


class GroupError(PisheError, ValueError):
    """Bytes that are not a valid point or scalar, or a product that is the identity."""


class Group:
    """ristretto255 on bytes: what the no-peek deal needs of a group, and nothing more."""

    def __reduce__(self):
        # The backend is this interpreter's, not data: a copy or a pickle of a page's state
        # (tests compare them) holds the one backend, made again by :func:`group`.
        return group, ()

    def card_point(self, uniform: bytes) -> bytes:
        """The point RFC 9496 derives from 64 uniform bytes (a card's public point)."""
        raise NotImplementedError

    def scalar(self, wide: bytes) -> bytes:
        """64 bytes reduced modulo ℓ: a secret scalar drawn from a hash."""
        raise NotImplementedError

    def invert(self, scalar: bytes) -> bytes:
        """The scalar's inverse modulo ℓ (a lock taken off)."""
        raise NotImplementedError

    def times(self, a: bytes, b: bytes) -> bytes:
        """The product of two scalars modulo ℓ."""
        raise NotImplementedError

    def base(self, scalar: bytes) -> bytes:
        """``scalar`` times the group's generator (a public key)."""
        raise NotImplementedError

    def multiply(self, scalar: bytes, point: bytes) -> bytes:
        """``scalar`` times ``point``; :class:`GroupError` for bytes that are not a point."""
        raise NotImplementedError

    def sign_public(self, seed: bytes) -> bytes:
        """The ed25519 public key of the 32-byte ``seed`` (a page's signing key for a deal)."""
        raise NotImplementedError

    def sign(self, seed: bytes, message: bytes) -> bytes:
        """The ed25519 signature (64 bytes) of ``message`` by the key of ``seed``."""
        raise NotImplementedError

    def verify(self, public: bytes, message: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is ``public``'s ed25519 signature of ``message`` (``False``
        for bytes that are no key or no signature, never an error)."""
        raise NotImplementedError

    # Whole decks at once: a backend across a language boundary (noble under Pyodide) makes
    # one call of each, not 52.

    def scalar_each(self, wides: Sequence[bytes]) -> list:
        """:meth:`scalar` of each of ``wides``."""
        return [self.scalar(w) for w in wides]

    def times_each(self, a: Sequence[bytes], b: Sequence[bytes]) -> list:
        """:meth:`times` of ``a[i]`` and ``b[i]`` for every ``i``."""
        return [self.times(x, y) for x, y in zip(a, b, strict=True)]

    def multiply_each(self, scalars: Sequence[bytes], points: Sequence[bytes]) -> list:
        """``scalars[i]`` times ``points[i]`` for every ``i``."""
        return [self.multiply(s, p) for s, p in zip(scalars, points, strict=True)]


class SodiumGroup(Group):
    """libsodium's ristretto255 (CPython), through ``ctypes``."""

    def __init__(self, path: str | None = None):
        import ctypes  # noqa: PLC0415 (CPython only: the page's worker never loads it)
        import ctypes.util  # noqa: PLC0415

        found = path or ctypes.util.find_library("sodium")
        if not found:
            raise GroupError("libsodium is not installed (Debian: apt-get install libsodium23)")
        lib = ctypes.CDLL(found)
        if lib.sodium_init() < 0:
            raise GroupError("libsodium could not start")
        self._lib = lib
        self._buffer = ctypes.create_string_buffer

    def _call(self, name: str, *args) -> bytes:
        out = self._buffer(SIZE)
        for arg in args:
            if not isinstance(arg, bytes):
                raise GroupError(f"{name}: bytes expected, not {type(arg).__name__}")
        if getattr(self._lib, name)(out, *args) != 0:
            raise GroupError(f"{name}: not a valid point, or the product is the identity")
        return out.raw

    def card_point(self, uniform: bytes) -> bytes:
        _length(uniform, 64)
        return self._call("crypto_core_ristretto255_from_hash", uniform)

    def scalar(self, wide: bytes) -> bytes:
        _length(wide, 64)
        out = self._buffer(SIZE)
        self._lib.crypto_core_ristretto255_scalar_reduce(out, wide)
        return out.raw

    def invert(self, scalar: bytes) -> bytes:
        return self._call("crypto_core_ristretto255_scalar_invert", _length(scalar, SIZE))

    def times(self, a: bytes, b: bytes) -> bytes:
        out = self._buffer(SIZE)
        self._lib.crypto_core_ristretto255_scalar_mul(out, _length(a, SIZE), _length(b, SIZE))
        return out.raw

    def base(self, scalar: bytes) -> bytes:
        return self._call("crypto_scalarmult_ristretto255_base", _length(scalar, SIZE))

    def multiply(self, scalar: bytes, point: bytes) -> bytes:
        return self._call("crypto_scalarmult_ristretto255", _length(scalar, SIZE), _length(point, SIZE))

    def _keypair(self, seed: bytes) -> tuple:
        public, secret = self._buffer(SIZE), self._buffer(2 * SIZE)
        self._lib.crypto_sign_seed_keypair(public, secret, _length(seed, SIZE))
        return public.raw, secret

    def sign_public(self, seed: bytes) -> bytes:
        return self._keypair(seed)[0]

    def sign(self, seed: bytes, message: bytes) -> bytes:
        import ctypes  # noqa: PLC0415 (CPython only)

        _public, secret = self._keypair(seed)
        out = self._buffer(SIGNATURE)
        self._lib.crypto_sign_detached(out, None, _bytes(message), ctypes.c_ulonglong(len(message)), secret)
        return out.raw

    def verify(self, public: bytes, message: bytes, signature: bytes) -> bool:
        import ctypes  # noqa: PLC0415 (CPython only)

        if not _fits(public, SIZE) or not _fits(signature, SIGNATURE) or not isinstance(message, bytes):
            return False
        return self._lib.crypto_sign_verify_detached(signature, message, ctypes.c_ulonglong(len(message)),
                                                     public) == 0


class NobleGroup(Group):
    """``@noble/curves``' ristretto255 in the page's worker (Pyodide), through the functions
    ``web/core/group.js`` exports (passed in as ``js``: that module's namespace)."""

    def __init__(self, js):
        self._js = js

    def _call(self, name: str, *args):
        from pyodide.ffi import JsException, to_js  # only under Pyodide

        try:
            result = getattr(self._js, name)(*(to_js(a) for a in args))
        except JsException as e:
            raise GroupError(f"{name}: {e}") from None
        return result

    def card_point(self, uniform: bytes) -> bytes:
        return self._call("cardPoint", _length(uniform, 64)).to_bytes()

    def scalar(self, wide: bytes) -> bytes:
        return self._call("scalar", _length(wide, 64)).to_bytes()

    def invert(self, scalar: bytes) -> bytes:
        return self._call("invert", _length(scalar, SIZE)).to_bytes()

    def times(self, a: bytes, b: bytes) -> bytes:
        return self._call("times", _length(a, SIZE), _length(b, SIZE)).to_bytes()

    def base(self, scalar: bytes) -> bytes:
        return self._call("base", _length(scalar, SIZE)).to_bytes()

    def multiply(self, scalar: bytes, point: bytes) -> bytes:
        return self._call("multiply", _length(scalar, SIZE), _length(point, SIZE)).to_bytes()

    def sign_public(self, seed: bytes) -> bytes:
        return self._call("signPublic", _length(seed, SIZE)).to_bytes()

    def sign(self, seed: bytes, message: bytes) -> bytes:
        return self._call("sign", _length(seed, SIZE), _bytes(message)).to_bytes()

    def verify(self, public: bytes, message: bytes, signature: bytes) -> bool:
        if not _fits(public, SIZE) or not _fits(signature, SIGNATURE) or not isinstance(message, bytes):
            return False
        return bool(self._call("verify", public, message, signature))

    def _each(self, name: str, size: int, *columns: Sequence[bytes]) -> list:
        if len({len(c) for c in columns}) != 1:
            raise GroupError(f"{name}: lists of one length expected")
        joined = self._call(name, *(b"".join(_length(v, size) for v in c) for c in columns)).to_bytes()
        return [joined[i:i + SIZE] for i in range(0, len(joined), SIZE)]

    def scalar_each(self, wides: Sequence[bytes]) -> list:
        return self._each("scalarEach", 64, wides)

    def times_each(self, a: Sequence[bytes], b: Sequence[bytes]) -> list:
        return self._each("timesEach", SIZE, a, b)

    def multiply_each(self, scalars: Sequence[bytes], points: Sequence[bytes]) -> list:
        return self._each("multiplyEach", SIZE, scalars, points)


def _fits(value, size: int) -> bool:
    return isinstance(value, bytes) and len(value) == size


def _length(value, size: int) -> bytes:
    if not _fits(value, size):
        raise GroupError(f"{size} bytes expected")
    return value


def _bytes(value) -> bytes:
    if not isinstance(value, bytes):
        raise GroupError("bytes expected")
    return value


_GROUP: Group | None = None


def group() -> Group:
    """This interpreter's backend, made once: noble in the page's worker under Pyodide (its
    ``group.js`` module set as ``globalThis.pisheGroup``), libsodium under CPython."""
    global _GROUP
    if _GROUP is None:
        if sys.platform == "emscripten":
            import js  # noqa: PLC0415 (only under Pyodide)

            _GROUP = NobleGroup(js.pisheGroup)
        else:
            _GROUP = SodiumGroup()
    return _GROUP
