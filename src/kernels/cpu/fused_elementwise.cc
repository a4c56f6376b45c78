// The fused elementwise kernel. Note [Fused blocks]
// A program runs block by block over the output, every step of a block before the next block, so
// intermediates live in a per-thread scratch row per step and never leave L1/L2; each step runs its
// op's own vector loop, so the results are bit-identical to the ops run one by one. Two runners:
// - Programs of binary and unary (Neg/Exp/Log/Sqrt) steps over full or one-element inputs, the common
//   x * y + z or exp(x - m), run inside one vector routine (simd_program.cc) in blocks of 512 bytes.
//   Past the last-level cache, blocks that small keep the input streams interleaved finely: x*y+z over
//   4M floats, two threads, 1.95-2.28 ms in 1024-element blocks with a dispatched call per step and
//   block, 1.28-1.54 ms now (eager, two ops: 1.9-2.1); one thread 3.3-4.3 -> 2.5-2.8 ms.
// - Everything else (math and activation steps, inputs broadcast along axes) calls the ops' dispatched
//   routines (simd.h, simd_math.h, nn_act_simd.h) on blocks of kBlock elements, a multiple of every
//   vector width, so each element takes the same vector path as in the op's own kernel. The last step
//   writes the output's block (past the last-level cache with streaming stores, Note [Streaming
//   stores]). Inputs of one element are broadcast with stride 0; a step whose operands are all single
//   elements computes one. An input broadcast along leading and trailing axes (a bias) is expanded into
//   a scratch row per block: element i of the output reads element (i / inner) % size of the input.
#include "kernels/cpu/fused_elementwise.h"

#include <algorithm>
#include <vector>

#include "base/aligned_vector.h"
#include "base/error.h"
#include "kernels/cpu/nn_act_simd.h"
#include "base/parallel.h"
#include "kernels/cpu/simd.h"
#include "kernels/cpu/simd_math.h"
#include "kernels/cpu/simd_program.h"

namespace sprout {

std::string FusedElementwise::to_string() const {
  std::string out = "Fused[";
  for (size_t i = 0; i < steps.size(); ++i) out += (i ? ", " : "") + steps[i].name;
  return out + "]";
}

std::optional<FusedStep> fusible_step(std::string_view op) {
  struct Entry {
    std::string_view name;
    FusedKind kind;
    uint8_t code;
  };
  static const Entry kTable[] = {
      {"Add", FusedKind::Binary, uint8_t(BinaryOp::Add)},       {"Sub", FusedKind::Binary, uint8_t(BinaryOp::Sub)},
      {"Mul", FusedKind::Binary, uint8_t(BinaryOp::Mul)},       {"RealDiv", FusedKind::Binary, uint8_t(BinaryOp::Div)},
      {"Div", FusedKind::Binary, uint8_t(BinaryOp::Div)},       {"Maximum", FusedKind::Binary, uint8_t(BinaryOp::Max)},
      {"Minimum", FusedKind::Binary, uint8_t(BinaryOp::Min)},   {"Neg", FusedKind::Unary, uint8_t(UnaryOp::Neg)},
      {"Exp", FusedKind::Unary, uint8_t(UnaryOp::Exp)},         {"Log", FusedKind::Unary, uint8_t(UnaryOp::Log)},
      {"Sqrt", FusedKind::Unary, uint8_t(UnaryOp::Sqrt)},       {"Abs", FusedKind::Math, uint8_t(MathOp::Abs)},
      {"Square", FusedKind::Math, uint8_t(MathOp::Square)},     {"Reciprocal", FusedKind::Math, uint8_t(MathOp::Reciprocal)},
      {"Rsqrt", FusedKind::Math, uint8_t(MathOp::Rsqrt)},       {"Tanh", FusedKind::Math, uint8_t(MathOp::Tanh)},
      {"Sin", FusedKind::Math, uint8_t(MathOp::Sin)},           {"Cos", FusedKind::Math, uint8_t(MathOp::Cos)},
      {"Erf", FusedKind::Math, uint8_t(MathOp::Erf)},           {"Expm1", FusedKind::Math, uint8_t(MathOp::Expm1)},
      {"Log1p", FusedKind::Math, uint8_t(MathOp::Log1p)},       {"ReLU", FusedKind::Activation, uint8_t(Activation::ReLU)},
      {"ReLU6", FusedKind::Activation, uint8_t(Activation::ReLU6)}, {"Sigmoid", FusedKind::Activation, uint8_t(Activation::Sigmoid)},
      {"SiLU", FusedKind::Activation, uint8_t(Activation::SiLU)}, {"Softplus", FusedKind::Activation, uint8_t(Activation::Softplus)},
      {"HSwish", FusedKind::Activation, uint8_t(Activation::HSwish)}, {"HSigmoid", FusedKind::Activation, uint8_t(Activation::HSigmoid)},
      {"Mish", FusedKind::Activation, uint8_t(Activation::Mish)}, {"Floor", FusedKind::Math, uint8_t(MathOp::Floor)},
      {"Trunc", FusedKind::Math, uint8_t(MathOp::Trunc)},
  };
  for (const Entry& e : kTable)
    if (e.name == op) return FusedStep{e.kind, e.code, 0, 0, std::string(op)};
  return std::nullopt;
}

namespace {

constexpr int64_t kBlock = 1024;
constexpr int64_t kTiny = 8;  // below this, a plain loop beats dispatching to the vector routine

// The binary ops on a few elements: the same IEEE operations as simd_binary (Max/Min propagate NaN).
template <class T>
void tiny_binary(BinaryOp op, const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    T x = a[i * sa], y = b[i * sb];
    switch (op) {
      case BinaryOp::Add: out[i] = x + y; break;
      case BinaryOp::Sub: out[i] = x - y; break;
      case BinaryOp::Mul: out[i] = x * y; break;
      case BinaryOp::Div: out[i] = x / y; break;
      case BinaryOp::Max: out[i] = x != x ? x : y != y ? y : (x > y ? x : y); break;
      case BinaryOp::Min: out[i] = x != x ? x : y != y ? y : (x < y ? x : y); break;
    }
  }
}

template <class T>
void one_operand(const FusedStep& s, const T* x, T* out, int64_t n, Stores stores = Stores::Cached) {
  switch (s.kind) {
    case FusedKind::Unary: return simd_unary(static_cast<UnaryOp>(s.code), x, out, n, stores);
    case FusedKind::Math: return simd_math(static_cast<MathOp>(s.code), x, out, n);
    case FusedKind::Activation: return simd_activation(static_cast<Activation>(s.code), T(0), x, out, n);
    case FusedKind::Binary: break;
  }
  SPROUT_ASSERT(false, "fused step ", s.name, " is not a one-operand op");
}

// row[j] = in[((start + j) / inner) % size] for j < len, written run by run: `inner` equal values in a
// row (a per-channel value), or for inner == 1 stretches copied from the cycling input (a bias).
template <class T>
void expand_band(const T* in, int64_t size, int64_t inner, int64_t start, int64_t len, T* row) {
  int64_t i = start, end = start + len;
  if (inner == 1) {
    while (i < end) {
      int64_t at = i % size, n = std::min(size - at, end - i);
      std::copy(in + at, in + at + n, row + (i - start));
      i += n;
    }
    return;
  }
  while (i < end) {
    int64_t run_end = std::min(end, (i / inner + 1) * inner);
    std::fill(row + (i - start), row + (run_end - start), in[(i / inner) % size]);
    i = run_end;
  }
}

template <class T>
void run_typed(const FusedElementwise& f, std::span<const Tensor> inputs, Tensor& out) {
  const int64_t n = out.numel();
  const size_t n_regs = static_cast<size_t>(f.n_inputs) + f.steps.size();
  std::vector<const T*> input_ptr(static_cast<size_t>(f.n_inputs));
  std::vector<bool> input_scalar(static_cast<size_t>(f.n_inputs));
  std::vector<int64_t> input_inner(static_cast<size_t>(f.n_inputs), 0);  // 0: the output's own shape
  for (int32_t i = 0; i < f.n_inputs; ++i) {
    input_ptr[i] = inputs[i].data<T>();
    input_scalar[i] = inputs[i].numel() == 1 && n != 1;
    if (!input_scalar[i] && inputs[i].numel() != n) {
      // Right-aligned, the input's last non-1 axis is followed by `inner` output elements.
      const Shape& in = inputs[i].shape();
      size_t offset = f.shape.size() - in.size();
      size_t last = in.size();
      while (last > 0 && in[last - 1] == 1) --last;
      int64_t inner = 1;
      for (size_t d = offset + last; d < f.shape.size(); ++d) inner *= f.shape[d];
      input_inner[i] = inner;
    }
  }
  T* result = out.data<T>();
  // Note [Streaming stores]: past the last-level cache the last step streams its results to the output.
  const Stores stores = stores_for(inputs, out);
  const bool any_band = std::any_of(input_inner.begin(), input_inner.end(), [](int64_t inner) { return inner != 0; });
  if (!any_band && simd_program_runs(f)) {
    std::vector<int64_t> strides(input_scalar.size());
    for (size_t i = 0; i < strides.size(); ++i) strides[i] = input_scalar[i] ? 0 : 1;
    parallel_for(n, kParallelGrain, [&](int64_t begin, int64_t end) {
      thread_local AlignedVector<T> scratch;  // Note [Aligned scratch]
      const size_t size = f.steps.size() * static_cast<size_t>(kProgramBlock<T>);
      if (scratch.size() < size) scratch.resize(size);
      simd_program(f, input_ptr.data(), strides.data(), result, begin, end, stores, scratch.data());
    });
    return;
  }
  const int64_t block = std::min(kBlock, n);
  parallel_for(n, kParallelGrain, [&](int64_t begin, int64_t end) {
    // One scratch row per step, reused across calls (grown, never shrunk or cleared).
    thread_local AlignedVector<T> scratch;
    const size_t rows = f.steps.size() + static_cast<size_t>(f.n_inputs);  // steps, then expanded inputs
    if (scratch.size() < rows * static_cast<size_t>(block)) scratch.resize(rows * block);
    std::vector<const T*> reg(n_regs);
    std::vector<bool> scalar(n_regs);
    for (int64_t b = begin; b < end; b += kBlock) {
      const int64_t len = std::min(kBlock, end - b);
      for (int32_t i = 0; i < f.n_inputs; ++i) {
        scalar[i] = input_scalar[i];
        reg[i] = scalar[i] ? input_ptr[i] : input_ptr[i] + b;
        if (input_inner[i]) {
          T* row = scratch.data() + (f.steps.size() + static_cast<size_t>(i)) * block;
          expand_band(input_ptr[i], inputs[i].numel(), input_inner[i], b, len, row);
          reg[i] = row;
        }
      }
      for (size_t k = 0; k < f.steps.size(); ++k) {
        const FusedStep& s = f.steps[k];
        const size_t r = static_cast<size_t>(f.n_inputs) + k;
        const bool last = k + 1 == f.steps.size();
        T* const own_row = scratch.data() + k * block;
        if (s.kind == FusedKind::Binary) {
          scalar[r] = scalar[s.a] && scalar[s.b];
          T* dst = last ? result + b : own_row;
          const int64_t count = scalar[r] && !last ? 1 : len;
          if (count <= kTiny)
            tiny_binary(static_cast<BinaryOp>(s.code), reg[s.a], scalar[s.a] ? 0 : 1, reg[s.b], scalar[s.b] ? 0 : 1, dst,
                        count);
          else
            simd_binary(static_cast<BinaryOp>(s.code), reg[s.a], scalar[s.a] ? 0 : 1, reg[s.b], scalar[s.b] ? 0 : 1,
                        dst, count, last ? stores : Stores::Cached);
          reg[r] = dst;
        } else {
          scalar[r] = scalar[s.a];
          // Math and activation routines have no streaming variant: their last step goes through its row.
          const bool copy_out = last && stores == Stores::Streaming && s.kind != FusedKind::Unary;
          T* dst = last && !copy_out ? result + b : own_row;
          if (scalar[r] && last) {  // a single-element program broadcast to the output (n == 1 here)
            one_operand(s, reg[s.a], dst, 1);
            for (int64_t i = 1; i < len; ++i) dst[i] = dst[0];
          } else {
            one_operand(s, reg[s.a], dst, scalar[r] ? 1 : len, last ? stores : Stores::Cached);
          }
          if (copy_out) simd_stream_copy(dst, result + b, len);
          reg[r] = dst;
        }
      }
    }
  });
}

}  // namespace

void run_fused_elementwise(const FusedElementwise& f, std::span<const Tensor> inputs, Tensor& out) {
  SPROUT_ASSERT(static_cast<int32_t>(inputs.size()) == f.n_inputs, "fused program takes ", f.n_inputs, " inputs");
  std::vector<Tensor> contiguous;
  for (const Tensor& t : inputs) contiguous.push_back(t.is_contiguous() ? t : t.contiguous());
  if (f.dtype == DType::Float32) return run_typed<float>(f, contiguous, out);
  if (f.dtype == DType::Float64) return run_typed<double>(f, contiguous, out);
  SPROUT_ASSERT(false, "fused elementwise programs are float32 or float64");
}

}  // namespace sprout
