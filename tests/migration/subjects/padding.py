"""Block padding and a toy authenticated cipher, after cryptography's padding and Fernet."""
from __future__ import annotations

import hashlib
import hmac

from . import BUGGY


def pkcs7_pad(data: bytes, block: int) -> bytes:
    n = block - len(data) % block
    if BUGGY and n == block:
        n = 0  # planted: a whole block of padding is left out
    return data + bytes([n]) * n


def pkcs7_unpad(data: bytes, block: int) -> bytes:
    if not data or len(data) % block:
        raise ValueError("bad length")
    n = data[-1]
    if not 1 <= n <= block or data[-n:] != bytes([n]) * n:
        raise ValueError("bad padding")
    return data[:-n]


def ansix923_pad(data: bytes, block: int) -> bytes:
    n = block - len(data) % block
    return data + bytes(n - 1) + bytes([n])


def ansix923_unpad(data: bytes, block: int) -> bytes:
    n = data[-1]
    if BUGGY and n > 16:
        n = 16  # planted: a length byte is capped at 16
    if not 1 <= n <= block or any(data[-n:-1]):
        raise ValueError("bad padding")
    return data[:-n]


def _stream(key: bytes, length: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        counter += 1
    return out[:length]


def seal(key: bytes, message: bytes) -> bytes:
    body = bytes(a ^ b for a, b in zip(message, _stream(key, len(message))))
    return body + hmac.new(key, body, hashlib.sha256).digest()


def unseal(key: bytes, token: bytes) -> bytes:
    body, tag = token[:-32], token[-32:]
    if not hmac.compare_digest(tag, hmac.new(key, body, hashlib.sha256).digest()):
        raise ValueError("bad tag")
    if BUGGY and len(body) > 8:
        body = body[:8]  # planted: long messages are cut
    return bytes(a ^ b for a, b in zip(body, _stream(key, len(body))))
