"""Records of the random ops. Their values cannot match a NumPy reference, so they are `random`
records: `ref` gives the output's (shape, dtype), the harness checks that a second call with the
same seeds agrees and that every value lies in the support. test_random_ops.py tests the
distributions themselves."""
import numpy as np

import sprout as ms
from sprout import ops
from op_records.record import FLOAT_DTYPES, OpRecord

NO_INPUTS = [()]


def _spec(shape, dtype):
    return lambda *inputs: (shape, dtype)


def _bernoulli_sampler(rng, shapes, dtype):
    x_shape, p_shape = shapes
    p = rng.uniform(0, 1, size=p_shape)
    if p.size > 2:
        p.reshape(-1)[:2] = (0.0, 1.0)  # the edges: always 0, always 1
    return [rng.uniform(-3, 3, size=x_shape), p]


def _bernoulli_support(x, p, y):
    p = np.broadcast_to(p, y.shape)
    return np.isin(y, (0, 1)).all() and (y[p == 0] == 0).all() and (y[p == 1] == 1).all()


def _weights_sampler(rng, shapes, dtype):
    w = rng.uniform(0, 2, size=shapes[0])
    w[..., 1] = 0  # a category that must never be drawn
    return [w]


def _multinomial_support(w, out):
    rows = np.atleast_2d(w)
    drawn = np.atleast_2d(out)
    return all((row[idx] > 0).all() for row, idx in zip(rows, drawn))


def _rows_permuted(x, y):
    if x.ndim == 0 or x.size == 0:
        return np.array_equal(x, y)
    key = lambda a: sorted(map(tuple, a.reshape(a.shape[0], -1).tolist()))  # noqa: E731
    return key(x) == key(y)


def _randperm_support(max_length, pad):
    def support(n, out):
        n = int(n.reshape(-1)[0])
        return sorted(out[:n].tolist()) == list(range(n)) and (out[n:] == pad).all() and out.size == max_length
    return support


def _n_sampler(value):
    return lambda rng, shapes, dtype: [np.full(shapes[0], value)]


RECORDS = []
for _shape in ((2, 3), (), (0, 4), (1001,)):
    RECORDS += [
        OpRecord("StandardNormal", lambda s=_shape: ops.StandardNormal(3, 7)(s), _spec(_shape, ms.float32), NO_INPUTS,
                 (ms.float32,), random=True, support=lambda y: np.isfinite(y).all(),
                 bad=[(lambda: ops.StandardNormal(-1)((2,)), ValueError,
                       r"StandardNormal: 'seed' and 'seed2' must be non-negative, but got -1 and 0"),
                      (lambda: ops.StandardNormal()((2, -1)), ValueError, r"StandardNormal: .*'shape'")]),
        OpRecord("UniformReal", lambda s=_shape: ops.UniformReal(3, 7)(s), _spec(_shape, ms.float32), NO_INPUTS,
                 (ms.float32,), random=True, support=lambda y: ((y >= 0) & (y < 1)).all(),
                 bad=[(lambda: ops.UniformReal(0, -2)((2,)), ValueError,
                       r"UniformReal: 'seed' and 'seed2' must be non-negative, but got 0 and -2")]),
        OpRecord("UniformInt", lambda s=_shape: ops.UniformInt(3, 7)(s, -5, 3), _spec(_shape, ms.int32), NO_INPUTS,
                 (ms.int32,), random=True, support=lambda y: ((y >= -5) & (y < 3)).all(),
                 bad=[(lambda: ops.UniformInt()((2,), 3, 3), ValueError,
                       r"UniformInt: 'minval' must be less than 'maxval', but got minval=3 and maxval=3"),
                      (lambda: ops.UniformInt()((2,), 0, 2**40), ValueError,
                       r"UniformInt: 'minval' and 'maxval' must bound Int32 values"),
                      (lambda: ops.UniformInt()((2,), ms.Tensor(5, ms.int32), ms.Tensor(-1, ms.int64)), ValueError,
                       r"UniformInt: 'minval' must be less than 'maxval', but got minval=5 and maxval=-1"),
                      (lambda: ops.UniformInt()((2,), ms.Tensor(0.0), ms.Tensor(3, ms.int32)), TypeError,
                       r"UniformInt: 'minval' must be an Int32 or Int64 tensor \(or an int\), but got "
                       r"Tensor\[Float32\]\(\)"),
                      (lambda: ops.UniformInt()((2,), 0, ms.Tensor([3, 4], ms.int32)), ValueError,
                       r"UniformInt: 'maxval' must be a 0-d tensor \(a scalar\), but got shape \(2,\)"),
                      (lambda: ops.UniformInt()((2,), 0.5, 3), TypeError,
                       r"UniformInt: 'minval' must be an int or a 0-d Int32/Int64 Tensor, but got float 0.5")]),
        # MindSpore's form: 0-d Int32 tensors as bounds (Int64 too).
        OpRecord("UniformInt", lambda s=_shape: ops.UniformInt(3, 7)(s, ms.Tensor(-5, ms.int32), ms.Tensor(3, ms.int32)),
                 _spec(_shape, ms.int32), NO_INPUTS, (ms.int32,), random=True,
                 support=lambda y: ((y >= -5) & (y < 3)).all()),
        OpRecord("UniformInt", lambda s=_shape: ops.UniformInt(3, 7)(s, ms.Tensor(2**31 - 2, ms.int64),
                                                                        ms.Tensor(2**31 - 1, ms.int64)),
                 _spec(_shape, ms.int32), NO_INPUTS, (ms.int32,), random=True, support=lambda y: (y == 2**31 - 2).all()),
    ]

RECORDS += [
    OpRecord("Bernoulli", lambda x, p: ops.Bernoulli(11, 2)(x, p), lambda x, p: (x.shape, x.dtype),
             [((4, 5), ()), ((4, 5), (5,)), ((3, 4), (3, 4)), ((), ()), ((0, 3), ())],
             FLOAT_DTYPES, input_dtypes=(None, ms.float64), sampler=_bernoulli_sampler, random=True,
             support=_bernoulli_support,
             bad=[(lambda: ops.Bernoulli()(ms.Tensor([1.0, 2.0]), ms.Tensor([1.5])), ValueError,
                   r"Bernoulli: 'p' must hold probabilities in \[0, 1\], but element 0 is 1.5"),
                  (lambda: ops.Bernoulli()(ms.Tensor(np.ones((2, 1))), ms.Tensor(np.ones((2, 3)))), ValueError,
                   r"Bernoulli: 'p' must broadcast to the shape of 'x' \(2, 1\), but got shape \(2, 3\)"),
                  (lambda: ops.Bernoulli()(ms.Tensor([1.0]), ms.Tensor([1], ms.int32)), TypeError,
                   r"Bernoulli: 'p' must be a floating-point tensor"),
                  (lambda: ops.Bernoulli(-2)(ms.Tensor([1.0]), ms.Tensor(0.5)), ValueError,
                   r"Bernoulli: 'seed' must be -1 \(random\) or non-negative, but got -2")]),
    OpRecord("Bernoulli", lambda x, p: ops.Bernoulli(11, 2)(x, p), lambda x, p: (x.shape, x.dtype),
             [((6,), (6,))], (ms.int32, ms.uint8), input_dtypes=(None, ms.float32), sampler=_bernoulli_sampler,
             random=True, support=_bernoulli_support),
    OpRecord("Multinomial", lambda w: ops.Multinomial(5, 6)(w, 7), lambda w: (w.shape[:-1] + (7,), ms.int32),
             [((4,),), ((3, 5),)], FLOAT_DTYPES, sampler=_weights_sampler, random=True, support=_multinomial_support,
             bad=[(lambda: ops.Multinomial()(ms.Tensor([[-1.0, 2.0]]), 2), ValueError,
                   r"Multinomial: row 0 has weight -1 at category 0; weights must be finite and non-negative"),
                  (lambda: ops.Multinomial()(ms.Tensor([0.0, 0.0]), 2), ValueError,
                   r"Multinomial: row 0 has no positive weight"),
                  (lambda: ops.Multinomial()(ms.Tensor([1.0, 2.0]), 0), ValueError,
                   r"Multinomial: 'num_samples' must be positive, but got 0"),
                  (lambda: ops.Multinomial(dtype=ms.int16)(ms.Tensor([1.0]), 1), TypeError,
                   r"Multinomial: 'dtype' must be Int32 or Int64, but got Int16"),
                  (lambda: ops.Multinomial()(ms.Tensor(np.ones((2, 2, 2))), 1), ValueError,
                   r"Multinomial: 'x' must be 1-d or 2-d, but got shape \(2, 2, 2\)")]),
    OpRecord("Multinomial", lambda w: ops.Multinomial(5, 6, ms.int64)(w, 3), lambda w: ((2, 3), ms.int64),
             [((2, 4),)], (ms.float32,), sampler=_weights_sampler, random=True, support=_multinomial_support),
    OpRecord("RandomCategorical", lambda x: ops.RandomCategorical()(x, 6, 9), lambda x: ((x.shape[0], 6), ms.int64),
             [((3, 4),), ((1, 1),), ((0, 3),)], FLOAT_DTYPES, random=True,
             support=lambda x, y: ((y >= 0) & (y < x.shape[1])).all(),
             bad=[(lambda: ops.RandomCategorical()(ms.Tensor([1.0, 2.0]), 2, 1), ValueError,
                   r"RandomCategorical: 'logits' must be 2-d \(batch, classes\), but got shape \(2,\)"),
                  (lambda: ops.RandomCategorical(ms.float32)(ms.Tensor([[1.0]]), 2, 1), TypeError,
                   r"RandomCategorical: 'dtype' must be Int16, Int32 or Int64, but got Float32"),
                  (lambda: ops.RandomCategorical()(ms.Tensor([[-np.inf, -np.inf]]), 2, 1), ValueError,
                   r"RandomCategorical: row 0 of 'logits' has no finite maximum")]),
    OpRecord("RandomCategorical", lambda x: ops.RandomCategorical(ms.int16)(x, 2, 9), lambda x: ((2, 2), ms.int16),
             [((2, 3),)], (ms.float32,), random=True),
    OpRecord("Randperm", lambda n: ops.Randperm(9, -1, ms.int32, 5, 1)(n), lambda n: ((9,), ms.int32), [((1,),)],
             (ms.int64, ms.int32), sampler=_n_sampler(6), random=True, support=_randperm_support(9, -1),
             bad=[(lambda: ops.Randperm(3)(ms.Tensor([4])), ValueError,
                   r"Randperm: 'n' must be in \[0, max_length = 3\], but got 4"),
                  (lambda: ops.Randperm(3)(ms.Tensor([1.0])), TypeError,
                   r"Randperm: 'n' must be an integer tensor of one element, but got Tensor\[Float32\]\(1,\)"),
                  (lambda: ops.Randperm(300, dtype=ms.int8)(ms.Tensor([300])), ValueError,
                   r"Randperm: 'n' = 300 does not fit in 'dtype' Int8"),
                  (lambda: ops.Randperm(3, dtype=ms.float32)(ms.Tensor([3])), TypeError,
                   r"Randperm: 'dtype' must be an integer dtype, but got Float32")]),
    OpRecord("Randperm", lambda n: ops.Randperm(4, 7, ms.uint8, 5, 1)(n), lambda n: ((4,), ms.uint8), [((),)],
             (ms.int32,), sampler=_n_sampler(0), random=True, support=_randperm_support(4, 7)),
    OpRecord("RandomShuffle", lambda x: ops.RandomShuffle(2, 3)(x), lambda x: (x.shape, x.dtype),
             [((6, 3),), ((40,),), ((),), ((0, 2),), ((5, 2, 2),)], FLOAT_DTYPES + (ms.int32,), random=True,
             support=_rows_permuted,
             bad=[(lambda: ops.RandomShuffle(-1)(ms.Tensor([1.0])), ValueError,
                   r"RandomShuffle: 'seed' and 'seed2' must be non-negative")]),
]
