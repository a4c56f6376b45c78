// Automatic augmentation: AutoAugment (Cubuk et al. 2019; the ImageNet, CIFAR-10 and SVHN policies)
// and RandAugment (Cubuk et al. 2020), with the operation set and magnitudes torchvision and
// MindSpore use, on (H, W, 3) uint8 RGB images.
#pragma once

#include "data/vision_ops.h"

namespace sprout::data {

enum class AutoAugmentPolicy { ImageNet, Cifar10, Svhn };

TensorOpPtr auto_augment_op(AutoAugmentPolicy policy, Interpolation interpolation, Fill fill);
TensorOpPtr rand_augment_op(int num_ops, int magnitude, int num_magnitude_bins, Interpolation interpolation,
                            Fill fill);

// One augmentation by name ("Rotate", "Posterize"...) at a signed magnitude: the building block of
// both, exposed for tests against NumPy references.
Tensor augment_image(const Tensor& image, const std::string& op, double magnitude, Interpolation interpolation,
                     const Fill& fill);

}  // namespace sprout::data
