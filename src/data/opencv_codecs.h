// OpenCV's image codecs (imdecode, imencode), loaded on first use (Note [OpenCV codecs on demand]).
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace sprout::data {

// cv::imdecode(encoded, cv::IMREAD_COLOR): an empty Mat when OpenCV cannot decode the bytes. A
// RuntimeError naming `api` when the codecs cannot be loaded.
cv::Mat opencv_decode_bgr(const char* api, const cv::Mat& encoded);

// cv::imencode into `buffer`; false, with OpenCV's message in `error` when it has one, when it cannot
// encode. A RuntimeError naming `api` when the codecs cannot be loaded.
bool opencv_encode(const char* api, const std::string& extension, const cv::Mat& image, const std::vector<int>& params,
                   std::vector<uchar>& buffer, std::string& error);

}  // namespace sprout::data
