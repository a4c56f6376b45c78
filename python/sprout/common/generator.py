"""MindSpore 2.x random generators: ``ms.Generator`` objects and the default generator behind ``ms.manual_seed``,
``ms.seed``, ``ms.initial_seed``, ``ms.get_rng_state`` and ``ms.set_rng_state``.

Sprout's random ops draw the seeds of their primitives from one NumPy generator, the global one of
common/seed.py (Note [Random ops] in src/ops/random.h). A Generator is such a NumPy generator with the seed it
was started from; the default generator *is* the global one, so ``ms.manual_seed(s)`` reseeds what every
random op, initializer and dropout draws from (as ``ms.set_seed`` does, without setting get_seed() or the
dataset seed). A random op given ``generator=g`` draws from g's generator instead (``drawing_from``).

A state is a UInt8 tensor (MindSpore's is too, 16 bytes of seed and offset): the initial seed as 17 bytes and
the PCG64 bit generator's state, so set_state restores both what initial_seed() says and the numbers to come.
"""
import contextlib
import numbers
import secrets

import numpy as np

from sprout.common import dtype as mstype
from sprout.common import seed as _seed_module

_SEED_BYTES = 17     # the initial seed, two's complement: NumPy's entropy takes up to 128 bits, unsigned
_WORD_BYTES = 16     # PCG64's state and increment are 128-bit integers
_STATE_BYTES = _SEED_BYTES + 2 * _WORD_BYTES + 1 + 4  # + has_uint32 (1 byte) and uinteger (4 bytes)


def _check_seed(api, seed):
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"{api}: 'seed' must be an int, but got {type(seed).__name__}")
    return int(seed)


def _numpy_rng(seed):
    """A NumPy generator started from `seed`; negative seeds (MindSpore accepts them) as their 64-bit pattern."""
    return np.random.default_rng(seed if seed >= 0 else seed % 2**64)


def _encode(initial, rng):
    state = rng.bit_generator.state
    if state["bit_generator"] != "PCG64":
        raise RuntimeError(f"Generator: expected a PCG64 bit generator, but got {state['bit_generator']}")
    data = (int(initial).to_bytes(_SEED_BYTES, "little", signed=True)
            + state["state"]["state"].to_bytes(_WORD_BYTES, "little")
            + state["state"]["inc"].to_bytes(_WORD_BYTES, "little")
            + bytes([int(state["has_uint32"])])
            + int(state["uinteger"]).to_bytes(4, "little"))
    from sprout.common.tensor import Tensor
    return Tensor(np.frombuffer(data, np.uint8).copy(), mstype.uint8)


def _decode(api, state):
    """(initial seed, a NumPy generator in that state) from a tensor get_state gave."""
    from sprout.common.tensor import Tensor
    if not isinstance(state, Tensor):
        raise TypeError(f"{api}: 'state' must be a Tensor returned by get_state(), but got {type(state).__name__}")
    if state.dtype != mstype.uint8 or state.shape != (_STATE_BYTES,):
        raise ValueError(f"{api}: 'state' must be a UInt8 tensor of shape ({_STATE_BYTES},) as get_state() returns, "
                         f"but got a {state.dtype} tensor of shape {state.shape}")
    data = bytes(state.asnumpy())
    at = 0

    def take(n, signed=False):
        nonlocal at
        value = int.from_bytes(data[at:at + n], "little", signed=signed)
        at += n
        return value

    initial = take(_SEED_BYTES, signed=True)
    words = {"state": take(_WORD_BYTES), "inc": take(_WORD_BYTES)}
    has_uint32, uinteger = take(1), take(4)
    rng = _numpy_rng(initial)
    rng.bit_generator.state = {"bit_generator": "PCG64", "state": words, "has_uint32": has_uint32,
                               "uinteger": uinteger}
    return initial, rng


class Generator:
    """A random number generator with its own state: ``manual_seed``, ``seed``, ``initial_seed``, ``get_state``,
    ``set_state``. Random ops that take ``generator=`` draw from it instead of the default generator. A new
    Generator starts from seed 0, as MindSpore's does."""

    def __init__(self):
        self._initial = 0
        self._own_rng = _numpy_rng(0)

    # The NumPy generator draws come from; the default generator's is the global one of common/seed.py.
    def _rng(self):
        return self._own_rng

    def _set_rng(self, initial, rng):
        self._initial, self._own_rng = initial, rng

    def manual_seed(self, seed):
        """Restarts the generator from `seed` (an int); returns the generator."""
        seed = _check_seed("Generator.manual_seed", seed)
        self._set_rng(seed, _numpy_rng(seed))
        return self

    def seed(self):
        """Restarts the generator from a seed taken from the operating system's entropy; returns that seed."""
        new_seed = secrets.randbits(63)
        self._set_rng(new_seed, _numpy_rng(new_seed))
        return new_seed

    def initial_seed(self):
        """The seed the generator was last started from."""
        return self._initial

    def get_state(self):
        """The generator's state, a UInt8 tensor to give to set_state."""
        return _encode(self.initial_seed(), self._rng())

    def set_state(self, state):
        """Puts the generator back in a state get_state returned."""
        self._set_rng(*_decode("Generator.set_state", state))


class _DefaultGenerator(Generator):
    """The generator random ops use when given none: a view of the global generator of common/seed.py, which
    ms.set_seed also restarts (its initial seed is then set_seed's)."""

    def __init__(self):  # noqa: no state of its own
        self._seeded = None  # (the NumPy generator manual_seed/set_state made, the initial seed it reports)

    def _rng(self):
        return _seed_module._global_rng()

    def _set_rng(self, initial, rng):
        _seed_module._rng = rng
        self._seeded = (rng, initial)

    def initial_seed(self):
        rng = self._rng()
        if self._seeded is not None and self._seeded[0] is rng:
            return self._seeded[1]
        # Started by ms.set_seed(s) or unseeded at import: NumPy keeps the seed (or the entropy it drew).
        return int(rng.bit_generator.seed_seq.entropy)


# To its users it is a Generator like any other (repr, error messages).
_DefaultGenerator.__name__ = _DefaultGenerator.__qualname__ = "Generator"
default_generator = _DefaultGenerator()


def _check_generator(api, generator):
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError(f"{api}: 'generator' must be None or a mindspore.Generator, but got "
                        f"{type(generator).__name__}")


@contextlib.contextmanager
def drawing_from(api, generator):
    """Within the block, random ops draw their seeds from `generator` (None: the default generator)."""
    _check_generator(api, generator)
    if generator is None or generator is default_generator:
        yield
        return
    saved = _seed_module._rng
    _seed_module._rng = generator._rng()
    try:
        yield
    finally:
        _seed_module._rng = saved


def seed():
    """Restarts the default generator from a seed taken from the operating system; returns that seed."""
    return default_generator.seed()


def manual_seed(seed):
    """Restarts the default generator (what random ops and initializers draw from) from `seed`; returns it."""
    return default_generator.manual_seed(seed)


def initial_seed():
    """The seed the default generator was last started from."""
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state, a UInt8 tensor to give to set_rng_state."""
    return default_generator.get_state()


def set_rng_state(state):
    """Puts the default generator back in a state get_rng_state returned."""
    default_generator.set_state(state)


__all__ = ["Generator", "default_generator", "seed", "manual_seed", "initial_seed", "get_rng_state",
           "set_rng_state"]
