// Note [Copies just past their source]
// A core checks each load against the stores still in flight by the low 12 bits of their addresses. When
// a row's destination lies a few bytes past its source modulo 4 KiB (a roll by 1 or 3 floats, x[:, 3:]
// = y[:, :-3] between two 2 MiB-aligned blocks), memcpy's next loads overlap its last stores partly in
// those bits and wait for them to reach the cache, which never forwards a partial overlap. glibc's
// memcpy of 4 KiB rows ran 20x slower that way on Zen 4: roll(x, 3, 1) of 1024 x 1024 float32 0.61 ms
// against 0.05 for a shift of 8 or of 0 (offsets of a cache line and more measured normal).
// Walking back to front, a group's loads lie below every store before them, so nothing overlaps.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tensor/copy_back_to_front.cc"
#include <hwy/foreach_target.h>  // must come before highway.h
#include <hwy/highway.h>

#include <cstring>

#include "tensor/copy_back_to_front.h"

HWY_BEFORE_NAMESPACE();
namespace sprout {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void CopyBackToFront(uint8_t* dst, const uint8_t* src, size_t bytes) {
  const hn::ScalableTag<uint8_t> d;
  const size_t n = hn::Lanes(d);
  size_t i = bytes;
  for (; i >= 4 * n; i -= 4 * n) {
    const auto v0 = hn::LoadU(d, src + i - 4 * n), v1 = hn::LoadU(d, src + i - 3 * n);
    const auto v2 = hn::LoadU(d, src + i - 2 * n), v3 = hn::LoadU(d, src + i - n);
    hn::StoreU(v0, d, dst + i - 4 * n);
    hn::StoreU(v1, d, dst + i - 3 * n);
    hn::StoreU(v2, d, dst + i - 2 * n);
    hn::StoreU(v3, d, dst + i - n);
  }
  for (; i >= n; i -= n) hn::StoreU(hn::LoadU(d, src + i - n), d, dst + i - n);
  std::memcpy(dst, src, i);  // fewer bytes than a vector
}

}  // namespace HWY_NAMESPACE
}  // namespace sprout
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace sprout {
HWY_EXPORT(CopyBackToFront);

void copy_back_to_front(void* dst, const void* src, size_t bytes) {
  HWY_DYNAMIC_DISPATCH(CopyBackToFront)(static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), bytes);
}
}  // namespace sprout
#endif
