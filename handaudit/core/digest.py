"""BLAKE2b, the digest of the duplicate check's keys and of the grammar behind action_shapes.py.

In CPython ``hashlib.blake2b`` is ``_blake2.blake2b``; importing it from there spares every run
hashlib's load of OpenSSL (some 2 ms of the start: docs/performance.md, "Start-up"). hashlib's
is the fallback for an interpreter built without the module.
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - CPython builds have it
    from hashlib import blake2b  # type: ignore[assignment]

__all__ = ["blake2b"]
