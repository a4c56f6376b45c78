// ImageFolderDataset's rows: one image file per row (read, and decoded when asked) with its class.
// The folder walk and class numbering happen in Python (python/sprout/dataset/vision_sources.py);
// reading and decoding, the costly part, run here on the source's workers without the GIL.
#pragma once

#include <string>
#include <vector>

#include "data/sources.h"

namespace sprout::data {

// Rows: image (encoded bytes as 1-D UInt8, or (H, W, 3) RGB when `decode`), label Int32.
RowSourcePtr image_files_source(std::vector<std::string> paths, std::vector<int32_t> labels, bool decode);

}  // namespace sprout::data
