// Files written atomically: into a temporary file next to the target, renamed over it once complete.
// A reader never sees a partial file, and an existing file is replaced only by a finished one.
#pragma once

#include <cstdio>
#include <string>

namespace sprout {

class AtomicFile {
 public:
  // Creates `path`.tmp; RuntimeError naming `api` and the file when it cannot.
  AtomicFile(std::string api, std::string path);
  ~AtomicFile();  // removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const std::string& bytes);
  // Flushes to disk and renames the temporary file to the target.
  void commit();

 private:
  std::string api_, path_, tmp_;
  std::FILE* file_ = nullptr;
};

}  // namespace sprout
