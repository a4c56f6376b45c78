// Note [MindIR ops]
// MindSpore 2.x writes most ops as PRIMITIVE_FUNCTION nodes: the op's arguments follow its tensor
// inputs as constant inputs, in the order of MindSpore's operator definition (its generated
// gen_ops_prim.py: `MatMul(input, mat2, transpose_a, transpose_b)`), strings that name a choice as
// enum numbers (pad_mode 'valid' = 2, data_format 'NCHW' = 0) and dtypes as TypeId numbers (Float32 =
// 43). A few older ops (Conv2D, MaxPool) are PRIMITIVE nodes whose arguments are attributes of the
// PrimitiveProto, in MindSpore's own spelling (4-element strides, upper-case pad modes). Sprout's
// registry ops carry the same arguments as attributes, with MindSpore's names; the table below maps
// each argument both ways. Files written here load in MindSpore, and MindSpore's files load here, for
// the ops of the table (checked with MindSpore 2.10 by benchmarks/interop/mindspore_files.py).
#include "io/mindir_ops.h"

#include <algorithm>
#include <cctype>
#include <span>

#include "base/error.h"

namespace sprout::mindir {
namespace {

// How one argument is spelled in MindIR.
enum class Form : uint8_t {
  Plain,       // the attribute's own value (bool, int, float, tuple of ints)
  PadMode,     // 'pad' / 'same' / 'valid' as 0 / 1 / 2
  Format,      // 'NCHW' / 'NHWC' as 0 / 1
  TypeId,      // a dtype as its TypeId number
  Pair,        // a 2-d window: 1, 2 or 4 (N, C, H, W) entries written as (H, W)
  FixedFalse,  // no Sprout attribute: a MindSpore argument Sprout runs only as False (ReduceSum's skip_mode)
  FixedZero,   // the same for 0 (Gather's batch_dims)
  Pairs,       // a flat tuple of ints written as a tuple of pairs (Pad's paddings, ((0, 0), (1, 2)))
  Reduction,   // a loss's 'sum' / 'mean' / 'none' as 0 / 1 / 2
};

struct Arg {
  const char* attr;  // the Sprout attribute (the MindSpore argument's name too)
  Form form = Form::Plain;
};

struct OpEntry {
  const char* sprout;
  const char* mindspore;
  std::vector<Arg> args;   // constant inputs after the tensor inputs, in MindSpore's order
  bool function = true;    // else a PRIMITIVE op: the arguments are attributes of its PrimitiveProto
  std::vector<int> layout = {};  // arguments between the tensors (MindSporeCall::layout)
};

// The ops with a MindIR form (besides Conv2D and MaxPool below). Tensor-only ops have no arguments.
const std::vector<OpEntry>& function_ops() {
  static const std::vector<OpEntry> table = {
      {"Abs", "Abs", {}},           {"Add", "Add", {}},           {"Cos", "Cos", {}},
      {"Div", "Div", {}},           {"Equal", "Equal", {}},       {"Erf", "Erf", {}},
      {"Exp", "Exp", {}},           {"Flatten", "Flatten", {}},   {"Floor", "Floor", {}},
      {"GeLU", "GeLU", {}},         {"Greater", "Greater", {}},   {"HSwish", "HSwish", {}},
      {"Less", "Less", {}},         {"Log", "Log", {}},           {"Maximum", "Maximum", {}},
      {"Minimum", "Minimum", {}},   {"Mul", "Mul", {}},           {"Neg", "Neg", {}},
      {"Pow", "Pow", {}},           {"RealDiv", "RealDiv", {}},   {"ReLU", "ReLU", {}},
      {"ReLU6", "ReLU6", {}},       {"Rsqrt", "Rsqrt", {}},       {"Select", "Select", {}},
      {"SiLU", "SiLU", {}},         {"Sigmoid", "Sigmoid", {}},   {"Sin", "Sin", {}},
      {"Sqrt", "Sqrt", {}},         {"Square", "Square", {}},     {"Sub", "Sub", {}},
      {"Tanh", "Tanh", {}},         {"ZerosLike", "ZerosLike", {}},  {"AddN", "AddN", {}},
      {"Erfc", "Erfc", {}},         {"HSigmoid", "HSigmoid", {}},    {"Sign", "Sign", {}},
      {"Ceil", "Ceil", {}},         {"Cosh", "Cosh", {}},         {"Expm1", "Expm1", {}},
      {"FloorDiv", "FloorDiv", {}}, {"GreaterEqual", "GreaterEqual", {}},  {"IsFinite", "IsFinite", {}},
      {"IsInf", "IsInf", {}},       {"Lerp", "Lerp", {}},         {"LessEqual", "LessEqual", {}},
      {"Log1p", "Log1p", {}},       {"LogicalAnd", "LogicalAnd", {}},  {"LogicalNot", "LogicalNot", {}},
      {"LogicalOr", "LogicalOr", {}},  {"LogicalXor", "LogicalXor", {}},  {"MaskedFill", "MaskedFill", {}},
      {"NotEqual", "NotEqual", {}}, {"Reciprocal", "Reciprocal", {}},  {"Sinh", "Sinh", {}},
      {"Tan", "Tan", {}},
      {"Gcd", "Gcd", {}},           {"LeftShift", "LeftShift", {}},  {"RightShift", "RightShift", {}},
      {"BitwiseAnd", "BitwiseAnd", {}, false},  {"BitwiseOr", "BitwiseOr", {}, false},
      {"BitwiseXor", "BitwiseXor", {}, false},  {"Invert", "Invert", {}, false},  {"Lcm", "Lcm", {}, false},
      {"Softplus", "Softplus", {}, false},
      {"Lgamma", "Lgamma", {}, false},  {"Digamma", "Digamma", {}, false},  {"Erfinv", "Erfinv", {}},
      {"Cdist", "Cdist", {{"p"}}},  {"Trunc", "Trunc", {}},  {"Hypot", "Hypot", {}, false},
      {"NanToNum", "NanToNum", {{"nan"}, {"posinf"}, {"neginf"}}},
      {"Mish", "Mish", {}, false},
      {"Mul", "Muls", {}},  // MindSpore's tensor times a number (loaded only: Sprout writes Mul)
      {"Stack", "Stack", {{"axis"}}, false},
      {"LpNorm", "LpNorm", {{"axis"}, {"p"}, {"keep_dims"}, {"epsilon"}}, false},
      {"AdaptiveMaxPool2D", "AdaptiveMaxPool2D", {{"output_size"}}},
      {"ReduceAll", "ReduceAll", {{"axis"}, {"keep_dims"}}},
      {"ReduceAny", "ReduceAny", {{"axis"}, {"keep_dims"}}},
      {"ReduceMin", "ReduceMin", {{"axis"}, {"keep_dims"}}},
      {"ReverseV2", "ReverseV2", {{"axis"}}},
      {"Round", "Round", {{"decimals", Form::FixedZero}}},
      {"Pad", "Pad", {{"paddings", Form::Pairs}}, false},
      {"GatherElements", "GatherD", {{"dim"}}, true, {0, -1, 1}},
      {"BinaryCrossEntropy", "BinaryCrossEntropy", {{"reduction", Form::Reduction}}},
      {"BCEWithLogitsLoss", "BCEWithLogitsLoss", {{"reduction", Form::Reduction}}},
      {"NLLLoss", "NLLLoss", {{"reduction", Form::Reduction}, {"ignore_index"}}},
      {"SmoothL1Loss", "SmoothL1Loss", {{"beta"}, {"reduction", Form::Reduction}}},
      {"KLDivLoss", "KLDivLoss", {{"reduction"}}, false},
      {"OneHot", "OneHot", {{"depth"}, {"axis"}}, true, {0, -1, 1, 2, -2}},
      {"ResizeBilinearV2", "ResizeBilinearV2", {{"size"}, {"align_corners"}, {"half_pixel_centers"}}},
      {"Triu", "Triu", {{"diagonal"}}},
      {"AdaptiveAvgPool2D", "AdaptiveAvgPool2D", {{"output_size", Form::Pair}}, false},
      {"Argmax", "Argmax", {{"axis"}, {"output_type", Form::TypeId}}},
      {"BroadcastTo", "BroadcastTo", {{"shape"}}},
      {"Gather", "Gather", {{"axis"}, {"batch_dims", Form::FixedZero}}},
      {"ResizeNearestNeighbor", "ResizeNearestNeighbor",
       {{"size"}, {"align_corners"}, {"half_pixel_centers", Form::FixedFalse}}},
      {"Slice", "Slice", {{"begin"}, {"size"}}},
      {"Split", "Split", {{"axis"}, {"output_num"}}},
      {"StridedSlice", "StridedSlice", {{"begin"}, {"end"}, {"strides"}, {"begin_mask"}, {"end_mask"},
                                        {"ellipsis_mask"}, {"new_axis_mask"}, {"shrink_axis_mask"}}},
      {"Tile", "Tile", {{"multiples"}}},
      {"AvgPool", "AvgPool", {{"kernel_size", Form::Pair}, {"strides", Form::Pair}, {"pad_mode", Form::PadMode},
                              {"data_format", Form::Format}}},
      {"BatchMatMul", "BatchMatMul", {{"transpose_a"}, {"transpose_b"}}},
      {"BatchNorm", "BatchNorm", {{"is_training"}, {"epsilon"}, {"momentum"}, {"data_format", Form::Format}}},
      {"Cast", "Cast", {{"dst_type", Form::TypeId}}},
      {"Concat", "Concat", {{"axis"}}},
      {"Elu", "Elu", {{"alpha"}}},
      {"ExpandDims", "ExpandDims", {{"axis"}}},
      {"LayerNorm", "LayerNorm", {{"begin_norm_axis"}, {"begin_params_axis"}, {"epsilon"}}},
      {"GroupNorm", "GroupNorm", {{"num_groups"}, {"epsilon"}}, true, {0, -1, 1, 2, -2}},
      {"LogSoftmax", "LogSoftmax", {{"axis"}}},
      {"MatMul", "MatMul", {{"transpose_a"}, {"transpose_b"}}},
      {"ReduceMax", "ReduceMax", {{"axis"}, {"keep_dims"}}},
      {"ReduceMean", "ReduceMean", {{"axis"}, {"keep_dims"}}},
      {"ReduceSum", "ReduceSum", {{"axis"}, {"keep_dims"}, {"skip_mode", Form::FixedFalse}}},
      {"Reshape", "Reshape", {{"shape"}}},
      {"Softmax", "Softmax", {{"axis"}}},
      {"Squeeze", "Squeeze", {{"axis"}}},
      {"Transpose", "Transpose", {{"perm"}}},
  };
  return table;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}
std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

constexpr const char* kPadModes[] = {"pad", "same", "valid"};
constexpr const char* kFormats[] = {"NCHW", "NHWC"};
constexpr const char* kReductions[] = {"sum", "mean", "none"};

int64_t enum_number(std::span<const char* const> names, const std::string& value, const std::string& op,
                    const char* attr) {
  for (size_t i = 0; i < names.size(); ++i)
    if (lower(names[i]) == lower(value)) return static_cast<int64_t>(i);
  throw RuntimeError(str("export MindIR: ", op, "'s ", attr, " '", value, "' has no MindIR form"));
}

std::string enum_name(std::span<const char* const> names, int64_t value, const std::string& op, const char* attr) {
  SPROUT_CHECK(value >= 0 && value < static_cast<int64_t>(names.size()), RuntimeError, "load MindIR: ", op, "'s ",
               attr, " is ", value, ", not a known value");
  return names[static_cast<size_t>(value)];
}

// (H, W) of a window given as 1, 2 or 4 (N, C, H, W) numbers.
std::vector<int64_t> window_pair(const std::vector<int64_t>& v, const std::string& op, const char* attr) {
  SPROUT_CHECK(v.size() == 1 || v.size() == 2 || v.size() == 4, RuntimeError, "MindIR: ", op, "'s ", attr,
               " has ", v.size(), " entries; expected 1, 2 or 4");
  if (v.size() == 1) return {v[0], v[0]};
  if (v.size() == 2) return v;
  return {v[2], v[3]};
}
// (1, 1, H, W), MindSpore's Conv2D stride and dilation.
std::vector<int64_t> window_nchw(const std::vector<int64_t>& v, const std::string& op, const char* attr) {
  std::vector<int64_t> hw = window_pair(v, op, attr);
  return {1, 1, hw[0], hw[1]};
}
// Conv2D's (top, bottom, left, right) padding from 1, 2 (H, W) or 4 numbers.
std::vector<int64_t> pad4(const std::vector<int64_t>& v, const std::string& op) {
  if (v.size() == 1) return {v[0], v[0], v[0], v[0]};
  if (v.size() == 2) return {v[0], v[0], v[1], v[1]};
  SPROUT_CHECK(v.size() == 4, RuntimeError, "MindIR: ", op, "'s pad has ", v.size(), " entries; expected 1, 2 or 4");
  return v;
}

std::string sorted_list(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());  // Mul is written as Mul, read from Muls too
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::vector<int64_t> ints_of(const Primitive& p, const char* attr) { return std::get<std::vector<int64_t>>(p.attr(attr)); }
std::string string_of(const Primitive& p, const char* attr) { return std::get<std::string>(p.attr(attr)); }

Constant encode(const Primitive& p, const Arg& arg) {
  switch (arg.form) {
    case Form::Plain: return p.attr(arg.attr);
    case Form::PadMode: return AttrValue(enum_number(kPadModes, string_of(p, arg.attr), p.name(), arg.attr));
    case Form::Format: return AttrValue(enum_number(kFormats, string_of(p, arg.attr), p.name(), arg.attr));
    case Form::Reduction: return AttrValue(enum_number(kReductions, string_of(p, arg.attr), p.name(), arg.attr));
    case Form::TypeId: return AttrValue(type_id(std::get<DType>(p.attr(arg.attr))));
    case Form::Pair: return AttrValue(window_pair(ints_of(p, arg.attr), p.name(), arg.attr));
    case Form::FixedFalse: return AttrValue(false);
    case Form::FixedZero: return AttrValue(int64_t{0});
    case Form::Pairs: return p.attr(arg.attr);
  }
  return std::nullopt;
}

Primitive decode(Primitive p, const Arg& arg, const Constant& value, const std::string& op) {
  SPROUT_CHECK(value.has_value(), RuntimeError, "load MindIR: ", op, "'s argument ", arg.attr,
               " is None; Sprout needs a value");
  auto as_int = [&] {
    const int64_t* i = std::get_if<int64_t>(&*value);
    SPROUT_CHECK(i, RuntimeError, "load MindIR: ", op, "'s argument ", arg.attr, " is ", attr_value_str(*value),
                 "; expected an integer");
    return *i;
  };
  switch (arg.form) {
    case Form::Plain:
    case Form::Pairs: return p.with_attr(arg.attr, *value);  // nested tuples are read flat
    case Form::PadMode: return p.with_attr(arg.attr, AttrValue(enum_name(kPadModes, as_int(), op, arg.attr)));
    case Form::Format: return p.with_attr(arg.attr, AttrValue(enum_name(kFormats, as_int(), op, arg.attr)));
    case Form::Reduction: return p.with_attr(arg.attr, AttrValue(enum_name(kReductions, as_int(), op, arg.attr)));
    case Form::TypeId: return p.with_attr(arg.attr, AttrValue(dtype_of_type_id(as_int())));
    case Form::Pair: {
      const auto* v = std::get_if<std::vector<int64_t>>(&*value);
      std::vector<int64_t> ints = v ? *v : std::vector<int64_t>{as_int()};
      return p.with_attr(arg.attr, AttrValue(window_pair(ints, op, arg.attr)));
    }
    case Form::FixedFalse:
    case Form::FixedZero: {
      const AttrValue fixed = arg.form == Form::FixedFalse ? AttrValue(false) : AttrValue(int64_t{0});
      SPROUT_CHECK(*value == fixed, RuntimeError, "load MindIR: ", op, "'s ", arg.attr, " is ",
                   attr_value_str(*value), "; Sprout runs it only as ", attr_value_str(fixed));
      return p;
    }
  }
  return p;
}

const OpEntry* find_by_sprout(const std::string& name) {
  for (const OpEntry& e : function_ops())
    if (name == e.sprout) return &e;
  return nullptr;
}
const OpEntry* find_by_mindspore(const std::string& name) {
  for (const OpEntry& e : function_ops())
    if (name == e.mindspore) return &e;
  return nullptr;
}

const Constant* find(const std::vector<NamedConstant>& list, const char* name) {
  for (const NamedConstant& c : list)
    if (c.name == name) return &c.value;
  return nullptr;
}

template <class T>
T required(const std::vector<NamedConstant>& attrs, const char* name, const std::string& op) {
  const Constant* c = find(attrs, name);
  SPROUT_CHECK(c && *c, RuntimeError, "load MindIR: ", op, " has no attribute '", name, "'");
  const T* v = std::get_if<T>(&**c);
  SPROUT_CHECK(v, RuntimeError, "load MindIR: ", op, "'s attribute '", name, "' is ", attr_value_str(**c),
               ", of the wrong kind");
  return *v;
}

// (D, H, W) of a window given as 1, 3 or 5 (N, C, D, H, W) numbers.
std::vector<int64_t> window_triple(const std::vector<int64_t>& v, const std::string& op, const char* attr) {
  SPROUT_CHECK(v.size() == 1 || v.size() == 3 || v.size() == 5, RuntimeError, "MindIR: ", op, "'s ", attr,
               " has ", v.size(), " entries; expected 1, 3 or 5");
  if (v.size() == 1) return {v[0], v[0], v[0]};
  if (v.size() == 3) return v;
  return {v[2], v[3], v[4]};
}
std::vector<int64_t> window_ncdhw(const std::vector<int64_t>& v, const std::string& op, const char* attr) {
  std::vector<int64_t> dhw = window_triple(v, op, attr);
  return {1, 1, dhw[0], dhw[1], dhw[2]};
}
// Conv3D's (head, tail, top, bottom, left, right) padding from 1, 3 (D, H, W) or 6 numbers.
std::vector<int64_t> pad6(const std::vector<int64_t>& v, const std::string& op) {
  if (v.size() == 1) return std::vector<int64_t>(6, v[0]);
  if (v.size() == 3) return {v[0], v[0], v[1], v[1], v[2], v[2]};
  SPROUT_CHECK(v.size() == 6, RuntimeError, "MindIR: ", op, "'s pad has ", v.size(), " entries; expected 1, 3 or 6");
  return v;
}

// Conv2D, Conv2DTranspose, Conv3D and MaxPool: PRIMITIVE nodes with MindSpore's attribute spelling.
MindSporeCall conv2d_to_mindspore(const Primitive& p) {
  const std::string& op = p.name();
  std::vector<int64_t> pad = pad4(ints_of(p, "pad"), op);
  const std::string pad_mode = lower(string_of(p, "pad_mode"));
  const int64_t group = std::get<int64_t>(p.attr("group"));
  return {"Conv2D", false,
          {{"kernel_size", AttrValue(window_pair(ints_of(p, "kernel_size"), op, "kernel_size"))},
           {"mode", p.attr("mode")},
           {"out_channel", p.attr("out_channel")},
           {"pad", AttrValue(pad)},
           {"pad_mode", AttrValue(pad_mode)},
           {"format", p.attr("data_format")},
           {"pad_list", AttrValue(pad_mode == "pad" ? pad : std::vector<int64_t>{0, 0, 0, 0})},
           {"groups", AttrValue(group)},
           {"stride", AttrValue(window_nchw(ints_of(p, "stride"), op, "stride"))},
           {"group", AttrValue(group)},
           {"dilation", AttrValue(window_nchw(ints_of(p, "dilation"), op, "dilation"))}}};
}

// Conv2DTranspose: Conv2D's attributes (pad_mode in capitals, as MindSpore writes it) and the output's
// size as a third, constant input.
MindSporeCall conv2d_transpose_to_mindspore(const Primitive& p) {
  MindSporeCall call = conv2d_to_mindspore(p);
  call.op_type = "Conv2DTranspose";
  for (NamedConstant& a : call.args)
    if (a.name == "pad_mode") a.value = AttrValue(upper(string_of(p, "pad_mode")));
  call.trailing_inputs = {p.attr("input_sizes")};
  return call;
}

MindSporeCall conv3d_to_mindspore(const Primitive& p) {
  const std::string& op = p.name();
  std::vector<int64_t> pad = pad6(ints_of(p, "pad"), op);
  const std::string pad_mode = lower(string_of(p, "pad_mode"));
  const int64_t group = std::get<int64_t>(p.attr("group"));
  const std::vector<int64_t> stride = window_triple(ints_of(p, "stride"), op, "stride");
  const std::vector<int64_t> dilation = window_triple(ints_of(p, "dilation"), op, "dilation");
  return {"Conv3D", false,
          {{"kernel_size", AttrValue(window_triple(ints_of(p, "kernel_size"), op, "kernel_size"))},
           {"mode", p.attr("mode")},
           {"out_channel", p.attr("out_channel")},
           {"pad", AttrValue(pad)},
           {"offset_x", AttrValue(int64_t{0})},
           {"pad_mode", AttrValue(pad_mode)},
           {"format", p.attr("data_format")},
           {"pad_list", AttrValue(pad_mode == "pad" ? pad : std::vector<int64_t>(6, 0))},
           {"groups", AttrValue(group)},
           {"stride", AttrValue(stride)},
           {"dilations", AttrValue(window_ncdhw(dilation, op, "dilation"))},
           {"strides", AttrValue(window_ncdhw(stride, op, "stride"))},
           {"group", AttrValue(group)},
           {"dilation", AttrValue(dilation)}}};
}

// Conv3DBackpropInput (Sprout's 3-d transposed convolution): Conv3D's attributes, (weight, dout) and the output's
// size as a third, constant input, as MindSpore's primitive of that name takes them.
MindSporeCall conv3d_backprop_input_to_mindspore(const Primitive& p) {
  MindSporeCall call = conv3d_to_mindspore(p);
  call.op_type = "Conv3DBackpropInput";
  call.args.push_back({"data_format", p.attr("data_format")});
  call.trailing_inputs = {p.attr("input_size")};
  return call;
}

Primitive conv3d_from_mindspore(const std::vector<NamedConstant>& attrs, const char* name = "Conv3D") {
  const std::string op = name;
  auto window = [&](const char* five, const char* three) {  // MindSpore writes both spellings
    const Constant* c = find(attrs, five);
    return window_triple(c && *c ? required<std::vector<int64_t>>(attrs, five, op)
                                 : required<std::vector<int64_t>>(attrs, three, op), op, three);
  };
  Primitive p = Primitive::make(name);
  p = p.with_attr("out_channel", AttrValue(required<int64_t>(attrs, "out_channel", op)));
  p = p.with_attr("kernel_size", AttrValue(window_triple(required<std::vector<int64_t>>(attrs, "kernel_size", op), op,
                                                          "kernel_size")));
  if (const Constant* mode = find(attrs, "mode"); mode && *mode) p = p.with_attr("mode", **mode);
  p = p.with_attr("pad_mode", AttrValue(lower(required<std::string>(attrs, "pad_mode", op))));
  const Constant* pad = find(attrs, "pad");
  std::vector<int64_t> pads{0};
  if (pad && *pad) {  // an int or a tuple
    if (const auto* v = std::get_if<std::vector<int64_t>>(&**pad)) pads = *v;
    else if (const auto* i = std::get_if<int64_t>(&**pad)) pads = {*i};
  }
  p = p.with_attr("pad", AttrValue(pad6(pads, op)));
  p = p.with_attr("stride", AttrValue(window("strides", "stride")));
  p = p.with_attr("dilation", AttrValue(window("dilations", "dilation")));
  p = p.with_attr("group", AttrValue(required<int64_t>(attrs, "group", op)));
  if (const Constant* format = find(attrs, "format"); format && *format) p = p.with_attr("data_format", **format);
  return p;
}

Primitive conv2d_from_mindspore(const std::vector<NamedConstant>& attrs, const char* name = "Conv2D") {
  const std::string op = name;
  Primitive p = Primitive::make(name);
  p = p.with_attr("out_channel", AttrValue(required<int64_t>(attrs, "out_channel", op)));
  p = p.with_attr("kernel_size", AttrValue(window_pair(required<std::vector<int64_t>>(attrs, "kernel_size", op), op,
                                                        "kernel_size")));
  if (const Constant* mode = find(attrs, "mode"); mode && *mode) p = p.with_attr("mode", **mode);
  p = p.with_attr("pad_mode", AttrValue(lower(required<std::string>(attrs, "pad_mode", op))));
  p = p.with_attr("pad", AttrValue(pad4(required<std::vector<int64_t>>(attrs, "pad", op), op)));
  p = p.with_attr("stride", AttrValue(window_pair(required<std::vector<int64_t>>(attrs, "stride", op), op, "stride")));
  p = p.with_attr("dilation",
                  AttrValue(window_pair(required<std::vector<int64_t>>(attrs, "dilation", op), op, "dilation")));
  p = p.with_attr("group", AttrValue(required<int64_t>(attrs, "group", op)));
  if (const Constant* format = find(attrs, "format"); format && *format) p = p.with_attr("data_format", **format);
  return p;
}

MindSporeCall maxpool_to_mindspore(const Primitive& p) {
  const std::string& op = p.name();
  return {"MaxPool", false,
          {{"pad_mode", AttrValue(upper(string_of(p, "pad_mode")))},
           {"kernel_size", AttrValue(window_nchw(ints_of(p, "kernel_size"), op, "kernel_size"))},
           {"format", p.attr("data_format")},
           {"strides", AttrValue(window_nchw(ints_of(p, "strides"), op, "strides"))}}};
}

Primitive maxpool_from_mindspore(const std::vector<NamedConstant>& attrs) {
  const std::string op = "MaxPool";
  Primitive p = Primitive::make("MaxPool");
  p = p.with_attr("kernel_size", AttrValue(window_pair(required<std::vector<int64_t>>(attrs, "kernel_size", op), op,
                                                        "kernel_size")));
  p = p.with_attr("strides",
                  AttrValue(window_pair(required<std::vector<int64_t>>(attrs, "strides", op), op, "strides")));
  p = p.with_attr("pad_mode", AttrValue(lower(required<std::string>(attrs, "pad_mode", op))));
  if (const Constant* format = find(attrs, "format"); format && *format) p = p.with_attr("data_format", **format);
  return p;
}

// MaxPoolWithArgmaxV2 keeps its argmax dtype as a number of its own: 3 for int32, 4 for int64 (what
// MindSpore 2.10 writes), not the TypeId of Cast.
constexpr int64_t kArgmaxInt32 = 3, kArgmaxInt64 = 4;

MindSporeCall maxpool_argmax_to_mindspore(const Primitive& p) {
  const std::string& op = p.name();
  const bool int32 = std::get<DType>(p.attr("argmax_type")) == DType::Int32;
  // Every window attribute as (1, 1, h, w), pads too: MindSpore writes pads (1, 2) as (1, 1, 1, 2).
  return {"MaxPoolWithArgmaxV2", false,
          {{"kernel_size", AttrValue(window_nchw(ints_of(p, "kernel_size"), op, "kernel_size"))},
           {"strides", AttrValue(window_nchw(ints_of(p, "strides"), op, "strides"))},
           {"pads", AttrValue(window_nchw(ints_of(p, "pads"), op, "pads"))},
           {"dilation", AttrValue(window_nchw(ints_of(p, "dilation"), op, "dilation"))},
           {"ceil_mode", p.attr("ceil_mode")},
           {"argmax_type", AttrValue(int32 ? kArgmaxInt32 : kArgmaxInt64)}}};
}

Primitive maxpool_argmax_from_mindspore(const std::vector<NamedConstant>& attrs) {
  const std::string op = "MaxPoolWithArgmaxV2";
  Primitive p = Primitive::make(op);
  for (const char* window : {"kernel_size", "strides", "pads", "dilation"})
    p = p.with_attr(window, AttrValue(window_pair(required<std::vector<int64_t>>(attrs, window, op), op, window)));
  p = p.with_attr("ceil_mode", AttrValue(required<bool>(attrs, "ceil_mode", op)));
  const int64_t argmax = required<int64_t>(attrs, "argmax_type", op);
  SPROUT_CHECK(argmax == kArgmaxInt32 || argmax == kArgmaxInt64, RuntimeError, "load MindIR: ", op,
               "'s argmax_type is ", argmax, "; expected ", kArgmaxInt32, " (int32) or ", kArgmaxInt64, " (int64)");
  return p.with_attr("argmax_type", AttrValue(argmax == kArgmaxInt32 ? DType::Int32 : DType::Int64));
}

}  // namespace

int64_t type_id(DType dtype) {
  switch (dtype) {
    case DType::Bool: return 30;
    case DType::Int8: return 32;
    case DType::Int16: return 33;
    case DType::Int32: return 34;
    case DType::Int64: return 35;
    case DType::UInt8: return 37;
    case DType::UInt16: return 38;
    case DType::UInt32: return 39;
    case DType::UInt64: return 40;
    case DType::Float16: return 42;
    case DType::Float32: return 43;
    case DType::Float64: return 44;
    case DType::BFloat16: return 45;
  }
  return 0;
}

DType dtype_of_type_id(int64_t id) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (type_id(static_cast<DType>(i)) == id) return static_cast<DType>(i);
  throw RuntimeError(str("load MindIR: TypeId ", id, " is not a dtype Sprout has"));
}

std::string exportable_ops() {
  // Embedding, LeakyReLU, ClipByValue and CrossEntropy are written as the ops MindSpore computes them with
  // (mindir_lower.cc).
  std::vector<std::string> names = {"Conv2D", "Conv2DTranspose", "Conv3D", "Conv3DBackpropInput", "MaxPool", "Embedding",
                                    "LeakyReLU", "ClipByValue", "MaxPoolWithArgmaxV2", "CrossEntropy"};
  for (const OpEntry& e : function_ops()) names.push_back(e.sprout);
  return sorted_list(names);
}

std::string loadable_ops() {
  // BiasAdd, MatMulExt, SumExt and MeanExt become other registry ops (mindir_import.cc).
  std::vector<std::string> names = {"Conv2D", "Conv2DTranspose", "Conv2DBackpropInput", "Conv3D", "MaxPool", "BiasAdd",
                                    "MatMulExt", "SumExt", "MeanExt", "ClampScalar", "LSTM", "Conv3DBackpropInput",
                                    "Conv3DTranspose", "MaxPoolWithArgmaxV2", "MaxPool3DWithArgmax"};
  for (const OpEntry& e : function_ops()) names.push_back(e.mindspore);
  return sorted_list(names);
}

MindSporeCall to_mindspore(const Primitive& prim) {
  const std::string& name = prim.name();
  if (name == "Conv2D") return conv2d_to_mindspore(prim);
  if (name == "Conv2DTranspose") return conv2d_transpose_to_mindspore(prim);
  if (name == "Conv3D") return conv3d_to_mindspore(prim);
  if (name == "Conv3DBackpropInput") return conv3d_backprop_input_to_mindspore(prim);
  if (name == "MaxPool") return maxpool_to_mindspore(prim);
  if (name == "MaxPoolWithArgmaxV2") return maxpool_argmax_to_mindspore(prim);
  const OpEntry* e = find_by_sprout(name);
  SPROUT_CHECK(e, RuntimeError, "export MindIR: the graph uses ", name,
               ", which has no MindIR form here; ops that do: ", exportable_ops());
  MindSporeCall call{e->mindspore, e->function, {}};
  call.layout = e->layout;
  for (const Arg& arg : e->args) call.args.push_back({arg.attr, encode(prim, arg), arg.form == Form::Pairs ? 2 : 0});
  return call;
}

SproutCall from_mindspore(const std::string& op_type, bool function, const std::vector<NamedConstant>& inputs,
                          const std::vector<NamedConstant>& attributes, size_t n_inputs) {
  if (op_type == "Conv2D") return {conv2d_from_mindspore(attributes), 2};
  if (op_type == "Conv3D") return {conv3d_from_mindspore(attributes), 2};
  if (op_type == "Conv3DBackpropInput") {  // (weight, dout, input_size)
    SPROUT_CHECK(n_inputs == 3 && inputs.size() == 3 && inputs[2].value, RuntimeError, "load MindIR: ", op_type,
                 " takes its output's size as a constant third input");
    return {conv3d_from_mindspore(attributes, "Conv3DBackpropInput").with_attr("input_size", *inputs[2].value), 2};
  }
  if (op_type == "Conv3DTranspose") {
    // MindSpore's nn.Conv3dTranspose: (dout, weight), the output's size an attribute, out_channel the output's
    // channels and in_channel the input's: Sprout's Conv3DBackpropInput (weight, dout) whose out_channel is the
    // input's channels (that of the convolution it is the gradient of).
    Primitive p = conv3d_from_mindspore(attributes, "Conv3DBackpropInput")
                      .with_attr("out_channel", AttrValue(required<int64_t>(attributes, "in_channel", op_type)))
                      .with_attr("input_size", AttrValue(required<std::vector<int64_t>>(attributes, "input_size",
                                                                                        op_type)));
    SproutCall call{p, 2};
    call.tensor_positions = {1, 0};
    return call;
  }
  if (op_type == "Conv2DTranspose" || op_type == "Conv2DBackpropInput") {
    // (dout, weight, input_sizes): the output's size is the third input, a constant.
    SPROUT_CHECK(n_inputs == 3 && inputs.size() == 3 && inputs[2].value, RuntimeError, "load MindIR: ", op_type,
                 " takes its output's size as a constant third input");
    Primitive p = conv2d_from_mindspore(attributes, "Conv2DTranspose").with_attr("input_sizes", *inputs[2].value);
    return {p, 2};
  }
  if (op_type == "MaxPool") return {maxpool_from_mindspore(attributes), 1};
  if (op_type == "MaxPoolWithArgmaxV2") return {maxpool_argmax_from_mindspore(attributes), 1};
  const OpEntry* e = find_by_mindspore(op_type);
  SPROUT_CHECK(e, RuntimeError, "load MindIR: the model uses MindSpore's ", op_type,
               ", which Sprout cannot load; ops it can: ", loadable_ops());
  Primitive p = Primitive::make(e->sprout);
  const size_t n_tensors = p.def().variadic ? 1 : p.def().inputs.size();
  SPROUT_CHECK(n_inputs == n_tensors + (function ? e->args.size() : 0), RuntimeError, "load MindIR: ", op_type,
               " has ", n_inputs, " inputs; expected ", n_tensors, " tensors", function ? " and " : "",
               function ? std::to_string(e->args.size()) + " arguments" : "");
  // Where argument i and tensor k are among the node's inputs.
  std::vector<size_t> arg_at(e->args.size()), tensor_at(n_tensors);
  for (size_t i = 0; i < arg_at.size(); ++i) arg_at[i] = n_tensors + i;
  for (size_t k = 0; k < tensor_at.size(); ++k) tensor_at[k] = k;
  for (size_t pos = 0; pos < e->layout.size(); ++pos) {
    const int slot = e->layout[pos];
    if (slot >= 0) tensor_at[static_cast<size_t>(slot)] = pos;
    else arg_at[static_cast<size_t>(-slot - 1)] = pos;
  }
  for (size_t i = 0; i < e->args.size(); ++i) {
    const Arg& arg = e->args[i];
    if (function) {
      p = decode(p, arg, inputs.at(arg_at[i]).value, op_type);
    } else if (const Constant* c = find(attributes, arg.attr)) {  // an older file: arguments as attributes
      p = decode(p, arg, *c, op_type);
    }
  }
  SproutCall call{p, n_tensors};
  if (!e->layout.empty()) call.tensor_positions = tensor_at;
  return call;
}

}  // namespace sprout::mindir
