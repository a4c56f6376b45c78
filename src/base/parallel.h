// The intra-op thread pool. Note [One thread pool]
// Sprout's kernels and oneDNN share one pool: the OpenMP runtime (libgomp) that Debian's oneDNN and
// OpenBLAS (openmp flavour) are built against. A second pool would oversubscribe the cores whenever a
// Sprout kernel and a oneDNN primitive alternate. The thread count comes from
// `ms.set_context(runtime_num_threads=N)`, else SPROUT_NUM_THREADS, else OMP_NUM_THREADS, else the
// number of cores.
#pragma once

#include <algorithm>
#include <cstdint>

#include <omp.h>

namespace sprout {

// The threads a kernel called on this thread may use: 1 on a thread marked by run_kernels_serially().
int num_threads();
void set_num_threads(int n);

// Marks the calling thread as one of several workers that already keep the cores busy between them
// (the data pipeline's): kernels it calls run serially, OpenMP regions (oneDNN, OpenBLAS) included.
// Each such thread would otherwise start an OpenMP team of its own, and the teams' threads, spinning
// after every region, would take the cores from the workers.
void run_kernels_serially();

// Below this many elements of elementwise work a parallel region costs more than it saves. At 32K floats
// (a 64 x 512 activation) one thread beat two by 15-25% (Zen 4, the data in the first core's L2, best of
// seven, alternating builds: bias add 3.9-4.4 -> 3.3 us, ReLU 3.5-3.7 -> 2.9, a row sum 4.0 -> 3.4); at
// 64K two threads win (add 8.6 -> 4.9 us).
inline constexpr int64_t kParallelGrain = 40960;

// Runs fn(begin, end) over [0, n) split into one contiguous chunk per thread, serially when
// n < grain, only one thread is configured, or the caller already runs inside a parallel region (a
// nested region would get one thread anyway, after paying to start it). fn must not throw.
template <class Fn>
void parallel_for(int64_t n, int64_t grain, Fn&& fn) {
  // n first: num_threads() reads a thread-local, which costs a call in a shared library.
  int threads = n < grain || omp_in_parallel() ? 1 : num_threads();
  if (threads <= 1) {
    if (n > 0) fn(int64_t{0}, n);
    return;
  }
  int64_t chunks = std::min<int64_t>(threads, (n + grain - 1) / grain);
#pragma omp parallel for num_threads(static_cast<int>(chunks)) schedule(static, 1)
  for (int64_t c = 0; c < chunks; ++c) {
    int64_t begin = n * c / chunks, end = n * (c + 1) / chunks;
    fn(begin, end);
  }
}

}  // namespace sprout
