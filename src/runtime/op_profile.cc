#include "runtime/op_profile.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>

namespace sprout {

std::atomic<bool> g_op_profiling{false};

namespace {

struct Table {
  std::mutex mutex;
  std::unordered_map<std::string, OpTime> ops;
};
Table& table() {
  static Table t;
  return t;
}

}  // namespace

void set_op_profiling(bool on) { g_op_profiling.store(on, std::memory_order_relaxed); }

void record_op_time(std::string_view name, int64_t ns) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  OpTime& entry = t.ops[std::string(name)];
  if (entry.name.empty()) entry.name = std::string(name);
  ++entry.calls;
  entry.ns += ns;
}

std::vector<OpTime> op_profile() {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  std::vector<OpTime> out;
  for (const auto& [_, v] : t.ops) out.push_back(v);
  std::sort(out.begin(), out.end(), [](const OpTime& a, const OpTime& b) { return a.ns > b.ns; });
  return out;
}

void clear_op_profile() {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.ops.clear();
}

}  // namespace sprout
