#include "data/image_folder.h"

#include "base/error.h"
#include "data/file_util.h"
#include "data/image_codec.h"

namespace sprout::data {

namespace {

class ImageFilesSource final : public RowSource {
 public:
  ImageFilesSource(std::vector<std::string> paths, std::vector<int32_t> labels, bool decode)
      : paths_(std::move(paths)), labels_(std::move(labels)), decode_(decode) {}
  int64_t size() const override { return static_cast<int64_t>(paths_.size()); }
  Row get(int64_t index) const override {
    const std::string& path = paths_[static_cast<size_t>(index)];
    Tensor bytes = read_file_bytes("ImageFolderDataset", path);
    Tensor image = decode_ ? decode_image(bytes, "'" + path + "'") : bytes;
    return Row{image, Tensor::scalar_int(labels_[static_cast<size_t>(index)], DType::Int32)};
  }

 private:
  std::vector<std::string> paths_;
  std::vector<int32_t> labels_;
  bool decode_;
};

}  // namespace

RowSourcePtr image_files_source(std::vector<std::string> paths, std::vector<int32_t> labels, bool decode) {
  SPROUT_ASSERT(paths.size() == labels.size());
  return std::make_shared<ImageFilesSource>(std::move(paths), std::move(labels), decode);
}

}  // namespace sprout::data
