"""The LSTM of MindSpore's ops.LSTM primitive: every weight packed in one tensor, laid out as its CPU kernel
reads it. Each layer and direction runs as nn.LSTM's do: one MatMul projects the whole sequence, then one
LSTMRecurrence op takes the steps (Note [The recurrence as one op] in src/ops/nn_rnn_sequence.cc)."""
from sprout.common import dtype as mstype
from sprout.ops.function._prims import prim
from sprout.ops.function.array_func import concat, reshape


def lstm_weight_size(input_size, hidden_size, num_layers, has_bias, bidirectional):
    """Elements of the packed weight: per layer and direction w_ih (4H, in), w_hh (4H, H) and, with biases,
    two vectors of 4H."""
    directions = 2 if bidirectional else 1
    total = 0
    for layer in range(num_layers):
        layer_input = input_size if layer == 0 else hidden_size * directions
        total += directions * 4 * hidden_size * (layer_input + hidden_size + (2 if has_bias else 0))
    return total


def _unpack(w, input_size, hidden_size, num_layers, has_bias, directions):
    """{(layer, direction): (w_ih, w_hh, bias or None)} from the packed weight. The CPU kernel's order: every
    w_ih (layer-major, then direction), then every w_hh, then one gate bias per layer and direction; the
    second block of biases the size counts is not read (MindSpore's CPU kernel ignores it too)."""
    flat = reshape(w, (-1,))
    offset = [0]

    def take(shape):
        count = 1
        for s in shape:
            count *= s
        piece = prim("Slice")(flat, (offset[0],), (count,))
        offset[0] += count
        return reshape(piece, shape)

    gates = 4 * hidden_size
    keys = [(layer, d) for layer in range(num_layers) for d in range(directions)]
    w_ih = {(layer, d): take((gates, input_size if layer == 0 else hidden_size * directions)) for layer, d in keys}
    w_hh = {key: take((gates, hidden_size)) for key in keys}
    bias = {key: take((gates,)) if has_bias else None for key in keys}
    return {key: (w_ih[key], w_hh[key], bias[key]) for key in keys}


def lstm_packed(x, h, c, w, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout):
    """(output, h_n, c_n) of a sequence-first LSTM: x (T, B, input_size), h and c (layers * directions, B, H)."""
    directions = 2 if bidirectional else 1
    params = _unpack(w, input_size, hidden_size, num_layers, has_bias, directions)
    steps, batch = x.shape[0], x.shape[1]
    layer_input, h_n, c_n = x, [], []
    for layer in range(num_layers):
        outputs = []
        for d in range(directions):
            w_ih, w_hh, bias = params[layer, d]
            k = layer * directions + d
            gates = prim("MatMul", transpose_b=True)(reshape(layer_input, (steps * batch, w_ih.shape[1])), w_ih)
            if bias is not None:
                gates = gates + bias
            gates = reshape(gates, (steps, batch, 4 * hidden_size))
            seq, cells, _ = prim("LSTMRecurrence", reverse=bool(d))(gates, h[k], c[k], w_hh)
            last = 0 if d else steps - 1
            outputs.append(seq)
            h_n.append(seq[last])
            c_n.append(cells[last])
        layer_input = concat(outputs, -1) if directions == 2 else outputs[0]
        if dropout > 0 and layer < num_layers - 1:
            layer_input = prim("Dropout", keep_prob=1.0 - dropout)(layer_input)[0]
    stack = prim("Stack", axis=0)
    return layer_input, stack(tuple(h_n)), stack(tuple(c_n))


__all__ = []
