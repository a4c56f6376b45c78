#include "data/jpeg_decoder.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>  // jpeglib.h uses FILE without including stdio.h
#include <string>

#include <jpeglib.h>

namespace sprout::data {
namespace {

// Note [libjpeg errors]: libjpeg reports a fatal error by calling error_exit, which must not return.
// It longjmps back into decode_jpeg_rgb's frame (C frames only in between, so no destructor is skipped);
// throwing through libjpeg's C frames instead would rely on how the system library was compiled.
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

JpegDecode decode_jpeg_rgb(const uint8_t* bytes, size_t size, Tensor& out, std::string& error) {
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
  jpeg_start_decompress(&cinfo);
  const int64_t height = cinfo.output_height, width = cinfo.output_width;
  try {
    out = Tensor::empty(Shape{height, width, 3}, DType::UInt8);
  } catch (...) {  // out of memory: nothing of libjpeg's may stay behind
    jpeg_destroy_decompress(&cinfo);
    throw;
  }
  auto* base = static_cast<JSAMPLE*>(out.raw_data());
  JSAMPROW rows[16];
  while (cinfo.output_scanline < cinfo.output_height) {
    const int64_t first = cinfo.output_scanline;
    const int64_t count = std::min<int64_t>(16, height - first);
    for (int64_t r = 0; r < count; ++r) rows[r] = base + (first + r) * width * 3;
    jpeg_read_scanlines(&cinfo, rows, static_cast<JDIMENSION>(count));
  }
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return JpegDecode::Decoded;
}

}  // namespace sprout::data
