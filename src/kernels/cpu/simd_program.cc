// Highway implementation of simd_program.h (Note [Highway dynamic dispatch] in simd.cc).
// Each step runs the same vector loop as its op run alone (simd_elementwise-inl.h), so a fused chain's
// results are bit-identical to its ops' one by one; only the order of the work differs
// (Note [Fused blocks] in fused_elementwise.cc).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_program.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include "base/error.h"
#include "base/small_vector.h"
#include "kernels/cpu/simd_elementwise-inl.h"
#include "kernels/cpu/simd_program.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// n elements of one binary step; with `stream`, out is vector-aligned and its whole vectors are
// streamed (the caller flushes).
template <BinaryOp OP, class T>
HWY_INLINE void binary_block(const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n, bool stream) {
  if (stream) {
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<T>()));
    const int64_t whole = n - n % lanes;
    binary_vectors_streamed<OP>(a, sa, b, sb, out, whole);
    a += whole * sa, b += whole * sb, out += whole, n -= whole;
  }
  binary_loop<OP>(a, sa, b, sb, out, n);
}

template <UnaryOp OP, class T>
HWY_INLINE void unary_block(const T* x, T* out, int64_t n, bool stream) {
  if (stream) {
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(hn::ScalableTag<T>()));
    const int64_t whole = n - n % lanes;
    unary_vectors<OP, true>(x, out, whole);
    x += whole, out += whole, n -= whole;
  }
  unary_loop<OP>(x, out, n, Stores::Cached);
}

template <class T>
HWY_INLINE void binary_step(BinaryOp op, const T* a, int64_t sa, const T* b, int64_t sb, T* out, int64_t n,
                            bool stream) {
  switch (op) {
    case BinaryOp::Add: return binary_block<BinaryOp::Add>(a, sa, b, sb, out, n, stream);
    case BinaryOp::Sub: return binary_block<BinaryOp::Sub>(a, sa, b, sb, out, n, stream);
    case BinaryOp::Mul: return binary_block<BinaryOp::Mul>(a, sa, b, sb, out, n, stream);
    case BinaryOp::Div: return binary_block<BinaryOp::Div>(a, sa, b, sb, out, n, stream);
    case BinaryOp::Max: return binary_block<BinaryOp::Max>(a, sa, b, sb, out, n, stream);
    case BinaryOp::Min: return binary_block<BinaryOp::Min>(a, sa, b, sb, out, n, stream);
  }
}

template <class T>
HWY_INLINE void unary_step(UnaryOp op, const T* x, T* out, int64_t n, bool stream) {
  switch (op) {
    case UnaryOp::Neg: return unary_block<UnaryOp::Neg>(x, out, n, stream);
    case UnaryOp::Exp: return unary_block<UnaryOp::Exp>(x, out, n, stream);
    case UnaryOp::Log: return unary_block<UnaryOp::Log>(x, out, n, stream);
    case UnaryOp::Sqrt: return unary_block<UnaryOp::Sqrt>(x, out, n, stream);
  }
}

template <class T>
void program_impl(const FusedElementwise& f, const T* const* inputs, const int64_t* strides, T* out, int64_t begin,
                  int64_t end, Stores stores, T* scratch) {
  constexpr int64_t kBlock = kProgramBlock<T>;
  const size_t n_inputs = static_cast<size_t>(f.n_inputs), n_steps = f.steps.size();
  // Register r: inputs first, then the steps' rows. A step whose operands are all single elements
  // computes one element (stride 0); the last step always fills its block of the output.
  SmallVector<const T*, 16> reg(n_inputs + n_steps);
  SmallVector<int64_t, 16> stride(n_inputs + n_steps);
  for (size_t i = 0; i < n_inputs; ++i) stride[i] = strides[i];
  for (size_t k = 0; k < n_steps; ++k) {
    const FusedStep& s = f.steps[k];
    const bool single = stride[s.a] == 0 && (s.kind == FusedKind::Unary || stride[s.b] == 0);
    stride[n_inputs + k] = single && k + 1 < n_steps ? 0 : 1;
    reg[n_inputs + k] = scratch + k * kBlock;
  }
  auto run_block = [&](int64_t start, int64_t len, bool stream) {
    for (size_t i = 0; i < n_inputs; ++i) reg[i] = inputs[i] + start * stride[i];
    for (size_t k = 0; k < n_steps; ++k) {
      const FusedStep& s = f.steps[k];
      const bool last = k + 1 == n_steps;
      T* dst = last ? out + start : scratch + k * kBlock;
      const int64_t count = stride[n_inputs + k] ? len : 1;
      if (s.kind == FusedKind::Binary) {
        binary_step(static_cast<BinaryOp>(s.code), reg[s.a], stride[s.a], reg[s.b], stride[s.b], dst, count,
                    stream && last);
      } else if (last && stride[s.a] == 0) {  // a one-element program broadcast to the output
        unary_step(static_cast<UnaryOp>(s.code), reg[s.a], dst, 1, false);
        std::fill(dst + 1, dst + len, dst[0]);
      } else {
        unary_step(static_cast<UnaryOp>(s.code), reg[s.a], dst, count, stream && last);
      }
    }
  };
  // Streaming stores need a vector-aligned destination: the elements before out's first aligned
  // address make a short block of their own, after which every block starts aligned.
  const bool stream = stores == Stores::Streaming;
  int64_t start = begin;
  if (stream) {
    const int64_t head = elements_before_aligned(hn::ScalableTag<T>(), out + begin, end - begin);
    if (head > 0) run_block(start, head, false);
    start += head;
  }
  for (; start < end; start += kBlock) run_block(start, std::min(kBlock, end - start), stream);
  if (stream) hwy::FlushStream();
}

void ProgramF32(const FusedElementwise& f, const float* const* inputs, const int64_t* strides, float* out,
                int64_t begin, int64_t end, Stores stores, float* scratch) {
  program_impl(f, inputs, strides, out, begin, end, stores, scratch);
}
void ProgramF64(const FusedElementwise& f, const double* const* inputs, const int64_t* strides, double* out,
                int64_t begin, int64_t end, Stores stores, double* scratch) {
  program_impl(f, inputs, strides, out, begin, end, stores, scratch);
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(ProgramF32);
HWY_EXPORT(ProgramF64);

bool simd_program_runs(const FusedElementwise& f) {
  for (const FusedStep& s : f.steps)
    if (s.kind != FusedKind::Binary && s.kind != FusedKind::Unary) return false;
  return true;
}

void simd_program(const FusedElementwise& f, const float* const* inputs, const int64_t* strides, float* out,
                  int64_t begin, int64_t end, Stores stores, float* scratch) {
  HWY_DYNAMIC_DISPATCH(ProgramF32)(f, inputs, strides, out, begin, end, stores, scratch);
}
void simd_program(const FusedElementwise& f, const double* const* inputs, const int64_t* strides, double* out,
                  int64_t begin, int64_t end, Stores stores, double* scratch) {
  HWY_DYNAMIC_DISPATCH(ProgramF64)(f, inputs, strides, out, begin, end, stores, scratch);
}
}  // namespace sprout
#endif
