"""Attention and Transformer layers (``mindspore.nn.MultiheadAttention``, ``TransformerEncoderLayer`` ...)."""
import copy
import math

import numpy as np

from sprout import ops
from sprout.common import dtype as mstype
from sprout.common.initializer import XavierUniform, initializer
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor
from sprout.nn.cell import Cell
from sprout.nn.layer.activation import get_activation
from sprout.nn.layer.basic import Dense
from sprout.nn.layer.container import CellList
from sprout.nn.layer.dropout import Dropout
from sprout.nn.layer.normalization import LayerNorm


_split_qkv = ops.Split(axis=2, output_num=3)


class MultiheadAttention(Cell):
    """Multi-head attention over (L, N, E) inputs (or (N, L, E) with batch_first).

    construct returns (output, weights): weights are averaged over heads unless average_attn_weights is
    False, and None when need_weights is False.
    """

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False, add_zero_attn=False,
                 kdim=None, vdim=None, batch_first=False, dtype=mstype.float32):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError(f"MultiheadAttention: 'embed_dim' ({embed_dim}) must be divisible by 'num_heads' "
                             f"({num_heads})")
        if add_bias_kv or add_zero_attn or (kdim not in (None, embed_dim)) or (vdim not in (None, embed_dim)):
            raise ValueError("MultiheadAttention: add_bias_kv, add_zero_attn and kdim/vdim != embed_dim are not "
                             "supported")
        self.embed_dim, self.num_heads, self.head_dim = embed_dim, num_heads, embed_dim // num_heads
        self.dropout, self.batch_first = dropout, batch_first
        self.in_proj_weight = Parameter(initializer(XavierUniform(), (3 * embed_dim, embed_dim), dtype),
                                        name="in_proj_weight")
        self.in_proj_bias = Parameter(initializer("zeros", (3 * embed_dim,), dtype), name="in_proj_bias") \
            if has_bias else None
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias, dtype=dtype)

    def _project(self, x, part=None):
        """x (N, L, E) projected onto q, k or v (part 0, 1, 2) or onto all three (None), bias included."""
        e = self.embed_dim
        w, b = self.in_proj_weight, self.in_proj_bias
        if part is not None:
            w, b = w[part * e:(part + 1) * e], (b[part * e:(part + 1) * e] if b is not None else None)
        out = ops.matmul(x, w.T)
        return out + b if b is not None else out

    def _heads(self, x, length, batch):  # (N, L, E) -> (N, H, L, D)
        return ops.transpose(x.reshape(batch, length, self.num_heads, self.head_dim), (0, 2, 1, 3))

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                  average_attn_weights=True, is_causal=False):
        # Self-attention (one tensor for query, key and value) projects onto q, k, v in one product.
        self_attention = query is key and key is value
        # Batch-major inside: (N, L, E) views, so that splitting into heads reshapes without a copy when
        # the input is batch first.
        if not self.batch_first:
            query, key, value = (ops.transpose(t, (1, 0, 2)) for t in (query, key, value))
        batch, length, e = query.shape
        if e != self.embed_dim:
            raise ValueError(f"MultiheadAttention: the query's feature size is {e}, expected {self.embed_dim}")
        source = key.shape[1]
        if self_attention:
            qkv = self._project(query).reshape(batch, length, 3, self.num_heads, self.head_dim)
            # Split's views: the three gradients join in one concatenation.
            q, k, v = (ops.transpose(ops.squeeze(t, 2), (0, 2, 1, 3)) for t in _split_qkv(qkv))  # (N, H, L, D)
        else:
            q = self._heads(self._project(query, 0), length, batch)
            k = self._heads(self._project(key, 1), source, batch)
            v = self._heads(self._project(value, 2), source, batch)
        scores = ops.matmul(q, ops.transpose(k, (0, 1, 3, 2))) * (1.0 / math.sqrt(self.head_dim))
        bias = np.zeros((batch, 1, length, source), np.float32)
        if is_causal:
            bias = bias + np.triu(np.full((length, source), -np.inf, np.float32), 1)
        if attn_mask is not None:
            m = attn_mask.asnumpy()
            m = np.where(m, -np.inf, 0.0) if m.dtype == np.bool_ else m  # True = not allowed (PyTorch rule)
            bias = bias + m.reshape((-1, self.num_heads, length, source) if m.ndim == 3 else (1, 1, length, source))
        if key_padding_mask is not None:
            m = key_padding_mask.asnumpy()
            m = np.where(m, -np.inf, 0.0) if m.dtype == np.bool_ else m
            bias = bias + m.reshape(batch, 1, 1, source)
        if bias.any():
            scores = scores + Tensor(bias.astype(np.float32), scores.dtype)
        weights = ops.softmax(scores, -1)
        if self.dropout and self.training:
            weights = ops.dropout(weights, p=self.dropout)
        out = ops.matmul(weights, v)  # (N, H, L, D)
        out = self.out_proj(ops.transpose(out, (0, 2, 1, 3)).reshape(batch, length, self.embed_dim))
        if not self.batch_first:
            out = ops.transpose(out, (1, 0, 2))
        if not need_weights:
            return out, None
        return out, (weights.mean(axis=1) if average_attn_weights else weights)


class _FeedForward(Cell):
    def __init__(self, d_model, dim_feedforward, dropout, activation, dtype):
        super().__init__()
        self.linear1 = Dense(d_model, dim_feedforward, dtype=dtype)
        self.linear2 = Dense(dim_feedforward, d_model, dtype=dtype)
        self.dropout = Dropout(p=dropout)
        self.activation = get_activation(activation) if isinstance(activation, str) else activation

    def construct(self, x):
        return self.linear2(self.dropout(self.activation(self.linear1(x))))


class TransformerEncoderLayer(Cell):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.ff = _FeedForward(d_model, dim_feedforward, dropout, activation, dtype)
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1, self.dropout2 = Dropout(p=dropout), Dropout(p=dropout)
        self.norm_first = norm_first

    def _sa(self, x, mask, padding, is_causal):
        return self.dropout1(self.self_attn(x, x, x, padding, False, mask, is_causal=is_causal)[0])

    def construct(self, src, src_mask=None, src_key_padding_mask=None, is_causal=False):
        x = src
        if self.norm_first:
            x = x + self._sa(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self.dropout2(self.ff(self.norm2(x)))
        x = self.norm1(x + self._sa(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self.dropout2(self.ff(x)))


class TransformerDecoderLayer(Cell):
    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu", layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=batch_first,
                                                 dtype=dtype)
        self.ff = _FeedForward(d_model, dim_feedforward, dropout, activation, dtype)
        self.norm1 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm2 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.norm3 = LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype)
        self.dropout1, self.dropout2, self.dropout3 = Dropout(p=dropout), Dropout(p=dropout), Dropout(p=dropout)
        self.norm_first = norm_first

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None, tgt_is_causal=False, memory_is_causal=False):
        def sa(x):
            return self.dropout1(self.self_attn(x, x, x, tgt_key_padding_mask, False, tgt_mask,
                                                is_causal=tgt_is_causal)[0])

        def ca(x):
            return self.dropout2(self.multihead_attn(x, memory, memory, memory_key_padding_mask, False, memory_mask,
                                                     is_causal=memory_is_causal)[0])

        x = tgt
        if self.norm_first:
            x = x + sa(self.norm1(x))
            x = x + ca(self.norm2(x))
            return x + self.dropout3(self.ff(self.norm3(x)))
        x = self.norm1(x + sa(x))
        x = self.norm2(x + ca(x))
        return self.norm3(x + self.dropout3(self.ff(x)))


class TransformerEncoder(Cell):
    """`num_layers` copies of `encoder_layer`, then an optional norm."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = CellList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.norm = norm

    def construct(self, src, mask=None, src_key_padding_mask=None, is_causal=False):
        for layer in self.layers:
            src = layer(src, mask, src_key_padding_mask, is_causal)
        return self.norm(src) if self.norm is not None else src


class TransformerDecoder(Cell):
    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = CellList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.norm = norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        for layer in self.layers:
            tgt = layer(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)
        return self.norm(tgt) if self.norm is not None else tgt


class Transformer(Cell):
    """An encoder-decoder Transformer: `num_encoder_layers` encoder layers and `num_decoder_layers` decoder
    layers, each stack followed by a LayerNorm (or `custom_encoder` / `custom_decoder` in their place).
    construct(src, tgt, ...) returns the decoder's output."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
                 dropout=0.1, activation="relu", custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
                 batch_first=False, norm_first=False, dtype=mstype.float32):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, dtype)
            self.encoder = TransformerEncoder(layer, num_encoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                                            batch_first, norm_first, dtype)
            self.decoder = TransformerDecoder(layer, num_decoder_layers,
                                              LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None, src_key_padding_mask=None,
                  tgt_key_padding_mask=None, memory_key_padding_mask=None):
        batch_axis = 0 if self.batch_first else 1
        if src.shape[batch_axis] != tgt.shape[batch_axis] or src.shape[-1] != self.d_model or \
                tgt.shape[-1] != self.d_model:
            raise ValueError(f"Transformer: 'src' and 'tgt' must share the batch size and have d_model = "
                             f"{self.d_model} features, but got shapes {src.shape} and {tgt.shape}")
        memory = self.encoder(src, src_mask, src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask)
