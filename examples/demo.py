"""Sprout's interim demo (until the training demo lands): tensors, ops and eager maths.

Fits a softmax-regression classifier to a 3-class problem with gradients written out by hand
(autodiff comes later), using only Sprout tensors and ops for the maths, and checks the result
against NumPy doing the same computation.
"""
import time

import numpy as np

import sprout as ms
from sprout import ops


def make_blobs(n_per_class, rng):
    centers = np.array([[0.0, 2.0], [2.0, -1.0], [-2.0, -1.0]], dtype=np.float32)
    x = np.concatenate([c + 0.8 * rng.standard_normal((n_per_class, 2)).astype(np.float32) for c in centers])
    y = np.repeat(np.arange(3), n_per_class)
    onehot = np.eye(3, dtype=np.float32)[y]
    return x, y, onehot


def softmax(logits):
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = ops.exp(shifted)
    return e / e.sum(axis=1, keepdims=True)


def main():
    rng = np.random.default_rng(0)
    x_np, y_np, onehot_np = make_blobs(200, rng)
    x, onehot = ms.Tensor(x_np), ms.Tensor(onehot_np)
    w = ms.Tensor(np.zeros((2, 3), np.float32))
    b = ms.Tensor(np.zeros((3,), np.float32))
    print(f"data: x {x.shape} {x.dtype}, labels one-hot {onehot.shape}")

    lr, n = 0.5, x.shape[0]
    start = time.perf_counter()
    for step in range(200):
        probs = softmax(ops.matmul(x, w) + b)
        loss = -(onehot * ops.log(probs + 1e-9)).sum() / n
        grad_logits = (probs - onehot) / n          # d loss / d logits, by hand
        w = w - lr * ops.matmul(x.T, grad_logits)
        b = b - lr * grad_logits.sum(axis=0)
        if step % 50 == 0:
            print(f"step {step:3d}  loss {loss.item():.4f}")
    elapsed = time.perf_counter() - start
    pred = ops.matmul(x, w).asnumpy().argmax(axis=1)
    accuracy = float((pred == y_np).mean())
    print(f"trained 200 steps in {elapsed * 1e3:.1f} ms; training accuracy {accuracy:.3f}")

    # The same computation in NumPy: Sprout's weights must agree.
    w_np, b_np = np.zeros((2, 3), np.float32), np.zeros(3, np.float32)
    for _ in range(200):
        logits = x_np @ w_np + b_np
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        g = (p - onehot_np) / n
        w_np, b_np = w_np - lr * (x_np.T @ g), b_np - lr * g.sum(axis=0)
    diff = float(np.abs(w.asnumpy() - w_np).max())
    print(f"max |w_sprout - w_numpy| = {diff:.2e}")
    assert diff < 1e-4 and accuracy > 0.9, "demo result is off"

    a = ms.Tensor(np.random.default_rng(1).standard_normal((1024, 1024)).astype(np.float32))
    ops.matmul(a, a)
    start = time.perf_counter()
    for _ in range(5):
        ops.matmul(a, a)
    gflops = 5 * 2 * 1024 ** 3 / (time.perf_counter() - start) / 1e9
    print(f"1024x1024 float32 matmul: {gflops:.1f} GFLOP/s on {ms.get_context('runtime_num_threads')} threads")
    print(f"promotion: Int32 tensor + 1.5 -> {(ms.Tensor([1, 2], ms.int32) + 1.5).dtype}; "
          f"Float16 tensor * 2.0 -> {(ms.Tensor([1.0], ms.float16) * 2.0).dtype}")


if __name__ == "__main__":
    main()
