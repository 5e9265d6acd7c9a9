#!/usr/bin/env python3
"""Writes hostile and damaged `.ncu-rep` reports, made from a real one, to a
directory: cut, zeroed, lengths and counts set to 0, -1, 2^31 and off by one,
string tables removed, metric name indexes past the table, a 2 GB sparse file,
xz streams truncated, followed by garbage, and an xz bomb.

    python3 scripts/hostile.py REPORT.ncu-rep[.xz] OUT_DIR

Each file's name says what was done to it. tests/hostile.rs runs ncu-lint on
every one; bench/hostile.py times them and measures their memory.
"""
import lzma
import os
import struct
import sys


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def enc_varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        c = n & 0x7F
        n >>= 7
        if n:
            out.append(c | 0x80)
        else:
            out.append(c)
            return bytes(out)


def fields(b):
    """(field, wire type, value or bytes) of a protobuf message."""
    i, out = 0, []
    while i < len(b):
        key, i = varint(b, i)
        f, t = key >> 3, key & 7
        if t == 0:
            v, i = varint(b, i)
        elif t == 1:
            v, i = b[i:i + 8], i + 8
        elif t == 5:
            v, i = b[i:i + 4], i + 4
        elif t == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise ValueError(t)
        out.append((f, t, v))
    return out


def encode(fs):
    out = bytearray()
    for f, t, v in fs:
        out += enc_varint(f << 3 | t)
        if t == 0:
            out += enc_varint(v)
        elif t == 2:
            out += enc_varint(len(v)) + bytes(v)
        else:
            out += bytes(v)
    return bytes(out)


def blocks(data):
    """The file header's end, then each block: (offset, header bytes, payload bytes)."""
    n = struct.unpack("<I", data[4:8])[0]
    i = 8 + n
    first = i
    out = []
    while i < len(data):
        n = struct.unpack("<I", data[i:i + 4])[0]
        header = data[i + 4:i + 4 + n]
        size = dict((f, v) for f, t, v in fields(header)).get(5, 0)
        out.append((i, header, data[i + 4 + n:i + 4 + n + size]))
        i += 4 + n + size
    return first, out


def rebuild(data, edit_header=lambda h: h, edit_payload=lambda h, p: p):
    first, bl = blocks(data)
    out = bytearray(data[:first])
    for _, header, payload in bl:
        payload = edit_payload(header, payload)
        fs = [(f, t, v) for f, t, v in fields(edit_header(header)) if f != 5]
        fs.append((5, 0, len(payload)))
        h = encode(fs)
        out += struct.pack("<I", len(h)) + h + payload
    return bytes(out)


def messages(payload):
    i, out = 0, []
    while i + 4 <= len(payload):
        n = struct.unpack("<I", payload[i:i + 4])[0]
        out.append(payload[i + 4:i + 4 + n])
        i += 4 + n
    return out


def frame(msgs):
    return b"".join(struct.pack("<I", len(m)) + m for m in msgs)


def set_header(field, value):
    def edit(h):
        fs = [(f, t, v) for f, t, v in fields(h) if f != field]
        if value is not None:
            fs.append((field, 0, value))
        return encode(fs)
    return edit


def drop_field(field):
    return lambda h: encode([(f, t, v) for f, t, v in fields(h) if f != field])


def huge_name_index(index):
    """Every kernel result's first metric named by `index`."""
    def edit(header, payload):
        hf = dict((f, v) for f, t, v in fields(header))
        sources = hf.get(1, 0)
        msgs = messages(payload)
        for k in range(sources, min(len(msgs), sources + hf.get(2, 0))):
            fs = fields(msgs[k])
            for j, (f, t, v) in enumerate(fs):
                if f == 13:
                    metric = [(1, 0, index) if mf == 1 else (mf, mt, mv) for mf, mt, mv in fields(v)]
                    fs[j] = (f, t, encode(metric))
                    break
            msgs[k] = encode(fs)
        return frame(msgs)
    return edit


def main():
    source, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    raw = open(source, "rb").read()
    data = lzma.decompress(raw) if raw.startswith(b"\xfd7zXZ") else raw
    first, bl = blocks(data)
    results_at = [o for o, h, p in bl if dict((f, v) for f, t, v in fields(h)).get(2, 0)]
    result_block = results_at[0]

    def write(name, content):
        with open(os.path.join(out, name), "wb") as f:
            f.write(content)

    def at(offset, value, content=data):
        return content[:offset] + struct.pack("<I", value & 0xFFFFFFFF) + content[offset + 4:]

    write("cut-after-header.ncu-rep", data[:first])
    write("cut-inside-header.ncu-rep", data[:first - 1])
    for share in (1, 3, 5, 7, 9):
        write(f"cut-at-{share}-tenths.ncu-rep", data[:len(data) * share // 10])
    write("zeros-after-header.ncu-rep", data[:first] + bytes(1 << 20))
    for name, value in (("0", 0), ("minus-1", -1), ("2-pow-31", 1 << 31), ("off-by-plus-1", None), ("off-by-minus-1", None)):
        length = struct.unpack("<I", data[result_block:result_block + 4])[0]
        v = value if value is not None else length + (1 if "plus" in name else -1)
        write(f"block-header-length-{name}.ncu-rep", at(result_block, v))
        # The first message of the first block with results.
        msg = result_block + 4 + length
        mlen = struct.unpack("<I", data[msg:msg + 4])[0]
        v = value if value is not None else mlen + (1 if "plus" in name else -1)
        write(f"message-length-{name}.ncu-rep", at(msg, v))
    write("result-counts-zero.ncu-rep", rebuild(data, set_header(2, 0)))
    write("source-counts-huge.ncu-rep", rebuild(data, set_header(1, 1 << 40)))
    write("range-results-on-every-block.ncu-rep", rebuild(data, set_header(7, 3)))
    write("string-tables-removed.ncu-rep", rebuild(data, drop_field(4)))
    write("payload-size-zero.ncu-rep", rebuild(data, edit_payload=lambda h, p: b""))
    for name, index in (("2-pow-32-minus-1", (1 << 32) - 1), ("2-pow-40", 1 << 40), ("2-pow-62", 1 << 62), ("2-pow-64-minus-1", (1 << 64) - 1)):
        write(f"metric-name-index-{name}.ncu-rep", rebuild(data, edit_payload=huge_name_index(index)))
    write("zero-length-result.ncu-rep", rebuild(data, edit_payload=lambda h, p: (
        frame(messages(p)[:dict((f, v) for f, t, v in fields(h)).get(1, 0)] + [b""] + messages(p)[dict((f, v) for f, t, v in fields(h)).get(1, 0) + 1:])
        if dict((f, v) for f, t, v in fields(h)).get(2, 0) else p)))
    write("magic-damaged.ncu-rep", b"NVX\0" + data[4:])
    write("trailing-garbage.ncu-rep", data + b"\x07garbage" * 64)
    write("empty.ncu-rep", b"")
    for seed in range(4):
        flipped = bytearray(data)
        for k in range(16):
            flipped[(seed * 7919 + k * 104729) % len(data)] ^= 0xA5
        write(f"flipped-{seed}.ncu-rep", bytes(flipped))
    # A 2 GB file: a valid header, then zeros (sparse on disk).
    with open(os.path.join(out, "sparse-2gb.ncu-rep"), "wb") as f:
        f.write(data[:first])
        f.truncate(2 << 30)
    compressed = lzma.compress(data, preset=0)
    write("xz-truncated.ncu-rep.xz", compressed[: len(compressed) // 2])
    write("xz-trailing-garbage.ncu-rep.xz", compressed + b"garbage" * 16)
    # An xz bomb: a valid header, then 1 GiB of zeros, compressed.
    bomb = lzma.LZMACompressor(preset=0)
    chunks = [bomb.compress(data[:first])]
    zeros = bytes(64 << 20)
    for _ in range(16):
        chunks.append(bomb.compress(zeros))
    chunks.append(bomb.flush())
    write("xz-bomb-1gb.ncu-rep.xz", b"".join(chunks))


if __name__ == "__main__":
    main()
