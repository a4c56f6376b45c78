#include "base/parallel.h"

#include <omp.h>

#include <cstdlib>
#include <thread>

namespace sprout {
namespace {
int initial_threads() {
  for (const char* var : {"SPROUT_NUM_THREADS", "OMP_NUM_THREADS"})
    if (const char* env = std::getenv(var)) {
      int n = std::atoi(env);
      if (n > 0) return n;
    }
  return std::max(1u, std::thread::hardware_concurrency());
}
int g_threads = [] {
  int n = initial_threads();
  omp_set_num_threads(n);  // oneDNN and OpenBLAS read the same setting
  return n;
}();
}  // namespace

int num_threads() { return g_threads; }

void set_num_threads(int n) {
  g_threads = std::max(1, n);
  omp_set_num_threads(g_threads);
}

}  // namespace sprout
