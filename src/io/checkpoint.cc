#include "io/checkpoint.h"

#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "checkpoint.pb.h"
#include "io/atomic_file.h"

namespace sprout {
namespace {

constexpr char kCrcMagic[] = "crc_num";
constexpr size_t kCrcMagicLen = 7;
constexpr size_t kCrcBytes = 10;  // the CRC-32 as a 10-byte big-endian integer, as MindSpore writes it

std::string file_error_context(const std::string& path) { return str("checkpoint file '", path, "'"); }

}  // namespace

std::string checkpoint_type_name(DType t) { return std::string(name(t)); }

void save_checkpoint(const std::string& path, const std::vector<CheckpointEntry>& entries, bool crc_check) {
  AtomicFile file("save_checkpoint", path);
  uLong crc = crc32(0L, Z_NULL, 0);
  for (const CheckpointEntry& e : entries) {
    // One message per entry: readers merge concatenated messages, and a large tensor never has to be
    // serialized together with the others.
    ckpt::Checkpoint message;
    ckpt::Checkpoint::Value* value = message.add_value();
    value->set_tag(e.name);
    ckpt::TensorProto* proto = value->mutable_tensor();
    if (const auto* s = std::get_if<std::string>(&e.value)) {
      proto->set_tensor_type("str");
      proto->set_tensor_content(*s);
    } else {
      Tensor t = std::get<Tensor>(e.value).contiguous();
      for (int64_t d : t.shape()) proto->add_dims(d);
      proto->set_tensor_type(checkpoint_type_name(t.dtype()));
      proto->set_tensor_content(static_cast<const char*>(t.raw_data()), t.nbytes());
    }
    std::string bytes = message.SerializeAsString();
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size()));
    file.write(bytes);
  }
  if (crc_check) {
    std::string trailer(kCrcMagic, kCrcMagicLen);
    for (size_t i = 0; i < kCrcBytes; ++i)
      trailer.push_back(static_cast<char>(i < kCrcBytes - 4 ? 0 : (crc >> (8 * (kCrcBytes - 1 - i))) & 0xff));
    file.write(trailer);
  }
  file.commit();
}

std::vector<CheckpointEntry> load_checkpoint(const std::string& path, bool crc_check) {
  std::ifstream in(path, std::ios::binary);
  SPROUT_CHECK(in, ValueError, "load_checkpoint: ", file_error_context(path), " does not exist or cannot be read");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  SPROUT_CHECK(!bytes.empty(), ValueError, "load_checkpoint: ", file_error_context(path), " is empty");
  bool has_trailer = bytes.size() >= kCrcMagicLen + kCrcBytes &&
                     bytes.compare(bytes.size() - kCrcMagicLen - kCrcBytes, kCrcMagicLen, kCrcMagic) == 0;
  if (has_trailer) {
    size_t body = bytes.size() - kCrcMagicLen - kCrcBytes;
    if (crc_check) {
      uint64_t stored = 0;
      for (size_t i = 0; i < kCrcBytes; ++i) stored = (stored << 8) | static_cast<unsigned char>(bytes[body + kCrcMagicLen + i]);
      uLong crc = crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(body));
      SPROUT_CHECK(stored == crc, ValueError, "load_checkpoint: the CRC of ", file_error_context(path),
                   " does not match its contents: the file is corrupt");
    }
    bytes.resize(body);
  } else {
    SPROUT_CHECK(!crc_check, ValueError, "load_checkpoint: crc_check=True but ", file_error_context(path),
                 " has no CRC trailer (it was saved without crc_check)");
  }
  ckpt::Checkpoint message;
  SPROUT_CHECK(message.ParseFromString(bytes), ValueError, "load_checkpoint: ", file_error_context(path),
               " is not a valid checkpoint (truncated or corrupt)");

  // Values with the same tag are slices of one parameter, in order: concatenate their contents.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const ckpt::TensorProto*>> parts;
  for (const auto& v : message.value()) {
    if (!v.has_tensor()) continue;  // map tensors (MindSpore embedding tables) are not read
    if (!parts.count(v.tag())) order.push_back(v.tag());
    parts[v.tag()].push_back(&v.tensor());
  }
  std::vector<CheckpointEntry> entries;
  for (const std::string& tag : order) {
    const auto& slices = parts[tag];
    const ckpt::TensorProto& first = *slices[0];
    std::string content;
    for (const auto* s : slices) content += s->tensor_content();
    if (first.tensor_type() == "str") {
      entries.push_back({tag, content});
      continue;
    }
    std::optional<DType> dtype = dtype_from_name(first.tensor_type());
    SPROUT_CHECK(dtype, ValueError, "load_checkpoint: parameter '", tag, "' in ", file_error_context(path),
                 " has type '", first.tensor_type(), "', which Sprout does not support");
    Shape shape(first.dims().begin(), first.dims().end());
    check_shape("load_checkpoint", tag, shape);
    size_t expected = static_cast<size_t>(numel(shape)) * itemsize(*dtype);
    SPROUT_CHECK(content.size() == expected, ValueError, "load_checkpoint: parameter '", tag, "' in ",
                 file_error_context(path), " has ", content.size(), " bytes of data, but its shape ", shape_str(shape),
                 " and type ", first.tensor_type(), " need ", expected, " (the file is truncated or corrupt)");
    Tensor t = Tensor::empty(shape, *dtype);
    std::memcpy(t.raw_data(), content.data(), content.size());
    entries.push_back({tag, t});
  }
  return entries;
}

}  // namespace sprout
