// The type integer kernels multiply in, so that products wrap around as NumPy's do.
// C++ promotes uint16_t operands to (signed) int before any arithmetic, and 65535 * 65535 overflows int:
// undefined behaviour (which UBSan reports and the optimizer may exploit), not the wraparound the
// output dtype should show. In uint32_t the product wraps, and narrowing it to uint16_t keeps the low
// bits: the uint16 result. Every other dtype's product fits int or is already unsigned or wider.
#pragma once

#include <cstdint>
#include <type_traits>

namespace sprout {

template <class C>
using wrapping_t = std::conditional_t<std::is_same_v<C, uint16_t>, uint32_t, C>;

}  // namespace sprout
