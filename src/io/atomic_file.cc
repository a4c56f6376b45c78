#include "io/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/error.h"

namespace sprout {

AtomicFile::AtomicFile(std::string api, std::string path)
    : api_(std::move(api)), path_(std::move(path)), tmp_(path_ + ".tmp") {
  file_ = std::fopen(tmp_.c_str(), "wb");
  SPROUT_CHECK(file_, RuntimeError, api_, ": cannot create '", tmp_, "': ", std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (!file_) return;
  std::fclose(file_);
  std::error_code ignored;
  std::filesystem::remove(tmp_, ignored);
}

void AtomicFile::write(const std::string& bytes) {
  SPROUT_CHECK(std::fwrite(bytes.data(), 1, bytes.size(), file_) == bytes.size(), RuntimeError, api_, ": writing '",
               tmp_, "' failed (disk full?)");
}

void AtomicFile::commit() {
  SPROUT_CHECK(std::fflush(file_) == 0 && ::fsync(fileno(file_)) == 0, RuntimeError, api_, ": flushing '", tmp_,
               "' failed");
  std::fclose(file_);
  file_ = nullptr;
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp_, ignored);
  }
  SPROUT_CHECK(!ec, RuntimeError, api_, ": cannot move the finished file to '", path_, "': ", ec.message());
}

}  // namespace sprout
