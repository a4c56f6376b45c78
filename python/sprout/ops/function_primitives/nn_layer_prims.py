"""MindSpore's layer Primitive classes over functional ops: Conv3DTranspose (ops.conv3d_transpose's body)
and LSTM (the packed-weight LSTM of its CPU kernel)."""
from sprout.common.tensor import Tensor
from sprout.ops.function import nn_conv3d_transpose_func as _conv
from sprout.ops.function import nn_rnn_packed_func as _rnn
from sprout.ops.function.array_func import _tensor
from sprout.ops.function_primitives._attr_checks import check_bool, check_int
from sprout.ops.primitive import Primitive, prim_attr_register

__all__ = ["Conv3DTranspose", "LSTM"]


class Conv3DTranspose(Primitive):
    """``Conv3DTranspose(in_channel, out_channel, kernel_size, mode=1, pad_mode='valid', pad=0, stride=1,
    dilation=1, group=1, output_padding=0, data_format='NCDHW')(dout, weight, bias=None)``: the transposed 3-d
    convolution of dout (N, in_channel, D, H, W) with weight (in_channel, out_channel // group, kd, kh, kw);
    output_padding only with pad_mode 'pad'."""

    @prim_attr_register
    def __init__(self, in_channel, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1, dilation=1,
                 group=1, output_padding=0, data_format="NCDHW"):
        api = "Conv3DTranspose"
        check_int(api, "in_channel", in_channel, 1)
        check_int(api, "out_channel", out_channel, 1)
        check_int(api, "group", group, 1)
        if in_channel % group or out_channel % group:
            raise ValueError(f"{api}: 'in_channel' ({in_channel}) and 'out_channel' ({out_channel}) must be divisible "
                             f"by 'group' ({group})")
        if pad_mode not in ("same", "valid", "pad"):
            raise ValueError(f"{api}: 'pad_mode' must be 'same', 'valid' or 'pad', but got {pad_mode!r}")
        if data_format != "NCDHW":
            raise ValueError(f"{api}: 'data_format' must be 'NCDHW', but got {data_format!r}")
        self._kernel = _conv._triple(api, "kernel_size", kernel_size, 1)
        self._pads = _conv._pads(api, pad_mode, pad)
        self._stride, self._dilation = _conv._triple(api, "stride", stride, 1), _conv._triple(api, "dilation",
                                                                                               dilation, 1)
        self._output_padding = _conv._triple(api, "output_padding", output_padding, 0)
        if pad_mode != "pad" and any(self._output_padding):
            raise ValueError(f"{api}: 'output_padding' must be 0 when 'pad_mode' is not 'pad', but got "
                             f"{output_padding!r} with pad_mode {pad_mode!r}")
        if any(p >= max(s, d) for p, s, d in zip(self._output_padding, self._stride, self._dilation)):
            raise ValueError(f"{api}: 'output_padding' {output_padding!r} must be smaller than the stride or the "
                             f"dilation")
        self.init_prim_io_names(["dout", "weight", "bias"], ["output"])

    def __call__(self, dout, weight, bias=None):
        api = "Conv3DTranspose"
        if bias is not None:
            raise ValueError(f"{api}: 'bias' must be None (MindSpore's Conv3DTranspose takes no bias), but got a "
                             f"{type(bias).__name__}")
        x, w = _tensor(dout, api, "dout"), _tensor(weight, api, "weight")
        expected = (self.in_channel, self.out_channel // self.group) + self._kernel
        if tuple(w.shape) != expected:
            raise ValueError(f"{api}: 'weight' must have shape (in_channel, out_channel // group, kd, kh, kw) = "
                             f"{expected}, but got {w.shape}")
        return _conv.transposed_conv3d(api, x, w, self.pad_mode, self._pads, self._stride, self._dilation,
                                       self.group, self._output_padding)


class LSTM(Primitive):
    """``LSTM(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0)(input, h, c,
    w)``: (output, h_n, c_n, reserve, state) of a sequence-first LSTM, gates in the order i, f, g, o.

    `w` packs every weight as MindSpore's CPU kernel reads it: each layer's and direction's w_ih (4H, in)
    (layer-major), then each w_hh (4H, H), then, with has_bias, one bias of 4H per layer and direction and a
    second such block, which the kernel does not read (so neither does this). Its size must be
    sum over layers and directions of 4H (in + H + 2 with has_bias). reserve and state are the kernel's
    workspace and random state: (1, 1) zeros here. dropout applies between layers, at every call."""

    @prim_attr_register
    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout, proj_size=0):
        api = "LSTM"
        check_int(api, "input_size", input_size, 1)
        check_int(api, "hidden_size", hidden_size, 1)
        check_int(api, "num_layers", num_layers, 1)
        check_bool(api, "has_bias", has_bias)
        check_bool(api, "bidirectional", bidirectional)
        if isinstance(dropout, bool) or not isinstance(dropout, float):
            raise TypeError(f"{api}: 'dropout' must be a float, but got {dropout!r}")
        if not 0.0 <= dropout <= 1.0:
            raise ValueError(f"{api}: 'dropout' must be in [0.0, 1.0], but got {dropout}")
        check_int(api, "proj_size", proj_size, 0)
        if proj_size >= hidden_size:
            raise ValueError(f"{api}: 'proj_size' must be in [0, hidden_size = {hidden_size}), but got {proj_size}")
        if proj_size > 0:
            raise ValueError(f"{api}: 'proj_size' > 0 (projected hidden states) is not supported, but got {proj_size}")
        self.init_prim_io_names(["x", "hx", "cx", "w"], ["y", "hy", "cy", "reserve", "state"])

    def __call__(self, input, h, c, w):
        api = "LSTM"
        x, h, c, w = (_tensor(v, api, name) for v, name in ((input, "input"), (h, "h"), (c, "c"), (w, "w")))
        directions = 2 if self.bidirectional else 1
        if x.ndim != 3 or x.shape[2] != self.input_size:
            raise ValueError(f"{api}: 'input' must be (seq_len, batch_size, {self.input_size}), but got {x.shape}")
        state = (self.num_layers * directions, x.shape[1], self.hidden_size)
        for name, value in (("h", h), ("c", c)):
            if tuple(value.shape) != state:
                raise ValueError(f"{api}: '{name}' must have shape (num_directions * num_layers, batch_size, "
                                 f"hidden_size) = {state}, but got {value.shape}")
        size = _rnn.lstm_weight_size(self.input_size, self.hidden_size, self.num_layers, self.has_bias,
                                     self.bidirectional)
        count = 1
        for s in w.shape:
            count *= s
        if count != size:
            raise ValueError(f"{api}: 'w' must hold {size} elements for these sizes, but got shape {w.shape}")
        if x.dtype != w.dtype or h.dtype != x.dtype or c.dtype != x.dtype:
            raise TypeError(f"{api}: 'input', 'h', 'c' and 'w' must share a dtype, but got {x.dtype}, {h.dtype}, "
                            f"{c.dtype} and {w.dtype}")
        output, h_n, c_n = _rnn.lstm_packed(x, h, c, w, self.input_size, self.hidden_size, self.num_layers,
                                            self.has_bias, self.bidirectional, self.dropout)
        workspace = Tensor(shape=(1, 1), dtype=x.dtype, init="zeros")
        return output, h_n, c_n, workspace, workspace
