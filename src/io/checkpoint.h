// Checkpoint files in MindSpore's .ckpt format (proto/checkpoint.proto).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "tensor/tensor.h"

namespace sprout {

// One saved entry: a tensor, or a string (MindSpore saves string metadata with tensor_type "str").
struct CheckpointEntry {
  std::string name;
  std::variant<Tensor, std::string> value;
};

// Writes `entries` to `path` atomically (a temporary file in the same folder, then rename): a reader
// never sees a partial checkpoint, and an existing file is replaced only once the new one is complete.
void save_checkpoint(const std::string& path, const std::vector<CheckpointEntry>& entries, bool crc_check);

// Reads every entry. RuntimeError/ValueError naming the file (and the parameter) when the file is
// missing, truncated or corrupt, or when an entry's bytes do not match its dims and type. With
// crc_check, a file without a CRC trailer, or with a wrong one, is an error.
std::vector<CheckpointEntry> load_checkpoint(const std::string& path, bool crc_check);

// MindSpore's tensor_type strings ("Float32"), and back.
std::string checkpoint_type_name(DType t);

}  // namespace sprout
