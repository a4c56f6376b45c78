#include "data/opencv_codecs.h"

#include <dlfcn.h>

#include "base/error.h"

// Note [OpenCV codecs on demand]
// libopencv_imgcodecs brings some 140 shared libraries (GDAL, GDCM, OpenEXR, HEIF, ...) whose loading and
// static initializers took 76 of the 250 ms of every `import sprout` on the Zen 4 host, although most
// programs never give OpenCV an image (JPEGs go to libjpeg directly, Note [libjpeg errors]). So the
// codecs live in a plugin, libsprout_opencv_codecs.so (src/plugins/opencv_codecs.cc), dlopen'd by the
// first image that needs them: looked up next to the library or program that holds this code (the
// Python module, libsprout_inference, the test binary), then in the build tree it was built in.

namespace sprout::data {
namespace {

using DecodeFn = void (*)(const cv::Mat*, cv::Mat*);
using EncodeFn = bool (*)(const char*, const cv::Mat*, const std::vector<int>*, std::vector<uchar>*, std::string*);

struct Codecs {
  DecodeFn decode = nullptr;
  EncodeFn encode = nullptr;
  std::string failure;  // why they could not be loaded
};

std::string directory_of_this_code() {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void*>(&directory_of_this_code), &info) || !info.dli_fname) return "";
  const std::string path = info.dli_fname;
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

Codecs load_codecs() {
  std::string tried;
  for (const std::string& dir : {directory_of_this_code(), std::string(SPROUT_PLUGIN_BUILD_DIR)}) {
    if (dir.empty()) continue;
    const std::string file = dir + "/libsprout_opencv_codecs.so";
    void* plugin = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!plugin) {
      tried += str("\n  ", dlerror());
      continue;
    }
    Codecs codecs;
    codecs.decode = reinterpret_cast<DecodeFn>(dlsym(plugin, "sprout_opencv_decode_bgr"));
    codecs.encode = reinterpret_cast<EncodeFn>(dlsym(plugin, "sprout_opencv_encode"));
    if (codecs.decode && codecs.encode) return codecs;
    tried += str("\n  ", file, ": not Sprout's codec plugin (its functions are missing)");
  }
  return Codecs{nullptr, nullptr, str("OpenCV's image codecs (libsprout_opencv_codecs.so) could not be loaded:", tried)};
}

// Loaded once per process, by whichever thread asks first (a function-local static is thread-safe).
const Codecs& codecs(const char* api) {
  static const Codecs loaded = load_codecs();
  SPROUT_CHECK(loaded.decode, RuntimeError, api, ": ", loaded.failure);
  return loaded;
}

}  // namespace

cv::Mat opencv_decode_bgr(const char* api, const cv::Mat& encoded) {
  cv::Mat bgr;
  codecs(api).decode(&encoded, &bgr);
  return bgr;
}

bool opencv_encode(const char* api, const std::string& extension, const cv::Mat& image, const std::vector<int>& params,
                   std::vector<uchar>& buffer, std::string& error) {
  return codecs(api).encode(extension.c_str(), &image, &params, &buffer, &error);
}

}  // namespace sprout::data
