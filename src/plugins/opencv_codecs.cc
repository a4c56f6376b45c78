// libsprout_opencv_codecs: OpenCV's image codecs behind a C interface, dlopen'd by the core on the first
// image that needs them (Note [OpenCV codecs on demand] in data/opencv_codecs.cc). OpenCV's exceptions
// stay inside: decoding reports failure by an empty image, encoding by its result and `error`.
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

// cv::imdecode(*encoded, cv::IMREAD_COLOR) into *bgr, left empty when OpenCV cannot decode it.
extern "C" __attribute__((visibility("default"))) void sprout_opencv_decode_bgr(const cv::Mat* encoded, cv::Mat* bgr) {
  try {
    *bgr = cv::imdecode(*encoded, cv::IMREAD_COLOR);
  } catch (const cv::Exception&) {
    bgr->release();
  }
}

// cv::imencode(extension, *image, *buffer, *params); false (with *error) when OpenCV cannot encode it.
extern "C" __attribute__((visibility("default"))) bool sprout_opencv_encode(const char* extension, const cv::Mat* image,
                                                                           const std::vector<int>* params,
                                                                           std::vector<uchar>* buffer,
                                                                           std::string* error) {
  try {
    return cv::imencode(extension, *image, *buffer, *params);
  } catch (const cv::Exception& e) {
    *error = e.what();
    return false;
  }
}
