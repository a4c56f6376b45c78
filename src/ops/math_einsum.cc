// Einsum: Einstein summation over a tuple of operands. The equation is parsed once per call into an
// EinsumPlan (math_einsum.h); the kernel contracts the operands pairwise with BatchMatMul; the
// gradient of each operand is itself an einsum of dout with the other operands.
#include "ops/math_einsum.h"

#include <algorithm>
#include <cctype>

#include "ops/infer_util.h"
#include "ops/math_bprop.h"
#include "tensor/tensor.h"

namespace sprout {

std::string EinsumPlan::term(std::span<const int> labels) const {
  std::string out;
  for (int l : labels) out += letters[static_cast<size_t>(l)];
  return out;
}

namespace {

[[noreturn]] void bad_equation(std::string_view op, const std::string& eq, const std::string& why) {
  throw TypeError(str(op, ": 'equation' ", "'", eq, "' ", why));
}

// The character starting at byte i: all of its UTF-8 sequence, so that a message naming it stays valid text.
std::string character_at(const std::string& text, size_t i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  return text.substr(i, length);
}

// Splits "ab...c" into the letters before and after the ellipsis; has_ellipsis tells if there was one.
void split_term(std::string_view op, const std::string& eq, std::string_view term, std::string& head,
                std::string& tail, bool& has_ellipsis) {
  size_t dots = term.find("...");
  has_ellipsis = dots != std::string_view::npos;
  head = std::string(term.substr(0, has_ellipsis ? dots : term.size()));
  tail = has_ellipsis ? std::string(term.substr(dots + 3)) : std::string();
  const std::string letters = head + tail;
  for (size_t i = 0; i < letters.size(); ++i)
    if (!std::isalpha(static_cast<unsigned char>(letters[i])))
      bad_equation(op, eq, str("may hold only letters, ',', '...' and '->', but has '", character_at(letters, i), "'"));
}

}  // namespace

EinsumPlan plan_einsum(std::string_view op, const std::string& equation, std::span<const Shape> shapes) {
  std::string eq;
  for (char c : equation)
    if (c != ' ') eq += c;
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms(1);
  for (char c : lhs) {
    if (c == ',') terms.emplace_back();
    else terms.back() += c;
  }
  if (terms.size() != shapes.size())
    bad_equation(op, equation, str("names ", terms.size(), " operand(s), but ", shapes.size(), " were given"));

  EinsumPlan plan;
  auto label_of = [&](char c) {
    size_t at = plan.letters.find(c);
    if (at != std::string::npos) return static_cast<int>(at);
    plan.letters += c;
    plan.sizes.push_back(1);
    return static_cast<int>(plan.letters.size() - 1);
  };
  // The '...' axes get letters the equation does not use, numbered from the right.
  int64_t ell_ndim = 0;
  std::vector<std::string> heads(terms.size()), tails(terms.size());
  std::vector<bool> ell(terms.size());
  for (size_t i = 0; i < terms.size(); ++i) {
    bool e;
    split_term(op, equation, terms[i], heads[i], tails[i], e);
    ell[i] = e;
    int64_t named = static_cast<int64_t>(heads[i].size() + tails[i].size());
    int64_t ndim = static_cast<int64_t>(shapes[i].size());
    if (e ? ndim < named : ndim != named)
      bad_equation(op, equation,
                   str("term '", terms[i], "' does not fit operand ", i, " of shape ", shape_str(shapes[i])));
    if (e) ell_ndim = std::max(ell_ndim, ndim - named);
  }
  std::string ell_letters;
  for (char c : std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
    if (static_cast<int64_t>(ell_letters.size()) < ell_ndim && eq.find(c) == std::string::npos) ell_letters += c;
  SPROUT_CHECK(static_cast<int64_t>(ell_letters.size()) == ell_ndim, ValueError, op, ": too many axes under '...'");
  auto expand = [&](const std::string& head, const std::string& tail, bool e, int64_t ndim) {
    std::vector<int> labels;
    for (char c : head) labels.push_back(label_of(c));
    int64_t k = e ? ndim - static_cast<int64_t>(head.size() + tail.size()) : 0;
    for (int64_t j = ell_ndim - k; j < ell_ndim; ++j) labels.push_back(label_of(ell_letters[static_cast<size_t>(j)]));
    for (char c : tail) labels.push_back(label_of(c));
    return labels;
  };
  // Each label's size: equal wherever it appears, except that a size-1 axis broadcasts.
  std::vector<bool> sized;
  for (size_t i = 0; i < terms.size(); ++i) {
    plan.inputs.push_back(expand(heads[i], tails[i], ell[i], static_cast<int64_t>(shapes[i].size())));
    sized.resize(plan.sizes.size(), false);
    for (size_t a = 0; a < shapes[i].size(); ++a) {
      const size_t l = static_cast<size_t>(plan.inputs[i][a]);
      const int64_t n = shapes[i][a];
      int64_t& have = plan.sizes[l];
      if (sized[l] && n != have && n != 1 && have != 1)
        bad_equation(op, equation, str("gives label '", plan.letters[l], "' sizes ", have, " and ", n));
      if (!sized[l] || have == 1) have = n;
      sized[l] = true;
    }
  }
  if (arrow != std::string::npos) {
    std::string head, tail;
    bool e;
    split_term(op, equation, std::string_view(eq).substr(arrow + 2), head, tail, e);
    const std::string named = head + tail;
    for (char c : named)
      if (lhs.find(c) == std::string::npos || std::count(named.begin(), named.end(), c) > 1)
        bad_equation(op, equation, str("has output label '", c, "' that is repeated or in no input"));
    plan.output = expand(head, tail, e, e ? static_cast<int64_t>(head.size() + tail.size()) + ell_ndim : 0);
  } else {  // implicit output: the '...' axes, then the letters used once, alphabetically
    for (int64_t j = 0; j < ell_ndim; ++j) plan.output.push_back(label_of(ell_letters[static_cast<size_t>(j)]));
    std::string once;
    for (char c : lhs)
      if (std::isalpha(static_cast<unsigned char>(c)) && std::count(lhs.begin(), lhs.end(), c) == 1) once += c;
    std::sort(once.begin(), once.end());
    for (char c : once) plan.output.push_back(label_of(c));
  }
  return plan;
}

namespace {

using namespace math_bprop;

std::vector<TensorSpec> infer_einsum(const OpDef& op, const EinsumAttrs& a, std::span<const TensorSpec> in) {
  SPROUT_CHECK(!in.empty(), ValueError, op.name, ": 'x' must hold at least one tensor, but got none");
  std::vector<Shape> shapes;
  for (size_t i = 0; i < in.size(); ++i) {
    check_dtype_in(op, i, in[i], {DType::Float16, DType::BFloat16, DType::Float32, DType::Float64});
    SPROUT_CHECK(in[i].dtype == in[0].dtype, TypeError, op.name, ": every tensor in 'x' must have the dtype of the "
                 "first, ", name(in[0].dtype), ", but tensor ", i, " is ", name(in[i].dtype));
    shapes.push_back(in[i].shape);
  }
  EinsumPlan plan = plan_einsum(op.name, a.equation, shapes);
  Shape out;
  for (int l : plan.output) out.push_back(plan.sizes[static_cast<size_t>(l)]);
  return {TensorSpec{in[0].dtype, out}};
}

// d operand_i = einsum(dout, the other operands -> operand i's labels), then: labels summed away in
// the forward pass (in operand i only) are broadcast back, '...' axes broadcast from 1 are summed,
// and a repeated label (a diagonal) puts the gradient back on the diagonal with an identity mask.
std::vector<V> einsum_bprop(Emitter& e, const BpropArgs& args) {
  BpropBuilder b(e, args);
  const std::string& equation = args.prim.attrs_as<EinsumAttrs>().equation;
  const size_t count = args.inputs.size();
  std::vector<Shape> shapes;
  for (size_t i = 0; i < count; ++i) shapes.push_back(b.spec(b.input(i)).shape);
  const EinsumPlan plan = plan_einsum(args.prim.name(), equation, shapes);
  const DType dtype = b.spec(b.input(0)).dtype;
  std::vector<V> grads;
  for (size_t i = 0; i < count; ++i) {
    const std::vector<int>& mine = plan.inputs[i];
    std::vector<int> unique;
    for (int l : mine)
      if (std::find(unique.begin(), unique.end(), l) == unique.end()) unique.push_back(l);
    auto used_elsewhere = [&](int l) {
      if (std::find(plan.output.begin(), plan.output.end(), l) != plan.output.end()) return true;
      for (size_t j = 0; j < count; ++j)
        if (j != i && std::find(plan.inputs[j].begin(), plan.inputs[j].end(), l) != plan.inputs[j].end()) return true;
      return false;
    };
    std::vector<int> present;
    for (int l : unique)
      if (used_elsewhere(l)) present.push_back(l);
    std::string grad_eq = plan.term(plan.output);
    std::vector<V> operands = {b.dout()};
    for (size_t j = 0; j < count; ++j) {
      if (j == i) continue;
      grad_eq += ',';
      grad_eq += plan.term(plan.inputs[j]);
      operands.push_back(b.input(j));
    }
    grad_eq += "->";
    grad_eq += plan.term(present);
    Primitive einsum = Primitive::make("Einsum").with_attr("equation", grad_eq);
    V g = e.emit(einsum, operands);
    // Back to one axis per unique label, at full size: broadcast the labels summed in the forward pass.
    Shape kept, full;
    for (int l : unique) {
      bool has = std::find(present.begin(), present.end(), l) != present.end();
      kept.push_back(has ? plan.sizes[static_cast<size_t>(l)] : 1);
      full.push_back(plan.sizes[static_cast<size_t>(l)]);
    }
    if (kept != full) g = b.broadcast_to(b.reshape(g, kept), full);
    // '...' axes this operand had as 1: sum them back to 1.
    Shape own;
    for (int l : unique) own.push_back(shapes[i][std::find(mine.begin(), mine.end(), l) - mine.begin()]);
    g = b.sum_to_shape(g, own);
    if (unique.size() != mine.size()) {  // a diagonal: spread over the repeated axes with identity masks
      Shape spread;
      std::vector<int> seen;
      for (int l : mine) {
        bool first = std::find(seen.begin(), seen.end(), l) == seen.end();
        spread.push_back(first ? own[std::find(unique.begin(), unique.end(), l) - unique.begin()] : 1);
        seen.push_back(l);
      }
      g = b.reshape(g, spread);
      for (size_t a = 0; a < mine.size(); ++a) {
        size_t first = static_cast<size_t>(std::find(mine.begin(), mine.end(), mine[a]) - mine.begin());
        if (first == a) continue;
        const int64_t m = shapes[i][a];
        Shape eye_shape(mine.size(), 1);
        eye_shape[first] = eye_shape[a] = m;
        Tensor eye = Tensor::zeros(eye_shape, DType::Float64);
        for (int64_t k = 0; k < m; ++k) eye.data<double>()[k * (eye.strides()[first] + eye.strides()[a])] = 1.0;
        g = b.mul(g, b.cast(e.constant(eye), dtype));
      }
    }
    grads.push_back(g);
  }
  return grads;
}

}  // namespace

SPROUT_REGISTER(math_einsum) {
  define_op<EinsumAttrs>("Einsum")
      .doc("Einstein summation over a tuple of tensors: 'bij,bjk->bik' is a batched matrix product.")
      .inputs({"x"})
      .outputs({"output"})
      .variadic()
      .infer(infer_einsum)
      .bprop(einsum_bprop);
}

}  // namespace sprout
