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


def _index_sampler(rows, indices_first):
    """Integer indices in [0, rows) and uniform floats, in the op's input order."""
    def sample(rng, shapes, dtype):
        idx_shape, float_shape = (shapes[0], shapes[1]) if indices_first else (shapes[1], shapes[0])
        idx = rng.integers(0, rows, size=idx_shape)
        values = rng.uniform(-2, 2, size=float_shape)
        return [idx, values] if indices_first else [values, idx]
    return sample


def _embedding_backward_ref(rows, padding_idx, by_freq):
    def ref(grad, idx):
        flat_idx, flat_grad = idx.reshape(-1), grad.reshape(-1, grad.shape[-1])
        counts = np.bincount(flat_idx, minlength=rows)
        table = np.zeros((rows, grad.shape[-1]))
        scale = 1 / np.maximum(counts[flat_idx], 1) if by_freq else np.ones(len(flat_idx))
        np.add.at(table, flat_idx, flat_grad * scale[:, None])
        if padding_idx >= 0:
            table[padding_idx] = 0
        return table
    return ref




def _w():
    return ms.Tensor(np.ones((5, 3)))


RECORDS += [
    OpRecord("Embedding", lambda i, w: ops.embedding(i, w), lambda i, w: w[i],
             [((2, 3), (5, 4)), ((), (5, 4)), ((0,), (3, 2)), ((4,), (7, 1)), ((300,), (50, 64))],
             input_dtypes=(ms.int32, None), sampler=_index_sampler(3, True), prim=lambda: _C.Primitive("Embedding"),
             grad_shapes=[((2, 3), (4, 2))], exact=True,
             bad=[(lambda: ops.embedding(ms.Tensor([0, 5], ms.int32), _w()), ValueError,
                   r"Embedding: 'input' must hold indices in \[0, 5\), but element 1 is 5"),
                  (lambda: ops.embedding(ms.Tensor([0.0]), _w()), TypeError, r"Embedding: 'input' must have dtype in \[Int32, Int64\]"),
                  (lambda: ops.embedding(ms.Tensor([0], ms.int32), ms.Tensor(np.ones(5))), ValueError,
                   r"Embedding: 'weight' must be 2-d \(num_embeddings, dim\), but got shape \(5,\)"),
                  (lambda: ops.embedding(ms.Tensor([0], ms.int32), _w(), padding_idx=5), ValueError,
                   r"embedding: 'padding_idx' must be in \[-5, 5\), but got 5"),
                  (lambda: ops.embedding(ms.Tensor([0], ms.int32), _w(), max_norm=1.0), ValueError,
                   r"embedding: 'max_norm' is not supported")]),
    OpRecord("Embedding", lambda i, w: ops.embedding(i, w, padding_idx=-1, scale_grad_by_freq=True), lambda i, w: w[i],
             [((6,), (3, 2))], input_dtypes=(ms.int64, None), sampler=_index_sampler(3, True), exact=True),
    # (padding_idx and scale_grad_by_freq change the gradient on purpose, so that variant has no
    # finite-difference check: test_nn_functional checks its gradient against NumPy.)
]
for _pad, _freq in ((-1, False), (1, True)):
    RECORDS.append(OpRecord(
        "EmbeddingDenseBackward", lambda g, i, p=_pad, f=_freq: ops.EmbeddingDenseBackward()(g, i, 4, p, f),
        _embedding_backward_ref(4, _pad, _freq), [((2, 3, 5), (2, 3)), ((0, 2), (0,)), ((7, 3), (7,))],
        input_dtypes=(None, ms.int64), sampler=_index_sampler(4, False),
        prim=lambda p=_pad, f=_freq: _C.Primitive("EmbeddingDenseBackward", {"num_weights": 4, "padding_idx": p,
                                                                            "scale_grad_by_freq": f}),
        grad_shapes=[((5, 2), (5,))], tol={ms.float32: (1e-6, 1e-6)},
        bad=[(lambda: ops.EmbeddingDenseBackward()(ms.Tensor(np.ones((2, 3))), ms.Tensor([0, 1, 2], ms.int32), 4),
              ValueError, r"EmbeddingDenseBackward: 'grad' must have shape indices.shape \+ \(dim,\)"),
             (lambda: ops.EmbeddingDenseBackward()(ms.Tensor(np.ones((2, 3))), ms.Tensor([0, 9], ms.int32), 4),
              ValueError, r"EmbeddingDenseBackward: 'indices' must hold indices in \[0, 4\), but element 1 is 9")]))
