"""Records of dropout, embedding, attention and the recurrent cells."""
import numpy as np

import sprout as ms
from sprout import _C, ops
from op_records.record import OpRecord

_M64 = (1 << 64) - 1


def _philox4x32(counter, key):
    """Philox4x32-10 on arrays of counters (n, 4) uint64 holding 32-bit values; key two ints."""
    c = counter.astype(np.uint64)
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    m0, m1, mask = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57), np.uint64(0xFFFFFFFF)
    for _ in range(10):
        p0, p1 = m0 * c[:, 0], m1 * c[:, 2]
        c = np.stack([(p1 >> np.uint64(32)) ^ c[:, 1] ^ k0, p1 & mask, (p0 >> np.uint64(32)) ^ c[:, 3] ^ k1, p0 & mask], 1)
        k0, k1 = (k0 + np.uint64(0x9E3779B9)) & mask, (k1 + np.uint64(0xBB67AE85)) & mask
    return c


# Known answers of Random123's philox4x32-10 (kat_vectors), checked when this module loads.
assert [hex(v) for v in _philox4x32(np.zeros((1, 4), np.uint64), (0, 0))[0]] == \
    ["0x6627e8d5", "0xe169c58d", "0xbc57ac4c", "0x9b00dbd8"]
assert [hex(v) for v in _philox4x32(np.full((1, 4), 0xFFFFFFFF, np.uint64), (0xFFFFFFFF, 0xFFFFFFFF))[0]] == \
    ["0x408f276d", "0x41c83b0e", "0xa20bc7c6", "0x6d5451fd"]


def _philox_key(seed0, seed1):
    z = (seed0 * 0x9E3779B97F4A7C15 + seed1 + 0x632BE59BD9B4E019) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    z ^= z >> 31
    return z & 0xFFFFFFFF, z >> 32


def _dropout_ref(keep_prob, seed0, seed1):
    def ref(x):
        n = x.size
        blocks = (n + 3) // 4
        counters = np.zeros((blocks, 4), np.uint64)
        counters[:, 0] = np.arange(blocks, dtype=np.uint64) & np.uint64(0xFFFFFFFF)
        bits = _philox4x32(counters, _philox_key(seed0, seed1)).reshape(-1)[:n]
        uniform = (bits >> np.uint64(8)).astype(np.float64) / 16777216.0
        mask = (uniform.astype(np.float32) < np.float32(keep_prob)).reshape(x.shape).astype(np.float64)
        return x * mask / keep_prob, mask
    return ref


RECORDS = [
    OpRecord("Dropout", lambda x, k=k: ops.Dropout(k, 7, 11)(x), _dropout_ref(k, 7, 11),
             [((4, 5),), ((),), ((0, 3),), ((3, 1001),)], prim=lambda k=k: _C.Primitive("Dropout", {"keep_prob": k, "Seed0": 7,
                                                                                             "Seed1": 11}),
             grad_shapes=[((3, 4),)], grad_outputs=(0,),
             bad=[(lambda: ops.Dropout(0.0)(ms.Tensor([1.0])), ValueError, r"Dropout: 'keep_prob' must be in \(0, 1\], but got 0"),
                  (lambda: ops.Dropout(1.5)(ms.Tensor([1.0])), ValueError, r"Dropout: 'keep_prob' must be in \(0, 1\]"),
                  (lambda: ops.Dropout(0.5, -1)(ms.Tensor([1.0])), ValueError, r"'Seed0' and 'Seed1' must be non-negative"),
                  (lambda: ops.Dropout()(ms.Tensor([1, 2])), TypeError, r"Dropout: 'x' must be a floating-point tensor")])
    for k in (0.5, 0.9, 1.0)
]
