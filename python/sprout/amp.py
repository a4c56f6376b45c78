"""Mixed precision (``mindspore.amp``): loss-scale managers, build_train_network, auto and custom mixed
precision; the functional loss scalers are in amp_loss_scalers.py.

Levels (MindSpore's): O0 keeps float32; O1 runs the white-list cells (convolutions, Dense, the
recurrent cells: the matrix-product work) in float16 and hands float32 back to the rest; O2 runs the
network in float16, except the black list (batch and layer norms) in float32, with the loss in float32
and dynamic loss scaling; O3 runs everything in float16 without loss scaling. `dtype` may be bfloat16
instead. The Parameters stay float32: a cell run in half precision casts them as it uses them
(Cell._param_in_float_dtype), and their gradients come back float32.
"""
from sprout.amp_loss_scalers import DynamicLossScaler, LossScaler, StaticLossScaler, all_finite
from sprout.amp_loss_scalers import _scaled as _grad_scale_map, _unscaled as _grad_unscale_map  # noqa: F401
from sprout.common import dtype as mstype
from sprout.nn.cell import Cell
from sprout.nn.wrap.cell_wrapper import TrainOneStepCell, WithLossCell
from sprout.nn.wrap.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                                       TrainOneStepWithLossScaleCell)


class LossScaleManager:
    def get_update_cell(self):
        raise NotImplementedError(f"{type(self).__name__} must define get_update_cell()")


class FixedLossScaleManager(LossScaleManager):
    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        self.loss_scale, self.drop_overflow_update = loss_scale, drop_overflow_update

    def get_loss_scale(self):
        return self.loss_scale

    def get_update_cell(self):
        return FixedLossScaleUpdateCell(self.loss_scale) if self.drop_overflow_update else None


class DynamicLossScaleManager(LossScaleManager):
    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        self.loss_scale, self.scale_factor, self.scale_window = init_loss_scale, scale_factor, scale_window

    def get_loss_scale(self):
        return self.loss_scale

    def get_update_cell(self):
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


class _OutputToFloat32(Cell):
    def __init__(self, network):
        super().__init__(auto_prefix=False)
        self._network = network

    def construct(self, *inputs):
        out = self._network(*inputs)
        return out.astype(mstype.float32, copy=False)


def _white_list():
    from sprout import nn
    return tuple(getattr(nn, name) for name in ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose",
                                                "Conv3dTranspose", "Dense", "LSTMCell", "RNNCell", "GRUCell")
                 if hasattr(nn, name))


def _black_list():
    """Cells that O2 keeps in float32 (MindSpore's AMP_BLACK_LIST): their statistics need the range."""
    from sprout import nn
    return tuple(getattr(nn, name) for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")
                 if hasattr(nn, name))


def get_white_list():
    """The cells O1 runs in low precision (a copy: MindSpore's amp.get_white_list)."""
    return list(_white_list())


def get_black_list():
    """The cells O2 keeps in float32 (a copy: MindSpore's amp.get_black_list)."""
    return list(_black_list())


def custom_mixed_precision(network, *, white_list=None, black_list=None, dtype=mstype.float16):
    """Casts `network` in place and returns it: with white_list, the cells of those classes compute in
    `dtype` and hand float32 on (O1 with your list); with black_list, the whole network computes in `dtype`
    except cells of those classes, in float32 (O2 with your list). Exactly one of the two lists."""
    if (white_list is None) == (black_list is None):
        raise ValueError("custom_mixed_precision: give exactly one of 'white_list' and 'black_list'")
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"custom_mixed_precision: 'dtype' must be float16 or bfloat16, but got {dtype}")
    chosen = white_list if white_list is not None else black_list
    if not isinstance(chosen, (list, tuple)) or not all(isinstance(c, type) for c in chosen):
        raise TypeError(f"custom_mixed_precision: the list must hold Cell classes, but got {chosen!r}")
    if white_list is not None:
        _cast_cells(network, tuple(white_list), dtype, mstype.float32)
    else:
        network.to_float(dtype)
        _cast_cells(network, tuple(black_list), mstype.float32, dtype)
    return network


def _cast_cells(network, classes, compute_dtype, output_dtype):
    for _, cell in network.cells_and_names():
        if isinstance(cell, classes):
            cell.to_float(compute_dtype)
            object.__setattr__(cell, "_output_dtype", output_dtype)


def auto_mixed_precision(network, amp_level="O0", dtype=mstype.float16):
    """Casts `network` for `amp_level` in place and returns it (MindSpore's amp.auto_mixed_precision)."""
    if amp_level not in ("O0", "O1", "O2", "O3"):
        raise ValueError(f"auto_mixed_precision: 'amp_level' must be 'O0', 'O1', 'O2' or 'O3', but got {amp_level!r}")
    if amp_level == "O1":
        _cast_cells(network, _white_list(), dtype, mstype.float32)
    elif amp_level in ("O2", "O3"):
        network.to_float(dtype)
        if amp_level == "O2":  # the black list computes in float32 and hands `dtype` on
            _cast_cells(network, _black_list(), mstype.float32, dtype)
    return network


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0", **kwargs):
    """The training step for `network` at an amp level; loss_scale_manager in kwargs picks the scaling."""
    if level not in ("O0", "O1", "O2", "O3", "auto"):
        raise ValueError(f"build_train_network: 'level' must be 'O0', 'O1', 'O2', 'O3' or 'auto', but got {level!r}")
    level = "O2" if level == "auto" else level
    auto_mixed_precision(network, level)
    if level in ("O2", "O3"):
        network = _OutputToFloat32(network)
    if loss_fn is not None:
        network = WithLossCell(network, loss_fn)
    manager = kwargs.get("loss_scale_manager")
    if manager is None and level == "O2":
        manager = DynamicLossScaleManager()
    if manager is None or level == "O3":
        return TrainOneStepCell(network, optimizer)
    cell = manager.get_update_cell()
    if cell is None:  # a fixed scale that keeps overflowing steps: the optimizer divides by its own loss_scale,
        return TrainOneStepCell(network, optimizer, sens=float(manager.get_loss_scale()))  # as in MindSpore
    return TrainOneStepWithLossScaleCell(network, optimizer, cell)


__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager", "build_train_network",
           "auto_mixed_precision", "custom_mixed_precision", "get_white_list", "get_black_list", "LossScaler",
           "StaticLossScaler", "DynamicLossScaler", "all_finite"]
