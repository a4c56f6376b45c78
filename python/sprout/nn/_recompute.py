"""Cell.recompute(): activations recomputed in backward instead of kept.

Note [Recomputed cells]
In PYNATIVE mode (below) a recomputed cell keeps none of its intermediate values for backward. In
compiled code (ms.jit, GRAPH_MODE) the cell's construct gets a graph of its own, which autodiff calls
plainly in the forward graph and again, in its J form, in the backward graph (Note [Recomputed cells in
compiled code] in src/compiler/autodiff.cc); a cell that writes Parameters there (BatchNorm in training)
is differentiated as usual.

A recomputed cell runs its forward pass without recording, so none of its intermediate values is kept
for backward; the call is one node of the eager graph (its tensor inputs and the cell's tracked
Parameters in, its outputs out), whose backward runs the forward pass again, recording, and takes that
recording's gradients. The recomputation must be the same computation:
- random ops draw the same numbers: the global generator's state is set back to what it was at the
  forward call for the recomputation, then put back;
- state the forward pass writes (BatchNorm's moving statistics, Parameters that take no gradient) is
  written once: those Parameters are saved before the recomputation and restored after it.
While an enclosing grad scope records the backward pass (a higher-order gradient), the recomputation
is linked to the original inputs, so the outer gradient sees through it. Recomputed cells inside a
recomputed cell run plainly: the outer one already recomputes them.
"""
from sprout import _C
from sprout.common import seed as _seed
from sprout.common.tensor import Tensor


def _outputs_list(cell, output):
    outputs = list(output) if isinstance(output, tuple) else [output]
    for o in outputs:
        if not isinstance(o, Tensor):
            raise TypeError(f"{type(cell).__name__}.recompute: construct must return a Tensor or a tuple of "
                            f"Tensors, but returned {type(o).__name__}")
    return outputs


_depth = [0]  # recomputed cells being run or recomputed (their sub-cells run plainly)


def nested():
    return _depth[0] > 0


def call_recomputed(cell, inputs, kwargs):
    positions = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and _C.is_tracked(x)]
    params = [p for p in cell.get_parameters() if p.requires_grad and _C.is_tracked(p)]
    untrained = [p for p in cell.get_parameters() if not p.requires_grad]
    rng_state = _seed._global_rng().bit_generator.state
    _depth[0] += 1
    try:
        with _C.NoGrad():
            output = cell.construct(*inputs, **kwargs)
    finally:
        _depth[0] -= 1
    outputs = _outputs_list(cell, output)

    def backward(douts):
        linked = _C.is_recording()  # a higher-order gradient records this pass: keep it connected
        rerun = list(inputs)
        for i in positions:
            rerun[i] = _C.track(inputs[i] if linked else _C.detach(inputs[i]))
        tokens = [(p, _C.track_inplace(p)) for p in params]
        kept = [(p, p.copy()) for p in untrained]
        rng = _seed._global_rng()
        after = rng.bit_generator.state
        rng.bit_generator.state = rng_state
        _depth[0] += 1
        try:
            with _C.GradScope():
                again = _outputs_list(cell, cell.construct(*rerun, **kwargs))
            roots = [(o, d) for o, d in zip(again, douts) if _C.is_tracked(o)]
            targets = [rerun[i] for i in positions] + params
            if not roots:
                return tuple(None for _ in targets)
            return tuple(_C.backward([o for o, _ in roots], [d for _, d in roots], targets))
        finally:
            _depth[0] -= 1
            rng.bit_generator.state = after
            for p, token in tokens:
                _C.restore_autograd(p, token)
            for p, value in kept:
                p._copy_from(value)

    tracked = _C.record_custom(backward, [inputs[i] for i in positions] + params, outputs)
    return tuple(tracked) if isinstance(output, tuple) else tracked[0]
