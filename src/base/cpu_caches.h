// The sizes of this CPU's caches, for kernels that choose a strategy by whether their data fits.
#pragma once

#include <cstdint>

namespace sprout {

// Bytes of the last-level cache that serves one core (on a chiplet CPU, its own chiplet's L3, not the
// sum over the package). Read once from sysfs; 32 MiB when the system does not say.
int64_t last_level_cache_bytes();

// Parses a sysfs cache size such as "32768K" or "2M" (bytes; 0 when it cannot).
int64_t parse_cache_size(const char* text);

}  // namespace sprout
