"""Behaviours MindSpore 2.10's documentation examples showed Sprout getting wrong or refusing (found by
benchmarks/interop/doc_examples.py); the expected values are MindSpore's or NumPy's."""
import numpy as np
import pytest

import sprout as ms
from sprout import nn, ops


def _batched_take(params, indices, axis, batch_dims):
    if batch_dims == 0:
        return np.take(params, indices, axis)
    return np.stack([_batched_take(p, i, axis - 1, batch_dims - 1) for p, i in zip(params, indices)])


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
@pytest.mark.parametrize("shape, index_shape, axis, batch_dims", [
    ((3, 4), (3,), 1, 1), ((2, 3, 5, 4), (2, 3, 6), 3, 2), ((2, 3, 5, 4), (2, 2, 7), 2, 1),
    ((2, 5, 4), (2, 3), -2, 1)])
def test_gather_with_batch_dims(shape, index_shape, axis, batch_dims, compiled):
    rng = np.random.default_rng(0)
    params = rng.standard_normal(shape).astype(np.float32)
    indices = rng.integers(-shape[axis], shape[axis], index_shape).astype(np.int32)
    gather = ms.jit(lambda p, i: ops.gather(p, i, axis, batch_dims)) if compiled else \
        (lambda p, i: ops.gather(p, i, axis, batch_dims))
    got = gather(ms.Tensor(params), ms.Tensor(indices)).asnumpy()
    np.testing.assert_array_equal(got, _batched_take(params, indices, axis % len(shape), batch_dims))


def test_gather_batch_dims_bad_input():
    with pytest.raises(ValueError, match=r"gather: 'batch_dims' 2 needs that many leading axes of equal size"):
        ops.gather(ms.Tensor(np.zeros((2, 3, 4))), ms.Tensor(np.zeros((2, 2), np.int32)), 2, 2)


def test_mindspores_documented_values():
    x = ms.Tensor([[1., 3, 4, 2], [4, 2, 5, 3], [5, 4, 2, 3]])
    np.testing.assert_allclose(ops.std(x, axis=0, ddof=True).asnumpy(), [2.081666, 1., 1.5275252, 0.57735026],
                               rtol=1e-6)  # True: Bessel's correction
    assert ops.mean(ms.Tensor([[9, 3, 4, 5], [5, 2, 7, 4], [8, 1, 3, 6]])).asnumpy().item() == 4  # truncated
    assert ops.mean(ms.Tensor([-1, -2])).dtype == ms.int64 and ops.mean(ms.Tensor([-1, -2])).item() == -1
    np.testing.assert_array_equal(ops.select(ms.Tensor([True, False]), input=1, other=2).asnumpy(), [1, 2])
    one_hot = ops.one_hot(ms.Tensor([0, 1, 2, 4]), depth=5)
    assert one_hot.dtype == ms.int64 and one_hot.asnumpy().tolist()[3] == [0, 0, 0, 0, 1]
    assert ops.one_hot(ms.Tensor([0]), 2, 1.0, 0.0).dtype == ms.float32
    onehot = ops.OneHot()(ms.Tensor([0, 1, 2], ms.int32), 3, ms.Tensor(1.0), ms.Tensor(0.0))  # MindSpore's order
    np.testing.assert_array_equal(onehot.asnumpy(), np.eye(3))


def test_in_place_scatters_return_the_new_value_as_a_tensor():
    p = ms.Parameter(ms.Tensor([1., 2, 3, 4, 5, 6, 7, 8]), name="x")
    out = ops.scatter_nd_add(p, ms.Tensor([[2], [4], [1], [7]], ms.int32), ms.Tensor([6., 7, 8, 9]))
    assert type(out) is ms.Tensor  # printed as values, as MindSpore's, not as "Parameter (name=x ...)"
    assert out.asnumpy().tolist() == p.asnumpy().tolist() == [1., 10., 9., 4., 12., 6., 7., 17.]


def test_stop_gradient_of_plain_values_and_tuples():
    assert ops.stop_gradient(3.0) == 3.0
    x = ms.Tensor([2.0])
    gx = ms.grad(lambda t: sum(ops.stop_gradient((t * t, t))) + t)(x)
    assert gx.asnumpy().tolist() == [1.0]


@pytest.mark.parametrize("ord", ["nuc", 2, -2])
def test_spectral_and_nuclear_norms_match_numpy(ord):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 4, 5))
    got = ops.norm(ms.Tensor(a), ord=ord, dim=(2, 0), keepdim=True).asnumpy()
    np.testing.assert_allclose(got, np.linalg.norm(a, ord=ord, axis=(2, 0), keepdims=True), rtol=1e-10)
    np.testing.assert_allclose(ops.norm(ms.Tensor(a[0]), ord=ord).asnumpy(), np.linalg.norm(a[0], ord=ord), rtol=1e-10)
    assert float(ops.norm(ms.Tensor([[1., 2., 3.], [4., 5., 7.]]), ord="nuc").asnumpy()) == pytest.approx(10.7625, 1e-5)
    grad = ms.grad(lambda t: ops.norm(t, ord="nuc"))(ms.Tensor(a[0])).asnumpy()
    u, _, vt = np.linalg.svd(a[0], full_matrices=False)
    np.testing.assert_allclose(grad, u @ vt, atol=1e-12)  # d ||A||_* / dA = U V^T
    with pytest.raises(ValueError, match=r"norm: matrix 'ord' must be one of 'fro', 'nuc', 1, -1, 2, -2"):
        ops.norm(ms.Tensor(a[0]), ord=3, dim=(0, 1))


def test_fold_takes_output_size_as_a_tensor_and_adaptive_pooling_none_keeps_a_size():
    x = ms.Tensor(np.random.default_rng(0).random((2, 16, 25)).astype(np.float32))
    by_tensor = ops.fold(x, ms.Tensor([8, 8], ms.int32), [2, 2], [2, 2], [2, 2], [2, 2])
    np.testing.assert_array_equal(by_tensor.asnumpy(), ops.fold(x, (8, 8), 2, 2, 2, 2).asnumpy())
    planes = ms.Tensor(np.arange(1.0, 10.0, dtype=np.float32).reshape(1, 3, 3))
    np.testing.assert_array_equal(ops.AdaptiveAvgPool2D((None, 2))(planes).asnumpy(),
                                  [[[1.5, 2.5], [4.5, 5.5], [7.5, 8.5]]])  # MindSpore's documented values


def test_argmin_gives_int32_indices_as_mindspore():
    x = ms.Tensor([[1., 3], [0, 4]])
    assert [ops.argmin(x).dtype, ops.argmin(x, 1).dtype, x.argmin().dtype] == [ms.int32] * 3
    assert ops.argmin(x).item() == 2 and ops.argmax(x).dtype == ms.int64


def test_optimizer_building_blocks_as_mindspore_gives_them():
    net = nn.Dense(2, 3)
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9, weight_decay=0.1, loss_scale=2.0)
    assert opt.target == "CPU" and opt.unique is True
    assert float(opt.get_weight_decay().asnumpy()) == pytest.approx(0.2)  # scaled by the loss scale, as MindSpore
    ones = tuple(ms.Tensor(np.ones(p.shape, np.float32)) for p in net.trainable_params())
    for g, p in zip(opt.decay_weight(ones), net.trainable_params()):
        np.testing.assert_allclose(g.asnumpy(), 1 + 0.2 * p.asnumpy(), rtol=1e-6)
    assert all(np.all(g.asnumpy() == 0.5) for g in opt.scale_grad(ones))
    convs = nn.SequentialCell([nn.Conv2d(16, 2, 3), nn.Conv2d(1, 2, 3)])  # centralized when channels % 16 == 0
    grouped = nn.Momentum([{"params": convs.trainable_params(), "grad_centralization": True}], 0.1, 0.9)
    grads = tuple(ms.Tensor(np.arange(np.prod(p.shape), dtype=np.float32).reshape(p.shape))
                  for p in grouped.parameters)
    centred = grouped.gradients_centralization(grads)
    w16 = grads[0].asnumpy()
    np.testing.assert_allclose(centred[0].asnumpy(), w16 - w16.mean(axis=(1, 2, 3), keepdims=True), atol=1e-4)
    np.testing.assert_array_equal(centred[1].asnumpy(), grads[1].asnumpy())


def test_order_params_sets_the_order_of_the_gradients():
    a = ms.Parameter(ms.Tensor([1.0, 1.0]), name="a")
    b = ms.Parameter(ms.Tensor([5.0]), name="b")
    opt = nn.SGD([{"params": [b], "lr": 0.5}, {"params": [a]}, {"order_params": [a, b]}], learning_rate=1.0)
    assert [p.name for p in opt.parameters] == ["a", "b"]
    opt((ms.Tensor([1.0, 2.0]), ms.Tensor([4.0])))  # gradients in the order_params order
    assert a.asnumpy().tolist() == [0.0, -1.0] and b.asnumpy().tolist() == [3.0]
    with pytest.raises(ValueError, match="'order_params' must hold exactly the Parameters of the groups"):
        nn.SGD([{"params": [a]}, {"order_params": [a, b]}])


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_dense_and_conv_bn_act(compiled):
    dense = nn.DenseBnAct(3, 4, has_bn=True, activation="relu")
    conv = nn.Conv2dBnAct(2, 3, 3, has_bn=True, activation="leakyrelu", alpha=0.1)
    for cell in (dense, conv):
        cell.set_train(False)
    x, image = ms.Tensor(np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)), \
        ms.Tensor(np.random.default_rng(1).standard_normal((1, 2, 5, 5)).astype(np.float32))
    run = (lambda cell, v: ms.jit(lambda t: cell(t))(v)) if compiled else (lambda cell, v: cell(v))
    want = dense.activation(dense.batchnorm(dense.dense(x))).asnumpy()
    np.testing.assert_allclose(run(dense, x).asnumpy(), want, rtol=1e-6)
    assert (run(dense, x).asnumpy() >= 0).all()
    want = conv.activation(conv.batchnorm(conv.conv(image))).asnumpy()
    np.testing.assert_allclose(run(conv, image).asnumpy(), want, rtol=1e-6)
    with pytest.raises(TypeError, match="DenseBnAct: 'activation' must be a str, a Cell or a Primitive"):
        nn.DenseBnAct(3, 4, activation=3)


def test_integer_sums_are_int64_as_mindspores():
    for dtype in (ms.int8, ms.int32, ms.uint8, ms.bool_):
        x = ms.Tensor(np.array([1, 1, 1]), dtype)
        assert x.sum().dtype == ops.sum(x).dtype == ms.int64 and x.sum().item() == 3
    assert ops.ReduceSum()(ms.Tensor([1, 2], ms.int32)).dtype == ms.int32  # the primitive keeps it


def test_parameter_tuple_clone_fills_by_initializer_and_lazy_namespaces():
    params = ms.ParameterTuple([ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")])
    assert params.clone("moments", init="zeros")[0].name == "moments.w"
    assert params.clone("moments", init="zeros")[0].asnumpy().tolist() == [0.0, 0.0]
    assert params.clone("copy")[0].asnumpy().tolist() == [1.0, 2.0]
    assert ms.experimental.optim.Adam is not None and ms.numpy.arange(3).asnumpy().tolist() == [0, 1, 2]


def test_python_bool_converts_both_ways_beside_ms_bool():
    assert ms.bool is ms.bool_ and ms.common.dtype.bool is ms.bool_
    assert ms.dtype_to_pytype(ms.bool_) is bool and ms.pytype_to_dtype(bool) == ms.bool_
    assert ms.get_py_obj_dtype(True) == ms.bool_


def test_tensor_function_and_view_refuse_what_they_cannot_do():
    assert ms.tensor([1, 2], dtype=ms.float32, device="CPU").dtype == ms.float32
    with pytest.raises(ValueError, match="tensor: 'device' must be None or 'CPU' on this build, but got 'GPU'"):
        ms.tensor([1.0], device="GPU")
    with pytest.raises(TypeError, match="Tensor.view: bfloat16 has no NumPy form to reinterpret"):
        ms.Tensor([1.0, 2.0], ms.bfloat16).view(ms.int16)
