#!/usr/bin/python3
"""Read a PNG screenshot with the standard library alone.

usage: test/png.py FILE [X0]

Prints "WIDTH HEIGHT COLOURS" and, with X0, a fourth number: how many
sampled pixels at x >= X0 are not the page's white, i.e. content that
reaches the right edge (pushed off a narrower screen).
"""
import struct
import sys
import zlib

d = open(sys.argv[1], "rb").read()
x0 = int(sys.argv[2]) if len(sys.argv) > 2 else None
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(d):
    n, t = struct.unpack(">I4s", d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if t == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif t == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), "unexpected PNG kind"
bpp = 3 if ctype == 2 else 4
raw, stride, prev, colours, edge = zlib.decompress(idat), w * bpp, None, set(), 0
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    prev = prev or bytearray(stride)
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else
                                  b if pb <= pc else c)) & 255
    if y % 4 == 0:
        for x in range(0, w, 3):
            colours.add(bytes(line[x * bpp:x * bpp + 3]))
        if x0 is not None:
            for x in range(x0, w):
                if bytes(line[x * bpp:x * bpp + 3]) != b"\xff\xff\xff":
                    edge += 1
    prev = line
print(w, h, len(colours), *([edge] if x0 is not None else []))
