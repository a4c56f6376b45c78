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
thread_local bool t_serial = false;
}  // namespace

int num_threads() { return t_serial ? 1 : g_threads; }

void run_kernels_serially() {
  t_serial = true;
  omp_set_num_threads(1);  // this thread's own OpenMP setting, read by oneDNN and OpenBLAS
}

void set_num_threads(int n) {
  g_threads = std::max(1, n);
  if (!t_serial) omp_set_num_threads(g_threads);
}

}  // namespace sprout
