"""Gradient hooks: Tensor.register_hook, ops.HookBackward, ops.InsertGradientOf, Cell backward hooks."""
import gc

import numpy as np
import pytest

import sprout as ms
from sprout import Tensor, nn, ops
from sprout.common import grad_hooks


def scalar(v):
    return Tensor(v, ms.float32)


def doubled(grad):
    return grad * 2


def hooked_product(x, y):  # MindSpore's Tensor.register_hook example
    z = x * y
    z.register_hook(doubled)
    z = z * y
    return z


@pytest.mark.parametrize("compiled", [False, True])
def test_register_hook_doubles_the_gradient_of_a_intermediate(compiled):
    f = ms.grad(hooked_product, grad_position=(0, 1))
    gx, gy = (ms.jit(f) if compiled else f)(scalar(1.0), scalar(2.0))
    assert (gx.asnumpy(), gy.asnumpy()) == (8.0, 6.0)


def test_hook_sees_the_whole_gradient_including_uses_before_registration():
    seen = []

    def f(x):
        z = x * 3.0
        early = z * z          # read before the hook is registered
        z.register_hook(lambda g: seen.append(g.asnumpy().copy()))
        return early + z

    g = ms.grad(f)(scalar(2.0))
    # d/dz (z^2 + z) at z = 6 is 13; dx = 3 * 13
    assert seen == [13.0] and g.asnumpy() == 39.0


def test_hook_returning_none_keeps_the_gradient_and_hooks_run_in_order():
    order = []

    def f(x):
        y = x * x
        y.register_hook(lambda g: order.append("first"))
        y.register_hook(lambda g: (order.append("second"), g * 10)[1])
        return y

    assert ms.grad(f)(scalar(3.0)).asnumpy() == 60.0
    assert order == ["first", "second"]


def test_hook_on_a_parameter_registered_before_the_grad_call_persists_until_removed():
    dense = nn.Dense(3, 2)
    x = Tensor(np.ones((4, 3), np.float32))
    loss = lambda x: dense(x).sum()  # noqa: E731
    grad_fn = ms.grad(loss, None, dense.trainable_params())
    plain = [g.asnumpy() for g in grad_fn(x)]
    handle = dense.weight.register_hook(lambda g: g * 0.5)
    for _ in range(2):  # every grad call tracks the Parameter afresh and attaches the hook again
        hooked = [g.asnumpy() for g in grad_fn(x)]
        np.testing.assert_allclose(hooked[0], plain[0] * 0.5)
        np.testing.assert_allclose(hooked[1], plain[1])
    handle.remove()
    np.testing.assert_allclose(grad_fn(x)[0].asnumpy(), plain[0])


def test_hook_on_an_input_before_grad_and_the_weak_reference():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    x.register_hook(lambda g: g + 1)
    g = ms.grad(lambda t: (t * t).sum())(x)
    np.testing.assert_allclose(g.asnumpy(), [3.0, 5.0])
    n = len(grad_hooks._pending)
    del x
    gc.collect()
    assert len(grad_hooks._pending) == n - 1  # the hook does not keep the tensor alive


def test_higher_order_gradients_differentiate_through_the_hook():
    def f(x):
        z = x * x
        z.register_hook(doubled)
        return z * x   # with the hook: df/dx = 2x*(2x) + x^2 = 5x^2

    assert ms.grad(f)(scalar(2.0)).asnumpy() == 20.0
    # The hook is on z in every backward pass that reaches it, as PyTorch's tensor hooks are: the second
    # pass differentiates f' = 2x * doubled(x) + z = 4x^2 + z, and the hook doubles d(f')/dz = 1 too:
    # d(f')/dx = 8x + 2 * 2x (through z) = 24 at x = 2.
    assert ms.grad(ms.grad(f))(scalar(2.0)).asnumpy() == 24.0


def test_register_hook_bad_input():
    x = scalar(1.0)
    with pytest.raises(TypeError, match="Tensor.register_hook: the hook must be a Python function"):
        x.register_hook(3)

    def wrong_shape(x):
        y = x * 2.0
        y.register_hook(lambda g: ops.ones((2,), ms.float32))
        return y

    with pytest.raises(ValueError, match=r"register_hook: the hook must return a gradient of the tensor's shape"):
        ms.grad(wrong_shape)(x)

    def not_a_tensor(x):
        y = x * 2.0
        y.register_hook(lambda g: 1.0)
        return y

    with pytest.raises(TypeError, match="must return a Tensor or None, but returned float"):
        ms.grad(not_a_tensor)(x)


def test_hook_backward_matches_mindspores_example():
    seen = []  # MindSpore's hook receives the tuple of its inputs' gradients
    hook = ops.HookBackward(lambda g: seen.append((type(g).__name__, [t.asnumpy().item() for t in g])))

    def f(x, y):
        z = hook(x * y)
        return z * y

    gx, gy = ops.GradOperation(get_all=True)(f)(scalar(1.0), scalar(2.0))
    assert (gx.asnumpy(), gy.asnumpy(), seen) == (4.0, 4.0, [("tuple", [2.0])])
    with pytest.raises(TypeError, match="HookBackward: the hook must be a Python function"):
        ops.HookBackward("print")
    with pytest.raises(TypeError, match="HookBackward: input 0 must be a Tensor, but got list"):
        hook([1.0])


@pytest.mark.parametrize("compiled", [False, True])
def test_hook_backward_replaces_the_gradients_of_all_its_inputs_at_once(compiled):
    # MindSpore 2.10's values: f = 10 * (x * y) * y + (x + y) through the hook gives (41, 23).
    hook = ops.HookBackward(lambda grads: (grads[0] * 10, grads[1]))

    def f(x, y):
        a, b = hook(x * y, x + y)
        return a * y + b

    grad_fn = ms.grad(f, (0, 1))
    gx, gy = (ms.jit(grad_fn) if compiled else grad_fn)(scalar(1.0), scalar(2.0))
    assert (gx.asnumpy().item(), gy.asnumpy().item()) == (41.0, 23.0)
    lone = ops.HookBackward(lambda grads: grads[0] * 10)  # one input: a Tensor may stand for the tuple
    assert ms.grad(lambda x, y: lone(x * y) * y, (0, 1))(scalar(1.0), scalar(2.0))[0].asnumpy().item() == 40.0
    wrong = ops.HookBackward(lambda grads: (grads[0],))
    with pytest.raises(TypeError, match=r"HookBackward: the hook must return None or a tuple of 2 gradient\(s\), "
                                        r"but returned tuple of length 1"):
        ms.grad(lambda x, y: sum(wrong(x * y, x + y)))(scalar(1.0), scalar(2.0))


@pytest.mark.parametrize("compiled", [False, True])
def test_insert_gradient_of_clips_the_gradient(compiled):
    clip = ops.InsertGradientOf(lambda g: ops.clip_by_value(g, -0.1, 0.1))

    def f(x):
        return clip(x * 3.0).sum()

    g = ms.grad(f)
    x = Tensor(np.array([1.0, -2.0, 0.5], np.float32))
    np.testing.assert_allclose((ms.jit(g) if compiled else g)(x).asnumpy(), [0.3, 0.3, 0.3], rtol=1e-6)


def test_register_hook_in_a_graph_mode_cell_matches_pynative():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 1)

        def construct(self, x):
            y = self.dense(x)
            y.register_hook(lambda g: g * 10)
            return y.sum()

    net = Net()
    x = Tensor(np.ones((1, 3), np.float32))
    eager = ms.grad(net)(x).asnumpy()
    np.testing.assert_allclose(eager, 10 * net.dense.weight.asnumpy(), rtol=1e-6)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        np.testing.assert_allclose(ms.grad(net)(x).asnumpy(), eager, rtol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


class HookedRelu(nn.Cell):  # MindSpore's Cell.register_backward_hook example
    def __init__(self, hook):
        super().__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_backward_hook(hook)

    def construct(self, x):
        return self.relu(x + x)


def test_cell_backward_hook_sees_input_and_output_gradients():
    calls = []
    net = HookedRelu(lambda cell, grad_input, grad_output: calls.append(
        (cell, [g.asnumpy() for g in grad_input], [g.asnumpy() for g in grad_output])))
    (g,) = ops.GradOperation(get_all=True)(net)(Tensor(np.array([1.0, -1.0], np.float32)))
    np.testing.assert_allclose(g.asnumpy(), [2.0, 0.0])
    (cell, grad_input, grad_output), = calls
    assert cell is net.relu
    np.testing.assert_allclose(grad_input[0], [1.0, 0.0])
    np.testing.assert_allclose(grad_output[0], [1.0, 1.0])
    net.handle.remove()
    ops.GradOperation(get_all=True)(net)(Tensor(np.array([1.0], np.float32)))
    assert len(calls) == 1


def test_cell_backward_hooks_replace_gradients():
    net = HookedRelu(lambda cell, grad_input, grad_output: tuple(g * 3 for g in grad_input))
    pre = net.relu.register_backward_pre_hook(lambda cell, grad_output: (grad_output[0] * 5,))
    (g,) = ops.GradOperation(get_all=True)(net)(Tensor(np.array([1.0, -1.0], np.float32)))
    np.testing.assert_allclose(g.asnumpy(), [30.0, 0.0])  # 2 (x + x) * 5 (pre) * 3 (hook)
    pre.remove()
    net.relu.register_backward_hook(lambda cell, grad_input, grad_output: (1, 2))
    with pytest.raises(ValueError, match="ReLU.register_backward_hook: the hook must return None or 1 gradient"):
        ops.GradOperation(get_all=True)(net)(Tensor(np.array([1.0], np.float32)))


def test_cell_backward_hook_when_only_weights_are_differentiated():
    dense = nn.Dense(2, 1)
    calls = []
    dense.register_backward_hook(lambda cell, grad_input, grad_output: calls.append((grad_input, grad_output)))
    ms.grad(lambda x: dense(x).sum(), None, dense.trainable_params())(Tensor(np.ones((1, 2), np.float32)))
    (grad_input, grad_output), = calls
    assert grad_input == (None,) and grad_output[0].shape == (1, 1)


def test_cell_backward_hooks_in_graph_mode():
    net = HookedRelu(lambda cell, grad_input, grad_output: None)
    x = Tensor(np.array([1.0], np.float32))
    with pytest.raises(RuntimeError, match="ReLU: backward hooks .* run in PYNATIVE mode only"):
        ms.jit(ms.grad(net))(x)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:  # a GRAPH_MODE cell with hooks of its own runs eagerly, as with forward hooks
        np.testing.assert_allclose(ms.grad(net.relu)(x).asnumpy(), [1.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_compiled_code_refuses_a_hook_registered_after_the_tensor_was_used():
    def f(x):
        z = x * 3.0
        early = z * z
        z.register_hook(doubled)  # PYNATIVE: the hook sees early's gradient too; compiled, it could not
        return early + z

    assert ms.grad(f)(scalar(2.0)).asnumpy() == 78.0  # 2 * (2z + 1) * 3 at z = 6
    with pytest.raises(RuntimeError, match="a hook must be registered before the tensor is used"):
        ms.jit(ms.grad(f))(scalar(2.0))
