"""Checkpoints: ``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net`` (MindSpore 2.x).

The .ckpt format is MindSpore's protobuf format, read and written in C++ (src/io/checkpoint.cc);
``format="safetensors"`` writes the safetensors layout (8-byte header length, JSON header, raw data).
Both are written atomically. Loading into a network validates every parameter before changing any.
"""
import json
import os
import struct
import tempfile

import numpy as np

from sprout import _C
from sprout.common import dtype as mstype
from sprout.common.parameter import Parameter
from sprout.common.tensor import Tensor

_FORMATS = ("ckpt", "safetensors")


def _entries(save_obj, append_dict, choice_func):
    from sprout.nn.cell import Cell
    if isinstance(save_obj, Cell):
        items = [(p.name, p) for p in save_obj.get_parameters()]
    elif isinstance(save_obj, dict):
        items = list(save_obj.items())
    elif isinstance(save_obj, list):
        items = []
        for entry in save_obj:
            if isinstance(entry, Parameter):
                items.append((entry.name, entry))
            elif isinstance(entry, dict) and {"name", "data"} <= set(entry):
                items.append((entry["name"], entry["data"]))
            else:
                raise TypeError("save_checkpoint: a list 'save_obj' must hold Parameters or dicts "
                                "{'name': str, 'data': Tensor}")
    else:
        raise TypeError(f"save_checkpoint: 'save_obj' must be a Cell, list or dict, but got {type(save_obj).__name__}")
    for key, value in (append_dict or {}).items():
        if isinstance(value, bool):
            value = Tensor(value)
        elif isinstance(value, int):
            value = Tensor(value, mstype.int64)
        elif isinstance(value, float):
            value = Tensor(value, mstype.float32)
        elif not isinstance(value, (str, Tensor)):
            raise TypeError(f"save_checkpoint: append_dict['{key}'] must be int, float, bool, str or Tensor, "
                            f"but got {type(value).__name__}")
        items.append((key, value))
    out = []
    for name, value in items:
        if not isinstance(name, str):
            raise TypeError(f"save_checkpoint: parameter names must be str, but got {name!r}")
        if choice_func is not None and not choice_func(name):
            continue
        if not isinstance(value, (Tensor, str)):
            value = Tensor(value)
        out.append((name, value))
    return out


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False, append_dict=None,
                    enc_key=None, enc_mode="AES-GCM", choice_func=None, crc_check=False, format="ckpt", **kwargs):
    """Saves the parameters of a Cell (or a list/dict of named tensors) to `ckpt_file_name`."""
    if format not in _FORMATS:
        raise ValueError(f"save_checkpoint: 'format' must be one of {_FORMATS}, but got {format!r}")
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"save_checkpoint: 'ckpt_file_name' must be a str, but got {type(ckpt_file_name).__name__}")
    if enc_key is not None:
        raise ValueError("save_checkpoint: encryption (enc_key) is not supported by Sprout")
    path = os.path.realpath(ckpt_file_name)
    if os.path.isdir(path):
        raise IsADirectoryError(f"save_checkpoint: '{ckpt_file_name}' is a directory; give a file name")
    if not path.endswith("." + format):
        path += "." + format
    entries = _entries(save_obj, append_dict, choice_func)
    if format == "ckpt":
        _C.save_checkpoint_file(path, entries, bool(crc_check))
    else:
        _save_safetensors(path, entries)


def _load_entries(path, crc_check, format):
    if format == "ckpt":
        return _C.load_checkpoint_file(path, bool(crc_check))
    return _load_safetensors(path)


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None, crc_check=False, format="ckpt"):
    """A dict of name -> Parameter from the file; loaded into `net` too when given."""
    if format not in _FORMATS:
        raise ValueError(f"load_checkpoint: 'format' must be one of {_FORMATS}, but got {format!r}")
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"load_checkpoint: 'ckpt_file_name' must be a str, but got {type(ckpt_file_name).__name__}")
    if dec_key is not None:
        raise ValueError("load_checkpoint: decryption (dec_key) is not supported by Sprout")
    filters = (filter_prefix,) if isinstance(filter_prefix, str) else tuple(filter_prefix or ())
    specify = (specify_prefix,) if isinstance(specify_prefix, str) else tuple(specify_prefix or ())
    params = {}
    for name, value in _load_entries(ckpt_file_name, crc_check, format):
        if any(name.startswith(f) for f in filters):
            continue
        if specify and not any(name.startswith(s) for s in specify):
            continue
        if choice_func is not None and not choice_func(name):
            continue
        params[name] = value if isinstance(value, str) else Parameter(value, name=name)
    if net is not None:
        load_param_into_net(net, params, strict_load)
    return params


def load_param_into_net(net, parameter_dict, strict_load=False):
    """Copies matching entries into `net`'s parameters. Returns (params not loaded, checkpoint entries not used).

    Every shape (and, with strict_load, dtype) is checked before any parameter changes, so a bad
    checkpoint leaves the network as it was.
    """
    from sprout.nn.cell import Cell
    if not isinstance(net, Cell):
        raise TypeError(f"load_param_into_net: 'net' must be a Cell, but got {type(net).__name__}")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"load_param_into_net: 'parameter_dict' must be a dict, but got {type(parameter_dict).__name__}")
    plan, not_loaded = [], []
    for param in net.get_parameters():
        if param.name not in parameter_dict:
            not_loaded.append(param.name)
            continue
        new = parameter_dict[param.name]
        if not isinstance(new, Tensor):
            raise TypeError(f"load_param_into_net: the value of '{param.name}' must be a Tensor or Parameter, "
                            f"but got {type(new).__name__}")
        if tuple(new.shape) != tuple(param.shape):
            raise RuntimeError(f"load_param_into_net: '{param.name}' has shape {tuple(new.shape)} in the checkpoint "
                               f"but {tuple(param.shape)} in the network; nothing was loaded")
        if new.dtype != param.dtype:
            both_float = mstype.is_floating_type(new.dtype) and mstype.is_floating_type(param.dtype)
            if strict_load or not both_float:
                raise RuntimeError(f"load_param_into_net: '{param.name}' is {new.dtype} in the checkpoint but "
                                   f"{param.dtype} in the network; nothing was loaded")
        plan.append((param, new))
    for param, new in plan:
        param._assign_value(new.astype(param.dtype, copy=False))
    used = {p.name for p, _ in plan}
    ckpt_not_loaded = [k for k in parameter_dict if k not in used]
    if strict_load and not_loaded:
        raise RuntimeError(f"load_param_into_net: strict_load=True but the checkpoint has no value for {not_loaded}")
    return not_loaded, ckpt_not_loaded


# --- safetensors ------------------------------------------------------------------------------------
_ST_TYPES = {mstype.float16: "F16", mstype.bfloat16: "BF16", mstype.float32: "F32", mstype.float64: "F64",
             mstype.int8: "I8", mstype.int16: "I16", mstype.int32: "I32", mstype.int64: "I64",
             mstype.uint8: "U8", mstype.bool_: "BOOL"}
_ST_FROM = {v: k for k, v in _ST_TYPES.items()}


def _tensor_bytes(t):
    if t.dtype == mstype.bfloat16:  # NumPy has no bfloat16: bfloat16 is the upper half of a float32
        return (t.astype(mstype.float32).asnumpy().view(np.uint32) >> 16).astype(np.uint16).tobytes()
    return np.ascontiguousarray(t.asnumpy()).tobytes()


def _save_safetensors(path, entries):
    header, blobs, offset = {"__metadata__": {"format": "ms"}}, [], 0
    for name, value in entries:
        if isinstance(value, str):
            header["__metadata__"][name] = value
            continue
        data = _tensor_bytes(value)
        header[name] = {"dtype": _ST_TYPES[value.dtype], "shape": list(value.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(struct.pack("<Q", len(text)))
            f.write(text)
            for b in blobs:
                f.write(b)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _load_safetensors(path):
    if not os.path.isfile(path):
        raise ValueError(f"load_checkpoint: safetensors file '{path}' does not exist")
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 8:
        raise ValueError(f"load_checkpoint: safetensors file '{path}' is truncated")
    (n,) = struct.unpack("<Q", raw[:8])
    try:
        header = json.loads(raw[8:8 + n])
    except ValueError:
        raise ValueError(f"load_checkpoint: safetensors file '{path}' has a corrupt header") from None
    body = raw[8 + n:]
    out = []
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        dtype = _ST_FROM.get(info["dtype"])
        if dtype is None:
            raise ValueError(f"load_checkpoint: '{name}' in '{path}' has unsupported dtype {info['dtype']}")
        if end > len(body):
            raise ValueError(f"load_checkpoint: '{name}' in '{path}' extends past the end of the file (truncated)")
        buf = body[start:end]
        if dtype == mstype.bfloat16:
            arr = (np.frombuffer(buf, np.uint16).astype(np.uint32) << 16).view(np.float32).reshape(info["shape"])
        else:
            arr = np.frombuffer(buf, mstype.dtype_to_nptype(dtype)).reshape(info["shape"])
        out.append((name, Tensor(arr, dtype)))
    return out
