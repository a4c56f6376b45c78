// Integer kernels' sums and products wrap around as NumPy's (and MindSpore's) do.
// C++ arithmetic on signed integers that overflows is undefined behaviour (UBSan reports it, the
// optimizer may assume it never happens), and operands narrower than int are promoted to *signed* int
// first, so even 65535 * 65535 in uint16_t overflows. Two's-complement results are the unsigned ones
// narrowed back, so wrap_add, wrap_sub and wrap_mul compute in an unsigned type at least as wide as
// unsigned int and cast back; floating-point types compute as they are.
#pragma once

#include <cstdint>
#include <type_traits>

namespace sprout {

namespace detail {
template <class C, bool = std::is_integral_v<C> && !std::is_same_v<C, bool>>
struct WrapType {
  using type = C;  // floating point (and bool): no wrapping to do
};
template <class C>
struct WrapType<C, true> {
  using type = std::conditional_t<(sizeof(C) < sizeof(unsigned)), unsigned, std::make_unsigned_t<C>>;
};
}  // namespace detail

template <class C>
constexpr C wrap_add(C a, C b) {
  using U = typename detail::WrapType<C>::type;
  return static_cast<C>(static_cast<U>(a) + static_cast<U>(b));
}

template <class C>
constexpr C wrap_sub(C a, C b) {
  using U = typename detail::WrapType<C>::type;
  return static_cast<C>(static_cast<U>(a) - static_cast<U>(b));
}

template <class C>
constexpr C wrap_mul(C a, C b) {
  using U = typename detail::WrapType<C>::type;
  return static_cast<C>(static_cast<U>(a) * static_cast<U>(b));
}

}  // namespace sprout
