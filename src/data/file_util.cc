#include "data/file_util.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "base/error.h"

namespace sprout::data {

Tensor read_file_bytes(const std::string& api, const std::string& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  SPROUT_CHECK(file, ValueError, api, ": cannot open '", path, "': ", std::strerror(errno));
  SPROUT_CHECK(std::fseek(file.get(), 0, SEEK_END) == 0, RuntimeError, api, ": cannot seek in '", path, "'");
  const long size = std::ftell(file.get());
  SPROUT_CHECK(size >= 0, RuntimeError, api, ": cannot tell the size of '", path, "'");
  std::rewind(file.get());
  Tensor bytes = Tensor::empty(Shape{size}, DType::UInt8);
  const size_t got = size > 0 ? std::fread(bytes.raw_data(), 1, static_cast<size_t>(size), file.get()) : 0;
  SPROUT_CHECK(got == static_cast<size_t>(size), RuntimeError, api, ": read ", got, " of ", size, " bytes of '",
               path, "'");
  return bytes;
}

}  // namespace sprout::data
