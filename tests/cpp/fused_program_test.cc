// The fused elementwise program runner (simd_program.h) against the same steps run one op at a time:
// results must be bit-identical for every block split, alignment, store mode and broadcast input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "kernels/cpu/simd_program.h"

namespace sprout {
namespace {

FusedStep binary(BinaryOp op, int32_t a, int32_t b) { return {FusedKind::Binary, uint8_t(op), a, b, "binary"}; }
FusedStep unary(UnaryOp op, int32_t a) { return {FusedKind::Unary, uint8_t(op), a, 0, "unary"}; }

// Registers 0, 1 are full inputs and 2 is one element: exp(x * y + s) - log(sqrt(s) / y), max'ed with
// -x. Exp and Log see values outside their vector domain (overflow, 0, negatives), redone by libm.
template <class T>
FusedElementwise test_program() {
  FusedElementwise f;
  f.dtype = sizeof(T) == 4 ? DType::Float32 : DType::Float64;
  f.n_inputs = 3;
  f.steps = {binary(BinaryOp::Mul, 0, 1),  binary(BinaryOp::Add, 3, 2), unary(UnaryOp::Exp, 4),
             unary(UnaryOp::Sqrt, 2),      binary(BinaryOp::Div, 6, 1), unary(UnaryOp::Log, 7),
             binary(BinaryOp::Sub, 5, 8),  unary(UnaryOp::Neg, 0),      binary(BinaryOp::Max, 9, 10)};
  return f;
}

// The program run op by op over whole arrays, the way eager mode would.
template <class T>
std::vector<T> one_op_at_a_time(const FusedElementwise& f, const std::vector<const T*>& in,
                                const std::vector<int64_t>& strides, int64_t n) {
  std::vector<std::vector<T>> regs;
  std::vector<const T*> ptr(in);
  std::vector<int64_t> stride(strides);
  regs.reserve(f.steps.size());
  for (const FusedStep& s : f.steps) {
    regs.emplace_back(n);
    if (s.kind == FusedKind::Binary)
      simd_binary(BinaryOp(s.code), ptr[s.a], stride[s.a], ptr[s.b], stride[s.b], regs.back().data(), n);
    else if (stride[s.a] == 0)
      for (int64_t i = 0; i < n; ++i) simd_unary(UnaryOp(s.code), ptr[s.a], regs.back().data() + i, 1);
    else
      simd_unary(UnaryOp(s.code), ptr[s.a], regs.back().data(), n);
    ptr.push_back(regs.back().data());
    stride.push_back(1);
  }
  return regs.back();
}

template <class T>
void check_against_one_op_at_a_time() {
  const FusedElementwise f = test_program<T>();
  std::mt19937 gen(7);
  std::uniform_real_distribution<T> dist(T(-3), T(3));
  const int64_t n = 3 * kProgramBlock<T> + 13;
  std::vector<T> x(n), y(n), s = {T(0.25)};
  for (int64_t i = 0; i < n; ++i) x[i] = dist(gen), y[i] = dist(gen);
  x[5] = T(200), y[5] = T(1);  // exp overflows to inf
  y[6] = T(0);                 // division by zero, log of inf
  x[7] = std::numeric_limits<T>::quiet_NaN();
  const std::vector<const T*> in = {x.data(), y.data(), s.data()};
  const std::vector<int64_t> strides = {1, 1, 0};
  const std::vector<T> expected = one_op_at_a_time(f, in, strides, n);
  std::vector<T> scratch(f.steps.size() * kProgramBlock<T>);
  for (Stores stores : {Stores::Cached, Stores::Streaming}) {
    // Ranges that start unaligned, end mid-vector, hold less than a vector, or span several blocks.
    for (auto [begin, end] : std::vector<std::pair<int64_t, int64_t>>{{0, n}, {3, n}, {1, 6}, {17, 2 * kProgramBlock<T> + 1}}) {
      std::vector<T> out(n, T(-7));
      simd_program(f, in.data(), strides.data(), out.data(), begin, end, stores, scratch.data());
      for (int64_t i = 0; i < n; ++i) {
        const T want = begin <= i && i < end ? expected[i] : T(-7);
        if (std::isnan(want)) EXPECT_TRUE(std::isnan(out[i])) << "element " << i;
        else EXPECT_EQ(out[i], want) << "element " << i << " of [" << begin << ", " << end << ")";
      }
    }
  }
}

TEST(SimdProgram, MatchesTheOpsRunOneAtATimeFloat) { check_against_one_op_at_a_time<float>(); }
TEST(SimdProgram, MatchesTheOpsRunOneAtATimeDouble) { check_against_one_op_at_a_time<double>(); }

TEST(SimdProgram, OneElementProgramsFillTheOutput) {
  FusedElementwise f;
  f.n_inputs = 2;
  f.steps = {binary(BinaryOp::Add, 0, 1), unary(UnaryOp::Sqrt, 2)};  // sqrt(a + b), both broadcast
  const float a = 7.0f, b = 9.0f;
  const float* in[] = {&a, &b};
  const int64_t strides[] = {0, 0};
  std::vector<float> out(40), scratch(f.steps.size() * kProgramBlock<float>);
  simd_program(f, in, strides, out.data(), 0, 40, Stores::Cached, scratch.data());
  for (float v : out) EXPECT_EQ(v, 4.0f);
}

TEST(SimdProgram, RunsBinaryAndUnaryStepsOnly) {
  FusedElementwise f = test_program<float>();
  EXPECT_TRUE(simd_program_runs(f));
  f.steps.push_back({FusedKind::Math, 0, 11, 0, "Abs"});
  EXPECT_FALSE(simd_program_runs(f));
}

}  // namespace
}  // namespace sprout
