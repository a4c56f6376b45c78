// Sources over the published binary formats: MNIST's IDX files and the CIFAR-10/100 binary batches.
// Each file is read whole at build time and checked against its header, so a truncated or foreign
// file fails before the first epoch with an error naming it; rows are then slices of memory.
#pragma once

#include <string>
#include <vector>

#include "data/sources.h"

namespace sprout::data {

// Pairs of (images, labels) IDX files, concatenated (usage "all" reads train then test).
// Rows: image (28, 28, 1) UInt8, label Int32.
RowSourcePtr mnist_source(const std::vector<std::pair<std::string, std::string>>& image_label_files);

// CIFAR binary batch files, concatenated. CIFAR-10 records are <label><3072 bytes>, CIFAR-100
// records <coarse label><fine label><3072 bytes>; the image is stored CHW and read as (32, 32, 3)
// HWC. Rows: image, then the labels (Int32): CIFAR-10 label; CIFAR-100 coarse_label, fine_label.
RowSourcePtr cifar_source(const std::vector<std::string>& files, bool cifar100);

}  // namespace sprout::data
