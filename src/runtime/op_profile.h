// Per-op timing for ms.Profiler: eager dispatch and the graph VM record each op's time while on.
// Off (the default), the cost is one relaxed atomic load per op.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sprout {

extern std::atomic<bool> g_op_profiling;
inline bool op_profiling() { return g_op_profiling.load(std::memory_order_relaxed); }
void set_op_profiling(bool on);

struct OpTime {
  std::string name;
  int64_t calls = 0;
  int64_t ns = 0;
};
void record_op_time(std::string_view name, int64_t ns);
std::vector<OpTime> op_profile();  // most time first
void clear_op_profile();

// Times its scope when profiling is on.
class OpTimer {
 public:
  explicit OpTimer(std::string_view name) : name_(name), on_(op_profiling()) {
    if (on_) start_ = std::chrono::steady_clock::now();
  }
  ~OpTimer() {
    if (on_)
      record_op_time(name_, std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_)
                                .count());
  }
  OpTimer(const OpTimer&) = delete;
  OpTimer& operator=(const OpTimer&) = delete;

 private:
  std::string_view name_;
  bool on_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace sprout
