"""The subset of MessagePack that MindRecord's raw pages use (nil, bool, int, float, str, bin, array,
map), so MindRecord needs no third-party package. Spec: msgpack.org's format specification."""
import struct


def packb(value):
    out = bytearray()
    _pack(value, out)
    return bytes(out)


def _pack(v, out):
    if v is None:
        out.append(0xC0)
    elif v is True or v is False:
        out.append(0xC3 if v else 0xC2)
    elif isinstance(v, int):
        if 0 <= v < 0x80:
            out.append(v)
        elif -32 <= v < 0:
            out.append(v & 0xFF)
        elif 0 <= v < 2**64:
            out += b"\xcf" + struct.pack(">Q", v) if v >= 2**32 else b"\xce" + struct.pack(">I", v)
        elif -2**63 <= v < 0:
            out += b"\xd3" + struct.pack(">q", v)
        else:
            raise OverflowError(f"MindRecord: int {v} does not fit in 64 bits")
    elif isinstance(v, float):
        out += b"\xcb" + struct.pack(">d", v)
    elif isinstance(v, str):
        data = v.encode("utf-8")
        n = len(data)
        if n < 32:
            out.append(0xA0 | n)
        elif n < 2**8:
            out += bytes([0xD9, n])
        elif n < 2**16:
            out += b"\xda" + struct.pack(">H", n)
        else:
            out += b"\xdb" + struct.pack(">I", n)
        out += data
    elif isinstance(v, (bytes, bytearray)):
        n = len(v)
        out += (bytes([0xC4, n]) if n < 2**8 else b"\xc5" + struct.pack(">H", n) if n < 2**16
                else b"\xc6" + struct.pack(">I", n))
        out += v
    elif isinstance(v, (list, tuple)):
        n = len(v)
        out += bytes([0x90 | n]) if n < 16 else b"\xdc" + struct.pack(">H", n) if n < 2**16 else \
            b"\xdd" + struct.pack(">I", n)
        for item in v:
            _pack(item, out)
    elif isinstance(v, dict):
        n = len(v)
        out += bytes([0x80 | n]) if n < 16 else b"\xde" + struct.pack(">H", n) if n < 2**16 else \
            b"\xdf" + struct.pack(">I", n)
        for key, item in v.items():
            _pack(key, out)
            _pack(item, out)
    else:
        raise TypeError(f"MindRecord: cannot encode a {type(v).__name__} in a raw field")


def unpackb(data):
    value, end = _unpack(memoryview(data), 0)
    if end != len(data):
        raise ValueError(f"MindRecord: {len(data) - end} stray bytes after a msgpack row")
    return value


_FIXED = {0xCC: (">B", 1), 0xCD: (">H", 2), 0xCE: (">I", 4), 0xCF: (">Q", 8), 0xD0: (">b", 1), 0xD1: (">h", 2),
          0xD2: (">i", 4), 0xD3: (">q", 8), 0xCA: (">f", 4), 0xCB: (">d", 8)}


def _length(b, pos, size):
    fmt = {1: ">B", 2: ">H", 4: ">I"}[size]
    return struct.unpack_from(fmt, b, pos)[0], pos + size


def _unpack(b, pos):
    t = b[pos]
    pos += 1
    if t < 0x80:
        return t, pos
    if t >= 0xE0:
        return t - 0x100, pos
    if 0xA0 <= t <= 0xBF:
        n = t & 0x1F
        return bytes(b[pos:pos + n]).decode("utf-8"), pos + n
    if 0x90 <= t <= 0x9F:
        return _array(b, pos, t & 0x0F)
    if 0x80 <= t <= 0x8F:
        return _map(b, pos, t & 0x0F)
    if t == 0xC0:
        return None, pos
    if t in (0xC2, 0xC3):
        return t == 0xC3, pos
    if t in _FIXED:
        fmt, size = _FIXED[t]
        return struct.unpack_from(fmt, b, pos)[0], pos + size
    if t in (0xD9, 0xDA, 0xDB):
        n, pos = _length(b, pos, {0xD9: 1, 0xDA: 2, 0xDB: 4}[t])
        return bytes(b[pos:pos + n]).decode("utf-8"), pos + n
    if t in (0xC4, 0xC5, 0xC6):
        n, pos = _length(b, pos, {0xC4: 1, 0xC5: 2, 0xC6: 4}[t])
        return bytes(b[pos:pos + n]), pos + n
    if t in (0xDC, 0xDD):
        n, pos = _length(b, pos, 2 if t == 0xDC else 4)
        return _array(b, pos, n)
    if t in (0xDE, 0xDF):
        n, pos = _length(b, pos, 2 if t == 0xDE else 4)
        return _map(b, pos, n)
    raise ValueError(f"MindRecord: unsupported msgpack type byte 0x{t:02x}")


def _array(b, pos, n):
    items = []
    for _ in range(n):
        item, pos = _unpack(b, pos)
        items.append(item)
    return items, pos


def _map(b, pos, n):
    out = {}
    for _ in range(n):
        key, pos = _unpack(b, pos)
        out[key], pos = _unpack(b, pos)
    return out, pos
