#include "io/mindir_lower.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "compiler/graph_emit.h"

namespace sprout::mindir {
namespace {

using ir::AnfNode;
using ir::CNode;
using ir::FuncGraph;

// Note [Ops written as compositions]
// Some Sprout ops have no MindSpore primitive; export writes them as MindSpore's own layers compute
// them, from ops of the MindIR table: LeakyReLU as Maximum(x, alpha x) (Minimum for alpha > 1),
// Embedding as Gather of the table's rows, ClipByValue as Minimum(Maximum(x, min), max), the exact GeLU
// as x (1 + erf(x / sqrt 2)) / 2 (MindSpore's GeLU primitive is the tanh approximation), and the
// recurrences of nn.LSTM / nn.GRU (and the pointwise steps of nn.LSTMCell / nn.GRUCell) unrolled over
// the sequence, whose length a model file fixes: per step a MatMul with weight_hh, a Split into the
// gates, their sigmoids and tanhs, and the steps' results joined by Stack; PadEdges (reflect, replicate
// and circular padding) as Slice, ReverseV2 or BroadcastTo and Concat per axis; MaxPool with explicit
// padding (pad_mode "pad") as the input padded with -inf by Concat, then MaxPool; CrossEntropy as
// LogSoftmax and NLLLoss, plus label smoothing's sum of weighted log-probabilities; SearchSorted as a count
// of the elements below each value (Less or LessEqual, Cast, ReduceSum). NLLLoss with reduction
// 'none' has its ignored rows set to 0 by Select: MindSpore 2.10's CPU kernel leaves them unwritten
// (garbage, every time, in a loop of 300 calls). A file of Sprout's own loads these back as the same
// compositions.
bool is_pad_mode(std::string mode) {
  std::transform(mode.begin(), mode.end(), mode.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return mode == "pad";
}

class Lowering {
 public:
  explicit Lowering(FuncGraph& g) : g_(g) {}

  AnfNode* op(const char* name, std::vector<AnfNode*> in) { return op(Primitive::make(name), std::move(in)); }
  AnfNode* op(const Primitive& p, std::vector<AnfNode*> in) { return compiler::emit_primitive(g_, p, in)[0]; }
  std::vector<AnfNode*> outputs(const Primitive& p, std::vector<AnfNode*> in) {
    return compiler::emit_primitive(g_, p, in);
  }
  AnfNode* scalar(double v, AnfNode* like) {
    return compiler::constant_tensor(g_, Tensor::scalar(v, compiler::node_spec(like).dtype));
  }
  Shape shape(AnfNode* n) { return compiler::node_spec(n).shape; }

  AnfNode* exact_gelu(AnfNode* x) {
    AnfNode* erf = op("Erf", {op("Mul", {x, scalar(0.7071067811865476, x)})});
    return op("Mul", {op("Mul", {x, scalar(0.5, x)}), op("Add", {erf, scalar(1.0, x)})});
  }

  // Step t of a (T, B, G) tensor: (B, G).
  AnfNode* step(AnfNode* seq, int64_t t) {
    const Shape s = shape(seq);
    Primitive slice = Primitive::make("Slice")
                          .with_attr("begin", AttrValue(std::vector<int64_t>{t, 0, 0}))
                          .with_attr("size", AttrValue(std::vector<int64_t>{1, s[1], s[2]}));
    return op(Primitive::make("Reshape").with_attr("shape", AttrValue(std::vector<int64_t>{s[1], s[2]})),
              {op(slice, {seq})});
  }
  std::vector<AnfNode*> split(AnfNode* x, int64_t parts) {
    return outputs(Primitive::make("Split").with_attr("axis", AttrValue(int64_t{1})).with_attr("output_num",
                                                                                               AttrValue(parts)),
                   {x});
  }
  AnfNode* stack(const std::vector<AnfNode*>& steps) {
    return op(Primitive::make("Stack").with_attr("axis", AttrValue(int64_t{0})), steps);
  }
  AnfNode* hidden_product(AnfNode* h, AnfNode* weight_hh) {
    return op(Primitive::make("MatMul")
                  .with_attr("transpose_a", AttrValue(false))
                  .with_attr("transpose_b", AttrValue(true)),
              {h, weight_hh});
  }

  // LSTMCellPointwise without biases: (hy, cy) from the summed gates (i, f, g, o).
  std::pair<AnfNode*, AnfNode*> lstm_cell(AnfNode* gates, AnfNode* c) {
    std::vector<AnfNode*> q = split(gates, 4);
    AnfNode* cy = op("Add", {op("Mul", {op("Sigmoid", {q[1]}), c}), op("Mul", {op("Sigmoid", {q[0]}), op("Tanh", {q[2]})})});
    return {op("Mul", {op("Sigmoid", {q[3]}), op("Tanh", {cy})}), cy};
  }
  // GRUCellPointwise: hy from x = input gates (with their bias) and h = hidden gates (with theirs), (r, z, n).
  AnfNode* gru_cell(AnfNode* x, AnfNode* h, AnfNode* hx) {
    std::vector<AnfNode*> a = split(x, 3), b = split(h, 3);
    AnfNode* r = op("Sigmoid", {op("Add", {a[0], b[0]})});
    AnfNode* z = op("Sigmoid", {op("Add", {a[1], b[1]})});
    AnfNode* n = op("Tanh", {op("Add", {a[2], op("Mul", {r, b[2]})})});
    return op("Add", {n, op("Mul", {z, op("Sub", {hx, n})})});  // (1 - z) n + z hx
  }

  // LSTMRecurrence(input_gates, h0, c0, weight_hh) -> (y, cells, hidden_gates), unrolled.
  AnfNode* lstm_recurrence(CNode* node, bool reverse) {
    AnfNode *gates_in = node->input(1), *h = node->input(2), *c = node->input(3), *w = node->input(4);
    const int64_t steps = shape(gates_in)[0];
    std::vector<AnfNode*> ys(steps), cells(steps), hidden(steps);
    for (int64_t k = 0; k < steps; ++k) {
      const int64_t t = reverse ? steps - 1 - k : k;
      hidden[t] = hidden_product(h, w);
      std::tie(h, c) = lstm_cell(op("Add", {step(gates_in, t), hidden[t]}), c);
      ys[t] = h;
      cells[t] = c;
    }
    return compiler::emit_make_tuple(g_, {stack(ys), stack(cells), stack(hidden)});
  }

  // GRURecurrence(input_gates, h0, weight_hh, bias_hh) -> (y, hidden_gates), unrolled.
  AnfNode* gru_recurrence(CNode* node, bool reverse) {
    AnfNode *gates_in = node->input(1), *h = node->input(2), *w = node->input(3), *bias = node->input(4);
    const int64_t steps = shape(gates_in)[0];
    std::vector<AnfNode*> ys(steps), hidden(steps);
    for (int64_t k = 0; k < steps; ++k) {
      const int64_t t = reverse ? steps - 1 - k : k;
      hidden[t] = hidden_product(h, w);
      h = gru_cell(step(gates_in, t), op("Add", {hidden[t], bias}), h);
      ys[t] = h;
    }
    return compiler::emit_make_tuple(g_, {stack(ys), stack(hidden)});
  }

  // MaxPool with pad_mode "pad": the input padded with -inf (blocks of a broadcast scalar joined by
  // Concat), then MaxPool without padding.
  AnfNode* padded_max_pool(CNode* node, const Primitive& prim) {
    const auto pads = std::get<std::vector<int64_t>>(prim.attr("pad_list"));  // top, bottom, left, right
    AnfNode* x = node->input(1);
    AnfNode* low = scalar(-std::numeric_limits<double>::infinity(), x);
    auto pad_axis = [&](AnfNode* v, int64_t axis, int64_t before, int64_t after) {
      std::vector<AnfNode*> parts;
      auto block = [&](int64_t size) {
        Shape s = shape(v);
        s[static_cast<size_t>(axis)] = size;
        parts.push_back(op(Primitive::make("BroadcastTo").with_attr("shape", AttrValue(std::vector<int64_t>(s.begin(), s.end()))), {low}));
      };
      if (before) block(before);
      parts.push_back(v);
      if (after) block(after);
      return parts.size() == 1 ? v : op(Primitive::make("Concat").with_attr("axis", AttrValue(axis)), parts);
    };
    AnfNode* padded = pad_axis(pad_axis(x, 2, pads[0], pads[1]), 3, pads[2], pads[3]);
    Primitive valid = prim.with_attr("pad_mode", AttrValue(std::string("valid")))
                          .with_attr("pad_list", AttrValue(std::vector<int64_t>{0, 0, 0, 0}));
    return op(valid, {padded});
  }

  // PadEdges an axis at a time (Note [Padding from the edges]): x joined by Concat with its reversed
  // slices (reflect), its edge broadcast (replicate) or the other end's slice (circular).
  AnfNode* pad_edges(CNode* node, const Primitive& prim) {
    const auto paddings = std::get<std::vector<int64_t>>(prim.attr("paddings"));
    const std::string mode = std::get<std::string>(prim.attr("mode"));
    AnfNode* x = node->input(1);
    for (int64_t axis = static_cast<int64_t>(shape(x).size()) - 1; axis >= 0; --axis) {
      const int64_t before = paddings[static_cast<size_t>(2 * axis)], after = paddings[static_cast<size_t>(2 * axis + 1)];
      if (!before && !after) continue;
      const Shape s = shape(x);
      const int64_t n = s[static_cast<size_t>(axis)];
      auto slice = [&](int64_t start, int64_t count) {
        std::vector<int64_t> begin(s.size(), 0), size(s.begin(), s.end());
        begin[static_cast<size_t>(axis)] = start;
        size[static_cast<size_t>(axis)] = count;
        return op(Primitive::make("Slice").with_attr("begin", AttrValue(begin)).with_attr("size", AttrValue(size)), {x});
      };
      auto edge = [&](int64_t count, bool at_end) {
        if (mode == "reflect")
          return op(Primitive::make("ReverseV2").with_attr("axis", AttrValue(std::vector<int64_t>{axis})),
                    {slice(at_end ? n - 1 - count : 1, count)});
        if (mode == "replicate") {
          std::vector<int64_t> to(s.begin(), s.end());
          to[static_cast<size_t>(axis)] = count;
          return op(Primitive::make("BroadcastTo").with_attr("shape", AttrValue(to)), {slice(at_end ? n - 1 : 0, 1)});
        }
        return slice(at_end ? 0 : n - count, count);  // circular: the other end's elements
      };
      std::vector<AnfNode*> parts;
      if (before) parts.push_back(edge(before, false));
      parts.push_back(x);
      if (after) parts.push_back(edge(after, true));
      x = op(Primitive::make("Concat").with_attr("axis", AttrValue(axis)), parts);
    }
    return x;
  }

  // NLLLoss's (loss, total_weight), the ignored rows of a 'none' loss zeroed by Select.
  std::vector<AnfNode*> nll_loss(const Primitive& prim, AnfNode* log_p, AnfNode* labels, AnfNode* w) {
    std::vector<AnfNode*> out = outputs(prim, {log_p, labels, w});
    if (std::get<std::string>(prim.attr("reduction")) != "none") return out;
    const double ignore = static_cast<double>(std::get<int64_t>(prim.attr("ignore_index")));
    out[0] = op("Select", {op("NotEqual", {labels, scalar(ignore, labels)}), out[0], op("ZerosLike", {out[0]})});
    return out;
  }

  // CrossEntropy(x, labels, w) (Note [Cross entropy in one op]): (1 - e) NLLLoss(LogSoftmax(x)) plus e / C
  // times the kept rows' -sum_c w_c log p_c, reduced as NLLLoss reduces (divided by its total weight); its
  // second output, the rows' log-sum-exp, as x - log p at column 0.
  AnfNode* cross_entropy(CNode* node, const Primitive& prim) {
    AnfNode* log_p = op(Primitive::make("LogSoftmax").with_attr("axis", AttrValue(int64_t{1})), {node->input(1)});
    const int64_t rows = shape(log_p)[0];
    auto column0 = [&](AnfNode* t) {
      return op(Primitive::make("Slice")
                    .with_attr("begin", AttrValue(std::vector<int64_t>{0, 0}))
                    .with_attr("size", AttrValue(std::vector<int64_t>{rows, 1})),
                {t});
    };
    AnfNode* lse = op(Primitive::make("Reshape").with_attr("shape", AttrValue(std::vector<int64_t>{rows})),
                      {op("Sub", {column0(node->input(1)), column0(log_p)})});
    return compiler::emit_make_tuple(g_, {cross_entropy_loss(node, prim, log_p), lse});
  }

  AnfNode* cross_entropy_loss(CNode* node, const Primitive& prim, AnfNode* log_p) {
    AnfNode *x = node->input(1), *labels = node->input(2), *w = node->input(3);
    const std::string reduction = std::get<std::string>(prim.attr("reduction"));
    const int64_t ignore = std::get<int64_t>(prim.attr("ignore_index"));
    const double e = std::get<double>(prim.attr("label_smoothing"));
    const std::vector<AnfNode*> nll = nll_loss(Primitive::make("NLLLoss")
                                                   .with_attr("reduction", AttrValue(reduction))
                                                   .with_attr("ignore_index", AttrValue(ignore)),
                                               log_p, labels, w);
    if (e == 0) return nll[0];
    auto sum = [&](AnfNode* t, std::vector<int64_t> axes) {
      return op(Primitive::make("ReduceSum").with_attr("axis", AttrValue(std::move(axes))), {t});
    };
    AnfNode* kept = op(Primitive::make("Cast").with_attr("dst_type", AttrValue(compiler::node_spec(x).dtype)),
                       {op("NotEqual", {labels, scalar(static_cast<double>(ignore), labels)})});
    AnfNode* smooth = op("Mul", {op("Neg", {sum(op("Mul", {log_p, w}), {1})}), kept});
    if (reduction != "none") smooth = sum(smooth, {});
    if (reduction == "mean") smooth = op("RealDiv", {smooth, nll[1]});
    const double classes = static_cast<double>(shape(x)[1]);
    return op("Add", {op("Mul", {nll[0], scalar(1 - e, x)}), op("Mul", {smooth, scalar(e / classes, x)})});
  }

  // SearchSorted as the count of each row's elements below each value (at or below with 'right'), over
  // a (..., values, row) comparison. A NaN value counts nothing below it here (0, where the op gives the
  // row's length).
  AnfNode* search_sorted(CNode* node, const Primitive& prim) {
    AnfNode *seq = node->input(1), *values = node->input(2);
    auto expand = [&](AnfNode* t, size_t axis) {
      return op(Primitive::make("ExpandDims").with_attr("axis", AttrValue(static_cast<int64_t>(axis))), {t});
    };
    const size_t seq_rank = shape(seq).size();
    AnfNode* rows = seq_rank == 1 ? seq : expand(seq, seq_rank - 1);
    AnfNode* below = op(std::get<bool>(prim.attr("right")) ? "LessEqual" : "Less", {rows, expand(values, shape(values).size())});
    AnfNode* counts = op(Primitive::make("Cast").with_attr("dst_type", prim.attr("dtype")), {below});
    return op(Primitive::make("ReduceSum").with_attr("axis", AttrValue(std::vector<int64_t>{-1})), {counts});
  }

  AnfNode* rewrite(CNode* node, const Primitive& prim) {
    const std::string& name = prim.name();
    if (name == "SearchSorted") return search_sorted(node, prim);
    if (name == "CrossEntropy") return cross_entropy(node, prim);
    if (name == "NLLLoss" && std::get<std::string>(prim.attr("reduction")) == "none")
      return compiler::emit_make_tuple(g_, nll_loss(prim, node->input(1), node->input(2), node->input(3)));
    if (name == "PadEdges") return pad_edges(node, prim);
    if (name == "MaxPool" && is_pad_mode(std::get<std::string>(prim.attr("pad_mode")))) return padded_max_pool(node, prim);
    if (name == "LeakyReLU") {
      const double alpha = std::get<double>(prim.attr("alpha"));
      AnfNode* x = node->input(1);
      return op(alpha <= 1 ? "Maximum" : "Minimum", {x, op("Mul", {x, scalar(alpha, x)})});
    }
    if (name == "ClipByValue") return op("Minimum", {op("Maximum", {node->input(1), node->input(2)}), node->input(3)});
    if (name == "GeLU" && std::get<std::string>(prim.attr("approximate")) == "none") return exact_gelu(node->input(1));
    if (name == "Embedding")
      return op(Primitive::make("Gather").with_attr("axis", AttrValue(int64_t{0})), {node->input(2), node->input(1)});
    if (name == "LSTMRecurrence") return lstm_recurrence(node, std::get<bool>(prim.attr("reverse")));
    if (name == "GRURecurrence") return gru_recurrence(node, std::get<bool>(prim.attr("reverse")));
    if (name == "LSTMCellPointwise") {  // (input_gates, hidden_gates, cx, input_bias, hidden_bias)
      AnfNode* gates = op("Add", {op("Add", {node->input(1), node->input(4)}), op("Add", {node->input(2), node->input(5)})});
      auto [hy, cy] = lstm_cell(gates, node->input(3));
      return compiler::emit_make_tuple(g_, {hy, cy});
    }
    if (name == "GRUCellPointwise")  // (input_gates, hidden_gates, hx, input_bias, hidden_bias)
      return gru_cell(op("Add", {node->input(1), node->input(4)}), op("Add", {node->input(2), node->input(5)}),
                      node->input(3));
    return nullptr;
  }

 private:
  FuncGraph& g_;
};

}  // namespace

void lower_for_mindspore(FuncGraph& g) {
  Lowering lowering(g);
  for (CNode* node : g.topological_order()) {
    const ir::IrValue* callee = node->callee_value();
    const Primitive* prim = callee ? callee->as<Primitive>() : nullptr;
    if (!prim) continue;
    if (AnfNode* replacement = lowering.rewrite(node, *prim)) g.replace_all_uses(node, replacement);
  }
}

}  // namespace sprout::mindir
