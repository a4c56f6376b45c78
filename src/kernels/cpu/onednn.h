// Shared oneDNN state: one CPU engine and stream for the process, and a cache of primitives keyed by
// their full problem description (oneDNN's own cache still pays for building the descriptor).
#pragma once

#include <dnnl.hpp>

#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace sprout::onednn {

dnnl::engine& engine();
dnnl::stream& stream();

// Returns the primitive cached under `key`, building it with `make` on first use.
template <class P>
P& cached(const std::string& key, const std::function<P()>& make) {
  static std::mutex mutex;
  static std::unordered_map<std::string, P> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, make()).first;
  return it->second;
}

}  // namespace sprout::onednn
