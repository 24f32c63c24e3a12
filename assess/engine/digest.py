"""The SHA-256 of an out-of-core input, so its report names exactly what was assessed (ISO/IEC TS 4213 clause 8).

One file: the SHA-256 of its bytes — the digest the in-memory reader records (`assess.inputs.read`), so the same file gets
the same digest on either path. A directory or a glob of parts: one SHA-256 over every part in sorted path order,
each contributing its path relative to the parts' common folder (UTF-8), a NUL byte, its size as 8 big-endian bytes
and then its bytes — renaming, reordering, adding or changing a part changes the digest. Read in 1 MiB chunks
(bounded memory); it is one more read of the files, at the disk's speed, and only the report asks for it.
"""

from __future__ import annotations

import hashlib
import os

CHUNK = 1 << 20


def source_sha256(source) -> str:
    """The digest of ``source`` (`assess.engine.source.Source`) by the rule of the module docstring."""
    files = sorted(source.files)
    digest = hashlib.sha256()
    single = len(files) == 1 and os.path.isfile(source.name)
    base = os.path.commonpath([os.path.dirname(os.path.abspath(f)) for f in files]) if not single else ""
    for path in files:
        if not single:
            digest.update(os.path.relpath(os.path.abspath(path), base).encode("utf-8") + b"\0")
            digest.update(os.path.getsize(path).to_bytes(8, "big"))
        with open(path, "rb") as fh:
            while chunk := fh.read(CHUNK):
                digest.update(chunk)
    return digest.hexdigest()


def describe_digest(source) -> str | None:
    """The report's sentence on how a multi-part digest was formed (None for one file: the usual digest)."""
    if len(source.files) == 1 and os.path.isfile(source.name):
        return None
    return (f"The SHA-256 covers the {len(source.files):,} parts in sorted path order: for each, its path relative to "
            "their common folder, a NUL byte, its size (8 bytes, big-endian) and its bytes.")
