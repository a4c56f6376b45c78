// Shared oneDNN state: one CPU engine and stream for the process, a cache of primitives keyed by their
// full problem description (oneDNN's own cache still pays for building the descriptor), and buffers
// for oneDNN's temporaries taken from Sprout's caching allocator.
#pragma once

#include <dnnl.hpp>
#include <omp.h>

#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sprout::onednn {

dnnl::engine& engine();
dnnl::stream& stream();

// Note [oneDNN primitives and the thread count]
// A oneDNN primitive fixes its work split for the OpenMP thread count of the thread that builds it,
// and keeps it: LeNet's 64x400x120 matmul built while one thread was set ran at 63 us on two threads
// afterwards, against 36 us when built for two. A primitive is therefore cached per thread count, so
// that set_context(runtime_num_threads=...) and the data pipeline's serial workers (one thread) get
// primitives of their own.
//
// Returns the primitive cached under `key` for the calling thread's OpenMP thread count, building it
// with `make` on first use.
template <class P>
P& cached(const std::string& key, const std::function<P()>& make) {
  static std::mutex mutex;
  static std::unordered_map<std::string, P> cache;
  const std::string full_key = std::to_string(omp_get_max_threads()) + " threads:" + key;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(full_key);
  if (it == cache.end()) it = cache.emplace(full_key, make()).first;
  return it->second;
}

// Note [oneDNN temporaries]
// `dnnl::memory(desc, engine)` lets oneDNN malloc a fresh buffer, and a primitive in oneDNN's default
// scratchpad mode mallocs its scratchpad at every execution. A ResNet-18 training step made about
// a hundred such allocations of 1-9 MB (the blocked-layout copies of conv inputs and outputs): each
// one new pages to fault in, and their freed chunks, interleaved with longer-lived blocks, left
// ~100 MB of glibc's heap resident and unusable. Instead, a kernel call holds its temporaries in a
// `Temporaries`, whose buffers come from the caching allocator, and primitives are built with
// `user_scratchpad()` so that the scratchpad is one of those buffers too.
class Temporaries {
 public:
  Temporaries() = default;
  Temporaries(const Temporaries&) = delete;
  Temporaries& operator=(const Temporaries&) = delete;
  ~Temporaries();

  // A memory of layout `desc` on a buffer that lives as long as this object.
  dnnl::memory memory(const dnnl::memory::desc& desc);
  // Adds DNNL_ARG_SCRATCHPAD for a primitive built with user_scratchpad(), if it needs one.
  void add_scratchpad(const dnnl::memory::desc& scratchpad, std::unordered_map<int, dnnl::memory>& args);

 private:
  std::vector<std::pair<void*, size_t>> buffers_;
};

// Primitive attributes asking the caller for the scratchpad (see the note).
dnnl::primitive_attr user_scratchpad();

// Whether this CPU computes bfloat16 natively (AVX512-BF16, or AMX tiles): oneDNN's bfloat16 matmuls
// and convolutions then beat widening to float32 several times over. They accumulate in float32 and
// round the result once, as the float32 route does; elsewhere bfloat16 takes that route.
bool native_bfloat16();

}  // namespace sprout::onednn
