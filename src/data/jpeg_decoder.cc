#include "data/jpeg_decoder.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>  // jpeglib.h uses FILE without including stdio.h
#include <string>

#include <jpeglib.h>

namespace sprout::data {
namespace {

// Note [libjpeg errors]: libjpeg reports a fatal error by calling error_exit, which must not return.
// It longjmps back into decode_jpeg_rgb's frame, so nothing with a destructor may be alive in that frame
// or in a frame between when libjpeg is called; throwing through libjpeg's C frames instead would rely on
// how the system library was compiled.
struct ErrorManager {
  jpeg_error_mgr pub;  // first: libjpeg's pointer to it is a pointer to the whole
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void jump_on_error(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

void ignore_message(j_common_ptr) {}

uint32_t read_u16(const uint8_t* p, bool big_endian) {
  return big_endian ? (p[0] << 8) | p[1] : (p[1] << 8) | p[0];
}

uint32_t read_u32(const uint8_t* p, bool big_endian) {
  return big_endian ? (read_u16(p, true) << 16) | read_u16(p + 2, true)
                    : (read_u16(p + 2, false) << 16) | read_u16(p, false);
}

// The Orientation tag (0x0112) of an APP1 "Exif" marker's first IFD, 1 (upright) when absent or unreadable.
int exif_orientation(const jpeg_saved_marker_ptr markers) {
  for (jpeg_saved_marker_ptr m = markers; m; m = m->next) {
    const uint8_t* p = m->data;
    const size_t n = m->data_length;
    if (m->marker != JPEG_APP0 + 1 || n < 14 || std::char_traits<char>::compare(
                                                     reinterpret_cast<const char*>(p), "Exif\0\0", 6) != 0)
      continue;
    const uint8_t* tiff = p + 6;  // TIFF header: byte order, 42, offset of the first IFD
    const size_t size = n - 6;
    const bool big_endian = tiff[0] == 'M';
    const uint32_t ifd = read_u32(tiff + 4, big_endian);
    if (ifd > size - 2) continue;
    const uint32_t entries = read_u16(tiff + ifd, big_endian);
    for (uint32_t i = 0; i < entries; ++i) {
      const size_t entry = ifd + 2 + size_t{12} * i;
      if (entry + 12 > size) break;
      if (read_u16(tiff + entry, big_endian) == 0x0112) return static_cast<int>(read_u16(tiff + entry + 8, big_endian));
    }
  }
  return 1;
}

}  // namespace

bool looks_like_jpeg(const uint8_t* bytes, size_t size) {
  return size >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF;
}

JpegDecode decode_jpeg_rgb(const uint8_t* bytes, size_t size, Tensor& out, std::string& error,
                           const WindowChooser* choose) {
  jpeg_decompress_struct cinfo;
  ErrorManager err;
  cinfo.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = jump_on_error;
  err.pub.output_message = ignore_message;
  if (setjmp(err.jump)) {  // Note [libjpeg errors]
    error = err.message;
    jpeg_destroy_decompress(&cinfo);
    return JpegDecode::Failed;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, bytes, size);
  jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
  jpeg_read_header(&cinfo, TRUE);
  const J_COLOR_SPACE source = cinfo.jpeg_color_space;
  if ((source != JCS_YCbCr && source != JCS_GRAYSCALE && source != JCS_RGB) ||
      exif_orientation(cinfo.marker_list) != 1) {
    jpeg_destroy_decompress(&cinfo);
    return JpegDecode::NeedsOpenCv;
  }
  cinfo.out_color_space = JCS_RGB;
  ImageWindow window{0, 0, cinfo.image_height, cinfo.image_width};
  try {  // C++ from here on may throw (the chooser, the allocations): nothing of libjpeg's may stay behind
    if (choose) window = (*choose)(window.height, window.width);
    jpeg_start_decompress(&cinfo);
    // crop_scanline widens the columns to whole iMCUs: xoff moves left to a boundary, width grows. A column
    // of margin on each side keeps the window's own columns inside the decoded ones: chroma upsampling
    // repeats a decoded region's edge column where the whole image has a neighbour (off by up to 3 levels).
    const int64_t margin_left = std::max<int64_t>(0, window.left - 1);
    const int64_t margin_right = std::min<int64_t>(cinfo.image_width, window.left + window.width + 1);
    auto xoff = static_cast<JDIMENSION>(margin_left);
    auto decoded_width = static_cast<JDIMENSION>(margin_right - margin_left);
    if (decoded_width < cinfo.output_width) jpeg_crop_scanline(&cinfo, &xoff, &decoded_width);
    const int64_t skip = window.left - static_cast<int64_t>(xoff), row_bytes = window.width * 3;
    out = Tensor::empty(Shape{window.height, window.width, 3}, DType::UInt8);
    auto* base = static_cast<JSAMPLE*>(out.raw_data());
    // Rows wider than the window land in a row from libjpeg's own pool (freed with cinfo): a C++ buffer
    // here would leak when an error longjmps past it (Note [libjpeg errors]).
    const bool wider = skip != 0 || decoded_width != window.width;
    JSAMPROW wide_row = wider ? (*cinfo.mem->alloc_sarray)(reinterpret_cast<j_common_ptr>(&cinfo), JPOOL_IMAGE,
                                                           decoded_width * 3, 1)[0]
                              : nullptr;
    if (window.top > 0) jpeg_skip_scanlines(&cinfo, static_cast<JDIMENSION>(window.top));
    for (int64_t r = 0; r < window.height; ++r) {
      JSAMPROW row = wider ? wide_row : base + r * row_bytes;
      jpeg_read_scanlines(&cinfo, &row, 1);
      if (wider) std::copy_n(wide_row + skip * 3, row_bytes, base + r * row_bytes);
    }
  } catch (...) {
    jpeg_destroy_decompress(&cinfo);
    throw;
  }
  // Rows below the window stay unread: abort, as finish_decompress would insist on reading them.
  jpeg_abort_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return JpegDecode::Decoded;
}

}  // namespace sprout::data
