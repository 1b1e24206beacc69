#!/usr/bin/env python3
"""comm-downgrade.py LOG...: rewrites comm logs of version 6 in place as
version 5 (the receive filters' kind byte bits cleared, the version
patched), for tests of how a version 5 log is read.  Layouts as in
docs/FORMATS.md section 2.4."""
import struct
import sys

SIX = {1, 2, 3, 4, 5, 7, 11, 12, 14}  # the message layout: 6 varints


def varint(d, i):
    v = s = 0
    while True:
        b = d[i]
        i += 1
        v |= (b & 0x7f) << s
        s += 7
        if not b & 0x80:
            return v, i


def skip(d, i, n):
    for _ in range(n):
        i = varint(d, i)[1]
    return i


def string(d, i):
    n, i = varint(d, i)
    return i + n


def downgrade(path):
    d = bytearray(open(path, 'rb').read())
    if struct.unpack_from('<I', d, 8)[0] != 6:
        sys.exit(f'{path}: not a version 6 comm log')
    i = struct.unpack_from('<I', d, 12)[0]
    while i < len(d) and d[i]:
        d[i] &= 0x1f
        k = d[i]
        i += 1
        if k in SIX:
            i = skip(d, i, 6)
        elif k == 6 or k == 16:
            i = skip(d, i, 3)
        elif k == 8:
            i = skip(d, i, 2)
        elif k == 17:
            i = skip(d, i, 1)
        elif k in (9, 10):
            if k == 10:
                i = string(d, i)
            i = skip(d, i, 5)
            n, i = varint(d, i)
            i = skip(d, i, n)
        elif k == 13:
            i = string(d, skip(d, i, 1))
            i = skip(d, i, 4)
        elif k == 15:
            i = string(d, skip(d, i, 5))
            n, i = varint(d, i)
            i = skip(d, i + n, 2)
        else:
            sys.exit(f'{path}: unknown kind {k} at {i - 1}')
    struct.pack_into('<I', d, 8, 5)
    open(path, 'wb').write(d)


for p in sys.argv[1:]:
    downgrade(p)
