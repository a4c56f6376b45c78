"""float32 conv2d (NCHW, OIHW weights, stride 1, no bias), in GFLOP/s,
compared with the measured peak FMA throughput of machine.py.

Two shapes: LeNet's first layer (tiny channels: the time is im2col, layout
and dispatch, not FLOPs) and a ResNet-18 stage-1 layer (a large GEMM).
Forward FLOPs = 2 x N x O x OH x OW x C x KH x KW. Forward + backward is
counted as 3 x that (the input gradient and the weight gradient each cost a
forward), whatever each framework actually does.

Forward + backward differentiates sum(conv2d(x, w) * g) for a fixed random
g, so the gradients are dx = conv_transpose(g, w) and dw = corr(x, g).
"""
from ..registry import workload

SHAPES = {  # name: (x shape, w shape, padding); smoke: N=2, fewer channels
    "lenet": ((64, 1, 32, 32), (6, 1, 5, 5), 0),
    "resnet18": ((32, 64, 56, 56), (64, 64, 3, 3), 1),
}
SMOKE = {
    "lenet": ((2, 1, 12, 12), (6, 1, 5, 5), 0),
    "resnet18": ((2, 4, 8, 8), (4, 4, 3, 3), 1),
}


def _out_hw(xs, ws, pad):
    return xs[2] + 2 * pad - ws[2] + 1, xs[3] + 2 * pad - ws[3] + 1


def _fwd_flops(xs, ws, pad):
    oh, ow = _out_hw(xs, ws, pad)
    return 2 * xs[0] * ws[0] * oh * ow * ws[1] * ws[2] * ws[3]


def _windows(np, x, kh, kw, pad):
    """(N, C, OH, OW, KH, KW) view of x's sliding windows (x padded)."""
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    return np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(2, 3))


def ref_conv(np, x, w, pad):
    # float64 GEMMs (einsum -> tensordot), then float32 like the result
    win = _windows(np, x.astype(np.float64), *w.shape[2:], pad)
    return np.einsum("nchwij,ocij->nohw", win, w.astype(np.float64),
                     optimize=True).astype(np.float32)


def ref_conv_grads(np, x, w, g, pad):
    """(dx, dw) of sum(conv2d(x, w) * g)."""
    kh, kw = w.shape[2:]
    g64 = g.astype(np.float64)
    win = _windows(np, x.astype(np.float64), kh, kw, pad)
    dw = np.einsum("nchwij,nohw->ocij", win, g64, optimize=True)
    # dx: "full" correlation of g with the flipped weights, minus the padding.
    gwin = _windows(np, g64, kh, kw, kh - 1)
    dx = np.einsum("nohwij,ocij->nchw", gwin, w[:, :, ::-1, ::-1].astype(np.float64),
                   optimize=True)
    if pad:
        dx = dx[:, :, pad:-pad, pad:-pad]
    return dx.astype(np.float32), dw.astype(np.float32)


def _make(name, backward):
    def shape(smoke):
        return (SMOKE if smoke else SHAPES)[name]

    def inputs(np, smoke):
        xs, ws, pad = shape(smoke)
        rng = np.random.default_rng(0)
        d = {"x": rng.standard_normal(xs, np.float32),
             "w": (rng.standard_normal(ws) / np.sqrt(np.prod(ws[1:]))).astype(np.float32),
             "pad": pad}
        if backward:
            d["g"] = rng.standard_normal((xs[0], ws[0], *_out_hw(xs, ws, pad)), np.float32)
        return d

    if backward:
        reference = lambda np, d: ref_conv_grads(np, d["x"], d["w"], d["g"], d["pad"])  # noqa: E731
    else:
        reference = lambda np, d: ref_conv(np, d["x"], d["w"], d["pad"])  # noqa: E731
    xs, ws, pad = SHAPES[name]
    what = "forward + backward (dx, dw)" if backward else "forward"
    return workload(
        name=f"conv2d_{name}_{'fwdbwd' if backward else 'fwd'}", kind="flops",
        doc=f"conv2d {what}, x {'x'.join(map(str, xs))}, w {'x'.join(map(str, ws))}, "
            f"padding {pad}, float32; FLOPs = {3 if backward else 1} x 2 N O OH OW C KH KW",
        inputs=inputs, reference=reference,
        amount=lambda smoke: (3 if backward else 1) * _fwd_flops(*shape(smoke)),
        rtol=1e-3, atol=1e-2)  # float32 sums of up to 10^5 products


LENET_FWD = _make("lenet", backward=False)
LENET_FWDBWD = _make("lenet", backward=True)
RESNET_FWD = _make("resnet18", backward=False)
RESNET_FWDBWD = _make("resnet18", backward=True)
FORWARD = (LENET_FWD, RESNET_FWD)
BACKWARD = (LENET_FWDBWD, RESNET_FWDBWD)


def _register(workloads, framework):
    def register(fn):
        for w in workloads:
            w.impl(framework)(fn)
        return fn
    return register


# Sprout
@_register(FORWARD, "sprout")
def _(ms, d):
    from sprout import ops
    x, w, pad = ms.Tensor(d["x"]), ms.Tensor(d["w"]), d["pad"]
    mode = "pad" if pad else "valid"
    return lambda: ops.conv2d(x, w, pad_mode=mode, padding=pad)


@_register(BACKWARD, "sprout")
def _(ms, d):
    from sprout import ops
    x, w, g, pad = ms.Tensor(d["x"]), ms.Tensor(d["w"]), ms.Tensor(d["g"]), d["pad"]
    mode = "pad" if pad else "valid"
    grad = ms.grad(lambda x, w: (ops.conv2d(x, w, pad_mode=mode, padding=pad) * g).sum(),
                   grad_position=(0, 1))
    return lambda: grad(x, w)


# PyTorch (eager autograd; autograd.grad so nothing accumulates in .grad)
@_register(FORWARD, "torch")
def _(torch, d):
    x, w, pad = torch.from_numpy(d["x"]), torch.from_numpy(d["w"]), d["pad"]

    def step():
        with torch.no_grad():
            return torch.nn.functional.conv2d(x, w, padding=pad)
    return step


@_register(BACKWARD, "torch")
def _(torch, d):
    x = torch.from_numpy(d["x"]).requires_grad_()
    w = torch.from_numpy(d["w"]).requires_grad_()
    g, pad = torch.from_numpy(d["g"]), d["pad"]

    def step():
        loss = (torch.nn.functional.conv2d(x, w, padding=pad) * g).sum()
        return tuple(t.detach() for t in torch.autograd.grad(loss, (x, w)))
    return step


# JAX (jit)
def _jax_conv(jax, pad):
    def conv(x, w):
        return jax.lax.conv_general_dilated(x, w, (1, 1), [(pad, pad), (pad, pad)],
                                            dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return conv


@_register(FORWARD, "jax")
def _(jax, d):
    x, w = jax.numpy.asarray(d["x"]), jax.numpy.asarray(d["w"])
    conv = jax.jit(_jax_conv(jax, d["pad"]))
    return lambda: conv(x, w)


@_register(BACKWARD, "jax")
def _(jax, d):
    x, w, g = (jax.numpy.asarray(d[k]) for k in "xwg")
    conv = _jax_conv(jax, d["pad"])
    grad = jax.jit(jax.grad(lambda x, w: (conv(x, w) * g).sum(), argnums=(0, 1)))
    return lambda: grad(x, w)


# MindSpore (PyNative)
@_register(FORWARD, "mindspore")
def _(ms, d):
    x, w, pad = ms.Tensor(d["x"]), ms.Tensor(d["w"]), d["pad"]
    mode = "pad" if pad else "valid"
    return lambda: ms.ops.conv2d(x, w, pad_mode=mode, padding=pad)


@_register(BACKWARD, "mindspore")
def _(ms, d):
    x, w, g, pad = ms.Tensor(d["x"]), ms.Tensor(d["w"]), ms.Tensor(d["g"]), d["pad"]
    mode = "pad" if pad else "valid"
    grad = ms.grad(lambda x, w: (ms.ops.conv2d(x, w, pad_mode=mode, padding=pad) * g).sum(),
                   grad_position=(0, 1))
    return lambda: grad(x, w)
