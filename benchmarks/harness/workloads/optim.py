"""One AdamW optimizer step over the parameters of a small Transformer: 20 float32 tensors, 4.2M
elements (the shapes of the GPT workload's embedding, attention and feed-forward weights), fixed
gradients. PyTorch's AdamW formula everywhere: p *= 1 - lr * weight_decay, then the bias-corrected Adam
step. Each framework's optimizer as a user calls it: Sprout's nn.AdamW, PyTorch's torch.optim.AdamW
(its default, the multi-tensor "foreach" path), MindSpore's experimental.optim.AdamW (mint's has no CPU
kernel in 2.10), and for JAX the same update as one jitted function of the parameter lists (what optax
does; optax itself is not installed). The check compares the first parameter after the first step
with NumPy.
"""
from ..registry import workload

SHAPES = [(1000, 256), (256, 768), (256, 256), (256, 1024), (1024, 256)] * 4
LR, BETA1, BETA2, EPS, WEIGHT_DECAY = 1e-3, 0.9, 0.999, 1e-8, 1e-2


def _inputs(np, smoke):
    rng = np.random.default_rng(0)
    shapes = [(8, 16), (16, 4)] if smoke else SHAPES
    return {"params": [rng.standard_normal(s).astype(np.float32) for s in shapes],
            "grads": [rng.standard_normal(s).astype(np.float32) for s in shapes]}


def _first_step(np, d):
    """The first parameter after one step (m and v start at 0, so m_hat = g and v_hat = g^2)."""
    p, g = d["params"][0].astype(np.float64), d["grads"][0].astype(np.float64)
    return (p * (1 - LR * WEIGHT_DECAY) - LR * g / (np.abs(g) + EPS)).astype(np.float32)


ADAMW_STEP = workload(
    name="adamw_step", kind="step",
    doc="one AdamW step (lr 1e-3, weight decay 1e-2, bias correction) over 20 float32 parameters of 4.2M "
        "elements in all, the shapes of a small Transformer's weights",
    inputs=_inputs, reference=_first_step, amount=lambda smoke: 1, rtol=1e-5, atol=1e-6)


def _cell_optimizer_step(ms, d, make_optimizer):
    """Sprout's and MindSpore's: Parameters, fixed gradients, optimizer(grads) per step."""
    params = [ms.Parameter(ms.Tensor(p), name=f"p{i}") for i, p in enumerate(d["params"])]
    grads = tuple(ms.Tensor(g) for g in d["grads"])
    opt = make_optimizer(params)

    def step():
        opt(grads)
        return params[0]
    return step


@ADAMW_STEP.impl("sprout", "sprout_graph")
def _(ms, d):
    return _cell_optimizer_step(ms, d, lambda params: ms.nn.AdamW(
        params, learning_rate=LR, beta1=BETA1, beta2=BETA2, eps=EPS, weight_decay=WEIGHT_DECAY))


@ADAMW_STEP.impl("torch")
def _(torch, d):
    params = [torch.nn.Parameter(torch.from_numpy(p.copy())) for p in d["params"]]
    for p, g in zip(params, d["grads"]):
        p.grad = torch.from_numpy(g)
    opt = torch.optim.AdamW(params, lr=LR, betas=(BETA1, BETA2), eps=EPS, weight_decay=WEIGHT_DECAY)

    def step():
        opt.step()
        return params[0].detach()
    return step


@ADAMW_STEP.impl("mindspore")
def _(ms, d):
    from mindspore import experimental
    return _cell_optimizer_step(ms, d, lambda params: experimental.optim.AdamW(
        params, lr=LR, betas=(BETA1, BETA2), eps=EPS, weight_decay=WEIGHT_DECAY))


@ADAMW_STEP.impl("jax")
def _(jax, d):
    jnp = jax.numpy

    @jax.jit
    def update(params, m, v, grads, t):
        b1t, b2t = 1 - BETA1 ** t, 1 - BETA2 ** t
        new_p, new_m, new_v = [], [], []
        for p, mi, vi, g in zip(params, m, v, grads):
            mi = BETA1 * mi + (1 - BETA1) * g
            vi = BETA2 * vi + (1 - BETA2) * g * g
            p = p * (1 - LR * WEIGHT_DECAY) - LR * (mi / b1t) / (jnp.sqrt(vi / b2t) + EPS)
            new_p.append(p), new_m.append(mi), new_v.append(vi)
        return new_p, new_m, new_v

    state = {"p": [jnp.asarray(p) for p in d["params"]], "m": [jnp.zeros(p.shape, jnp.float32) for p in d["params"]],
             "v": [jnp.zeros(p.shape, jnp.float32) for p in d["params"]], "t": 0}
    grads = [jnp.asarray(g) for g in d["grads"]]

    def step():
        state["t"] += 1
        state["p"], state["m"], state["v"] = update(state["p"], state["m"], state["v"], grads,
                                                    jnp.float32(state["t"]))
        return state["p"][0]
    return step
