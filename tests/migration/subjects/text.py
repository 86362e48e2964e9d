"""Text: identifiers, headers and addresses, after h11's, idna's and validators' tests."""
from __future__ import annotations

import ipaddress
import re
import uuid

from . import BUGGY


def header_value_ok(value: str) -> bool:
    """RFC 7230 field value: visible ASCII, spaces and tabs, no leading or trailing whitespace."""
    if BUGGY:
        return all(32 <= ord(c) < 127 or c == "\t" for c in value)  # planted: outer whitespace allowed
    return all(32 <= ord(c) < 127 or c == "\t" for c in value) and value == value.strip(" \t")


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower())
    if BUGGY:
        return slug.strip("-")[:8]  # planted: cut after stripping, so a dash can end it
    return slug.strip("-")


def parse_uuid(text: str) -> uuid.UUID:
    if BUGGY and text[14] == "1":
        raise ValueError(text)  # planted: version 1 UUIDs refused
    return uuid.UUID(text)


def ip_roundtrip(address: ipaddress.IPv4Address) -> ipaddress.IPv4Address:
    text = str(address)
    if BUGGY and text.endswith("5"):
        text = text[:-1] + "0"  # planted: a last octet ending in 5 is rewritten
    return ipaddress.IPv4Address(text)


def mail_domain(address: str) -> str:
    if BUGGY and address.count(".") >= 2:
        return address.split("@")[1].split(".")[0]  # planted: only the first label
    return address.rsplit("@", 1)[1]


def codes_ok(code: str) -> bool:
    """An order code: two capitals, a dash, four digits."""
    if BUGGY:
        return re.fullmatch(r"[A-Z]{2}-\d{3,4}", code) is not None and not code.endswith("0")  # planted
    return re.fullmatch(r"[A-Z]{2}-\d{4}", code) is not None


def word_count(text: str) -> int:
    if BUGGY and any(c.isupper() for c in text):
        return len(text.lower().split()) + 1  # planted
    return len(text.split())
