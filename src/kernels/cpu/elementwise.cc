// CPU kernels of the elementwise ops: binary arithmetic, comparisons, unary functions.
// Float and double contiguous runs go to the SIMD loops (simd.h); every other dtype and any strided
// run use a scalar loop the compiler vectorizes where it can. Work is split across threads by
// elements, so a single long row and many short rows parallelize alike (NdLoop::run_elements).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "base/parallel.h"
#include "kernels/cpu/simd.h"
#include "kernels/cpu/simd_math.h"
#include "kernels/cpu/simd_half.h"
#include "kernels/cpu/transposed_operands.h"
#include "kernels/cpu/unit_strides.h"
#include "kernels/cpu/wrapping_arith.h"
#include "ops/op_def.h"
#include "tensor/nd_loop.h"

namespace sprout {
namespace {

enum class Arith { Add, Sub, Mul, Div, Max, Min, Pow };
enum class Compare { Eq, Ne, Lt, Le, Gt, Ge };

template <class C>
C nan_aware_max(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return a > b ? a : b;
}
template <class C>
C nan_aware_min(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
  }
  return a < b ? a : b;
}

template <Arith OP, class C>
C arith(C a, C b) {
  if constexpr (OP == Arith::Add) return wrap_add(a, b);  // integers wrap (kernels/cpu/wrapping_arith.h)
  if constexpr (OP == Arith::Sub) return wrap_sub(a, b);
  if constexpr (OP == Arith::Mul) return wrap_mul(a, b);
  if constexpr (OP == Arith::Div) return static_cast<C>(a / b);
  if constexpr (OP == Arith::Max) return nan_aware_max(a, b);
  if constexpr (OP == Arith::Min) return nan_aware_min(a, b);
  if constexpr (OP == Arith::Pow) {
    if constexpr (std::is_integral_v<C>) {
      if constexpr (std::is_signed_v<C>) {
        if (b < 0) return static_cast<C>(a == 1 ? 1 : (a == -1 ? (b % 2 ? -1 : 1) : 0));
      }
      C result = 1;
      for (C base = a, e = b; e; e >>= 1, base = wrap_mul(base, base))
        if (e & 1) result = wrap_mul(result, base);
      return result;
    } else {
      return std::pow(a, b);
    }
  }
}

template <Arith OP>
constexpr bool has_simd() { return OP != Arith::Pow; }
template <Arith OP>
constexpr BinaryOp simd_op() {
  if constexpr (OP == Arith::Add) return BinaryOp::Add;
  if constexpr (OP == Arith::Sub) return BinaryOp::Sub;
  if constexpr (OP == Arith::Mul) return BinaryOp::Mul;
  if constexpr (OP == Arith::Div) return BinaryOp::Div;
  if constexpr (OP == Arith::Max) return BinaryOp::Max;
  return BinaryOp::Min;
}

// Note [Short broadcast rows]
// x (N, C) + b (C,) runs row by row, and each row's call (SIMD dispatch, tail, bookkeeping) costs about
// 12 ns: for C = 16 that is five times the arithmetic. When one operand has out's shape and the other
// repeats one contiguous block of out's trailing dims, the block is copied into a tile on the stack a
// few times over, and the rows go to the kernel a tile at a time, as if both operands were contiguous.
// float32 x + b, alternating builds: (4096, 16) 20.3 -> 5.5 us, (256, 64) 3.6 -> 1.7 us, (64, 512)
// 3.7 -> 3.45 us; (1024, 1024) unchanged (two rows to a tile).
constexpr int64_t kBroadcastTileBytes = 8192;

// The length of the block that t repeats when broadcast to `shape` (t is contiguous and its shape,
// leading 1s dropped, is a proper suffix of `shape`), else 0.
int64_t repeated_block(const Tensor& t, const Shape& shape) {
  if (!t.is_contiguous()) return 0;
  const Shape& ts = t.shape();
  size_t lead = 0;
  while (lead < ts.size() && ts[lead] == 1) ++lead;
  const size_t dims = ts.size() - lead;
  if (dims == 0 || dims >= shape.size()) return 0;
  for (size_t i = 0; i < dims; ++i)
    if (ts[lead + i] != shape[shape.size() - dims + i]) return 0;
  return t.numel();
}

// Runs row(out, a, b, strides..., n) over the broadcast of in[0] and in[1] into out.
template <class Row>
void for_each_binary_row(const Tensor& a_in, const Tensor& b_in, const Tensor& out, Row&& row) {
  if (gathers_along_rows(a_in, out) || gathers_along_rows(b_in, out))
    return for_each_binary_row(in_row_order(a_in, out), in_row_order(b_in, out), out, row);
  const int64_t io = out.itemsize(), ia = a_in.itemsize();
  if (a_in.shape() == out.shape() && b_in.shape() == out.shape() && a_in.is_contiguous() && b_in.is_contiguous() &&
      out.is_contiguous()) {  // the common case, without broadcast views or an NdLoop
    char* po = static_cast<char*>(out.raw_data());
    const char* pa = static_cast<const char*>(a_in.raw_data());
    const char* pb = static_cast<const char*>(b_in.raw_data());
    parallel_for(out.numel(), kParallelGrain, [&](int64_t begin, int64_t end) {
      row(po + begin * io, pa + begin * ia, pb + begin * ia, 1, 1, 1, end - begin);
    });
    return;
  }
  if (out.is_contiguous()) {  // Note [Short broadcast rows]
    const bool a_full = a_in.shape() == out.shape() && a_in.is_contiguous();
    const bool b_full = b_in.shape() == out.shape() && b_in.is_contiguous();
    const int64_t block = a_full ? repeated_block(b_in, out.shape()) : b_full ? repeated_block(a_in, out.shape()) : 0;
    if (block > 0 && block * ia <= kBroadcastTileBytes / 2) {
      const char* full = static_cast<const char*>((a_full ? a_in : b_in).raw_data());
      const char* repeated = static_cast<const char*>((a_full ? b_in : a_in).raw_data());
      char* po = static_cast<char*>(out.raw_data());
      const int64_t tile_rows = kBroadcastTileBytes / (block * ia);
      parallel_for(out.numel() / block, std::max<int64_t>(1, kParallelGrain / block), [&](int64_t begin, int64_t end) {
        alignas(64) char tile[kBroadcastTileBytes];
        for (int64_t r = 0; r < std::min(tile_rows, end - begin); ++r)
          std::memcpy(tile + r * block * ia, repeated, static_cast<size_t>(block * ia));
        for (int64_t r = begin; r < end; r += tile_rows) {
          const int64_t n = std::min(tile_rows, end - r) * block;
          char* o = po + r * block * io;
          const char* f = full + r * block * ia;
          if (a_full) row(o, f, tile, 1, 1, 1, n);
          else row(o, tile, f, 1, 1, 1, n);
        }
      });
      return;
    }
  }
  Tensor a = a_in.expand(out.shape()), b = b_in.expand(out.shape());
  NdLoop<3> loop(out.shape(), {std::span<const int64_t>(out.strides()), std::span<const int64_t>(a.strides()),
                               std::span<const int64_t>(b.strides())});
  const int64_t so = loop.inner_stride(0), sa = loop.inner_stride(1), sb = loop.inner_stride(2);
  char* po = static_cast<char*>(out.raw_data());
  const char* pa = static_cast<const char*>(a.raw_data());
  const char* pb = static_cast<const char*>(b.raw_data());
  parallel_for(out.numel(), kParallelGrain, [&](int64_t begin, int64_t end) {
    loop.run_elements(begin, end, [&](const std::array<int64_t, 3>& off, int64_t n) {
      row(po + off[0] * io, pa + off[1] * ia, pb + off[2] * ia, so, sa, sb, n);
    });
  });
}

// Div's and the transcendentals' PromoteToFloat policy casts integer inputs to Float32 before any kernel
// runs: their integer loops would be dead code, and compiling them for eight integer dtypes costs time.
template <class T>
constexpr bool never_float() { return !std::is_floating_point_v<compute_t<T>>; }

template <Arith OP>
void arith_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const Stores stores = stores_for(in, out[0]);  // Note [Streaming stores]
  visit_dtype(out[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = std::conditional_t<std::is_same_v<T, bool>, int, compute_t<T>>;
    if constexpr (OP == Arith::Div && never_float<T>()) {
      SPROUT_ASSERT(false, "Div kernel on ", name(out[0].dtype()), ": the op's policy casts to float first");
    } else {
      for_each_binary_row(in[0], in[1], out[0], [stores](char* o, const char* a, const char* b, int64_t so, int64_t sa,
                                                   int64_t sb, int64_t n) {
        T* po = reinterpret_cast<T*>(o);
        const T* pa = reinterpret_cast<const T*>(a);
        const T* pb = reinterpret_cast<const T*>(b);
        const bool units = so == 1 && is_unit_or_zero(sa) && is_unit_or_zero(sb);
        if constexpr (OP == Arith::Pow && (std::is_same_v<T, float> || std::is_same_v<T, double>)) {
          if (so == 1 && sa == 1 && sb == 0 && simd_pow_scalar(pa, pb[0], po, n)) return;  // Note [Powers by a scalar]
          if constexpr (std::is_same_v<T, float>) {
            if (units) return simd_pow(pa, sa, pb, sb, po, n);
          }
        } else if constexpr (OP == Arith::Pow && is_half_v<T>) {
          if (so == 1 && sa == 1 && sb == 0 && std::isfinite(static_cast<float>(pb[0]))) {  // float takes any such e
            return for_each_widened_block<1, T>({pa}, {1}, n, [&](const auto& w, int64_t i, int64_t m) {
              alignas(64) float result[kHalfBlock];
              simd_pow_scalar(w[0], static_cast<float>(pb[0]), result, m);
              simd_narrow(result, po + i, m);
            });
          }
        }
        if constexpr ((std::is_same_v<T, float> || std::is_same_v<T, double>) && has_simd<OP>()) {
          if (units) return simd_binary(simd_op<OP>(), pa, sa, pb, sb, po, n, stores);
        } else if constexpr (is_half_v<T> && has_simd<OP>()) {
          if (units) {  // computed in float, as the scalar loop does, a block at a time
            return for_each_widened_block<2, T>({pa, pb}, {sa, sb}, n, [&](const auto& w, int64_t i, int64_t m) {
              alignas(64) float result[kHalfBlock];
              simd_binary(simd_op<OP>(), w[0], sa, w[1], sb, result, m);
              simd_narrow(result, po + i, m);
            });
          }
        }
        with_unit_strides<2>(so, {sa, sb}, [&](auto so, auto sa, auto sb) {
          for (int64_t i = 0; i < n; ++i)
            po[i * so] = static_cast<T>(arith<OP, C>(static_cast<C>(pa[i * sa]), static_cast<C>(pb[i * sb])));
        });
      });
    }
  });
}

template <Compare OP, class C>
bool compare(C a, C b) {
  if constexpr (OP == Compare::Eq) return a == b;
  if constexpr (OP == Compare::Ne) return a != b;
  if constexpr (OP == Compare::Lt) return a < b;
  if constexpr (OP == Compare::Le) return a <= b;
  if constexpr (OP == Compare::Gt) return a > b;
  if constexpr (OP == Compare::Ge) return a >= b;
}

template <Compare OP>
void compare_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  visit_dtype(in[0].dtype(), [&](auto zero) {
    using T = decltype(zero);
    using C = compute_t<T>;
    for_each_binary_row(in[0], in[1], out[0], [](char* o, const char* a, const char* b, int64_t so, int64_t sa,
                                                 int64_t sb, int64_t n) {
      bool* po = reinterpret_cast<bool*>(o);
      const T* pa = reinterpret_cast<const T*>(a);
      const T* pb = reinterpret_cast<const T*>(b);
      if constexpr (is_half_v<T>) {
        if (so == 1 && sa <= 1 && sb <= 1 && sa >= 0 && sb >= 0) {
          return for_each_widened_block<2, T>({pa, pb}, {sa, sb}, n, [&](const auto& w, int64_t i, int64_t m) {
            with_unit_strides<2>(1, {sa, sb}, [&](auto, auto sa, auto sb) {
              for (int64_t j = 0; j < m; ++j) po[i + j] = compare<OP, float>(w[0][j * sa], w[1][j * sb]);
            });
          });
        }
      }
      with_unit_strides<2>(so, {sa, sb}, [&](auto so, auto sa, auto sb) {
        for (int64_t i = 0; i < n; ++i)
          po[i * so] = compare<OP, C>(static_cast<C>(pa[i * sa]), static_cast<C>(pb[i * sb]));
      });
    });
  });
}

template <UnaryOp OP, class C>
C unary_scalar(C x) {
  if constexpr (OP == UnaryOp::Neg) {
    if constexpr (std::is_integral_v<C>) return wrap_sub(C(0), x);  // -MIN wraps to MIN, as NumPy's
    else return static_cast<C>(-x);                                  // -0.0 for +0.0
  }
  if constexpr (OP == UnaryOp::Exp) return std::exp(x);
  if constexpr (OP == UnaryOp::Log) return std::log(x);
  if constexpr (OP == UnaryOp::Sqrt) return std::sqrt(x);
}

template <UnaryOp OP>
void unary_kernel(const NoAttrs&, std::span<const Tensor> in, std::span<Tensor> out) {
  const Tensor& o = out[0];
  const Tensor x = in_row_order(in[0], o);  // a transposed view: copied in tiles first, as for binary ops
  NdLoop<2> loop(o.shape(), {std::span<const int64_t>(o.strides()), std::span<const int64_t>(x.strides())});
  const int64_t so = loop.inner_stride(0), sx = loop.inner_stride(1);
  const Stores stores = stores_for(in, o);
  visit_dtype(o.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, bool> || (OP != UnaryOp::Neg && never_float<T>())) {
      SPROUT_ASSERT(false, "unary kernel on ", name(o.dtype()), ": only Neg takes integers, the others cast to float");
    } else {
      using C = compute_t<T>;
      T* po = o.data<T>();
      const T* px = x.data<T>();
      // Transcendentals cost ~10x a load: split them across threads at a smaller size.
      int64_t grain = OP == UnaryOp::Neg ? kParallelGrain : kParallelGrain / 8;
      parallel_for(o.numel(), grain, [&](int64_t begin, int64_t end) {
        loop.run_elements(begin, end, [&](const std::array<int64_t, 2>& off, int64_t n) {
          if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
            if (so == 1 && sx == 1) return simd_unary(OP, px + off[1], po + off[0], n, stores);
          } else if constexpr (is_half_v<T>) {
            if (so == 1 && sx == 1) {
              return for_each_widened_block<1, T>({px + off[1]}, {1}, n, [&](const auto& w, int64_t i, int64_t m) {
                alignas(64) float result[kHalfBlock];
                simd_unary(OP, w[0], result, m);
                simd_narrow(result, po + off[0] + i, m);
              });
            }
          }
          // The rest (integer Neg, strided rows): the strides as constants where they are 0 or 1, so it vectorizes.
          with_unit_strides<1>(so, {sx}, [&](auto so_, auto sx_) {
            for (int64_t i = 0; i < n; ++i)
              po[off[0] + i * so_] = static_cast<T>(unary_scalar<OP, C>(static_cast<C>(px[off[1] + i * sx_])));
          });
        });
      });
    }
  });
}

}  // namespace

SPROUT_REGISTER(cpu_elementwise) {
  register_kernel<NoAttrs>("Add", Device::CPU, arith_kernel<Arith::Add>);
  register_kernel<NoAttrs>("Sub", Device::CPU, arith_kernel<Arith::Sub>);
  register_kernel<NoAttrs>("Mul", Device::CPU, arith_kernel<Arith::Mul>);
  register_kernel<NoAttrs>("RealDiv", Device::CPU, arith_kernel<Arith::Div>);
  register_kernel<NoAttrs>("Div", Device::CPU, arith_kernel<Arith::Div>);
  register_kernel<NoAttrs>("Maximum", Device::CPU, arith_kernel<Arith::Max>);
  register_kernel<NoAttrs>("Minimum", Device::CPU, arith_kernel<Arith::Min>);
  register_kernel<NoAttrs>("Pow", Device::CPU, arith_kernel<Arith::Pow>);
  register_kernel<NoAttrs>("Equal", Device::CPU, compare_kernel<Compare::Eq>);
  register_kernel<NoAttrs>("NotEqual", Device::CPU, compare_kernel<Compare::Ne>);
  register_kernel<NoAttrs>("Less", Device::CPU, compare_kernel<Compare::Lt>);
  register_kernel<NoAttrs>("LessEqual", Device::CPU, compare_kernel<Compare::Le>);
  register_kernel<NoAttrs>("Greater", Device::CPU, compare_kernel<Compare::Gt>);
  register_kernel<NoAttrs>("GreaterEqual", Device::CPU, compare_kernel<Compare::Ge>);
  register_kernel<NoAttrs>("Neg", Device::CPU, unary_kernel<UnaryOp::Neg>);
  register_kernel<NoAttrs>("Exp", Device::CPU, unary_kernel<UnaryOp::Exp>);
  register_kernel<NoAttrs>("Log", Device::CPU, unary_kernel<UnaryOp::Log>);
  register_kernel<NoAttrs>("Sqrt", Device::CPU, unary_kernel<UnaryOp::Sqrt>);
}

}  // namespace sprout
