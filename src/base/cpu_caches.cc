#include "base/cpu_caches.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace sprout {

int64_t parse_cache_size(const char* text) {
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (end == text || value <= 0) return 0;
  switch (*end) {
    case 'K': return value << 10;
    case 'M': return value << 20;
    case 'G': return value << 30;
    case '\0': case '\n': return value;
    default: return 0;
  }
}

namespace {

// The first line of a small sysfs file, or "" when it cannot be read.
std::string read_line(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return "";
  char buffer[64] = {};
  const bool ok = std::fgets(buffer, sizeof buffer, f) != nullptr;
  std::fclose(f);
  return ok ? buffer : "";
}

// sysfs lists cpu0's caches as index0, index1, ...; the one with the highest level that holds data
// is the last level. (glibc's sysconf(_SC_LEVEL3_CACHE_SIZE) reports every chiplet's L3 together on
// AMD EPYC, ten times what one core can use.)
int64_t read_last_level_cache() {
  int best_level = 0;
  int64_t best_bytes = 0;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string level = read_line(dir + "level");
    if (level.empty()) break;
    if (read_line(dir + "type").rfind("Instruction", 0) == 0) continue;
    const int level_number = std::atoi(level.c_str());
    const int64_t bytes = parse_cache_size(read_line(dir + "size").c_str());
    if (level_number > best_level && bytes > 0) best_level = level_number, best_bytes = bytes;
  }
  return best_bytes > 0 ? best_bytes : int64_t{32} << 20;
}

}  // namespace

int64_t last_level_cache_bytes() {
  static const int64_t bytes = read_last_level_cache();
  return bytes;
}

}  // namespace sprout
