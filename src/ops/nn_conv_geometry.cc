// conv_geometry(): Note [Conv2D geometry].
#include <algorithm>
#include <cctype>

#include "base/shape.h"
#include "ops/nn_conv.h"

namespace sprout {
namespace {

// Kernel sizes, strides, dilations and paddings beyond this are certainly mistakes, and would overflow
// the output-size arithmetic (and oneDNN's 32-bit window parameters).
constexpr int64_t kMaxWindowParam = (int64_t{1} << 31) - 1;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// One positive value per spatial axis from an int, `rank` values, or (with `allow_nc`) the layout's
// form with two leading 1s.
std::vector<int64_t> per_axis(std::string_view op, std::string_view arg, const std::vector<int64_t>& v, int rank,
                              bool allow_nc) {
  std::vector<int64_t> out;
  const size_t r = static_cast<size_t>(rank);
  if (v.size() == 1) out.assign(r, v[0]);
  else if (v.size() == r) out = v;
  else if (allow_nc && v.size() == r + 2 && v[0] == 1 && v[1] == 1) out.assign(v.begin() + 2, v.end());
  else
    throw ValueError(str(op, ": '", arg, "' must be an int or a tuple of ", rank, " ints",
                         allow_nc ? str(" (or ", rank + 2, " with two leading 1s)") : std::string(), ", but got ",
                         shape_str(v)));
  for (int64_t e : out)
    SPROUT_CHECK(e > 0 && e <= kMaxWindowParam, ValueError, op, ": '", arg, "' must be in [1, ", kMaxWindowParam,
                 "], but got ", shape_str(v));
  return out;
}

}  // namespace

ConvGeometry conv_geometry(std::string_view op, int rank, const ConvAttrs& a, std::span<const int64_t> x,
                           std::span<const int64_t> w) {
  const char* layout = rank == 2 ? "NCHW" : "NCDHW";
  const size_t nd = static_cast<size_t>(rank) + 2;
  SPROUT_CHECK(a.mode == 1, ValueError, op, ": 'mode' must be 1, but got ", a.mode);
  SPROUT_CHECK(a.data_format == layout, ValueError, op, ": 'data_format' must be '", layout, "' on CPU, but got '",
               a.data_format, "'");
  const std::string mode = lower(a.pad_mode);
  SPROUT_CHECK(mode == "valid" || mode == "same" || mode == "pad", ValueError, op,
               ": 'pad_mode' must be one of 'valid', 'same', 'pad', but got '", a.pad_mode, "'");
  SPROUT_CHECK(x.size() == nd, ValueError, op, ": 'x' must be ", nd, "-d (", rank == 2 ? "N, C, H, W" : "N, C, D, H, W",
               "), but got shape ", shape_str(x));
  SPROUT_CHECK(w.size() == nd, ValueError, op, ": 'weight' must be ", nd, "-d (C_out, C_in / group, ",
               rank == 2 ? "kH, kW" : "kD, kH, kW", "), but got shape ", shape_str(w));
  check_shape(op, "x", x);
  check_shape(op, "weight", w);
  SPROUT_CHECK(a.group >= 1, ValueError, op, ": 'group' must be >= 1, but got ", a.group);
  SPROUT_CHECK(a.out_channel == w[0], ValueError, op, ": 'out_channel' is ", a.out_channel, " but 'weight' of shape ",
               shape_str(w), " has ", w[0], " output channels");
  SPROUT_CHECK(w[0] > 0 && w[0] % a.group == 0, ValueError, op, ": 'out_channel' (", w[0],
               ") must be a positive multiple of 'group' (", a.group, ")");
  SPROUT_CHECK(x[1] == w[1] * a.group, ValueError, op, ": 'x' of shape ", shape_str(x), " has ", x[1],
               " channels, but 'weight' of shape ", shape_str(w), " with group=", a.group, " expects ", w[1] * a.group);
  std::vector<int64_t> k = per_axis(op, "kernel_size", a.kernel_size, rank, false);
  SPROUT_CHECK(std::equal(k.begin(), k.end(), w.begin() + 2), ValueError, op, ": 'kernel_size' is ",
               shape_str(a.kernel_size), " but 'weight' has shape ", shape_str(w));
  std::vector<int64_t> stride = per_axis(op, "stride", a.stride, rank, true);
  std::vector<int64_t> dilation = per_axis(op, "dilation", a.dilation, rank, true);
  SPROUT_CHECK(a.pad.size() == 1 || a.pad.size() == 2 * nd - 4, ValueError, op, ": 'pad' must be an int or a tuple of ",
               2 * rank, " ints (before and after each spatial axis), but got ", shape_str(a.pad));
  bool any_pad = false;
  for (int64_t p : a.pad) {
    SPROUT_CHECK(p >= 0 && p <= kMaxWindowParam, ValueError, op, ": 'pad' must be in [0, ", kMaxWindowParam,
                 "], but got ", shape_str(a.pad));
    any_pad = any_pad || p != 0;
  }
  SPROUT_CHECK(mode == "pad" || !any_pad, ValueError, op, ": 'pad' must be 0 unless pad_mode is 'pad', but got pad=",
               shape_str(a.pad), " with pad_mode '", a.pad_mode, "'");

  ConvGeometry g{rank, x[0], x[1], w[0], a.group, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0},
                 {0, 0, 0}};
  bool empty = false;
  for (int i = 0; i < rank; ++i) {
    const int s = 3 - rank + i;  // 2-d fills height and width; depth stays 1
    const int64_t in = x[2 + i], span = dilation[i] * (k[i] - 1) + 1;
    g.in[s] = in, g.k[s] = k[i], g.stride[s] = stride[i], g.dilation[s] = dilation[i];
    if (mode == "same") {
      g.out[s] = (in + stride[i] - 1) / stride[i];
      int64_t needed = std::max<int64_t>(0, (g.out[s] - 1) * stride[i] + span - in);
      g.pad_before[s] = needed / 2, g.pad_after[s] = needed - needed / 2;
    } else {
      if (mode == "pad") {
        g.pad_before[s] = a.pad.size() == 1 ? a.pad[0] : a.pad[2 * i];
        g.pad_after[s] = a.pad.size() == 1 ? a.pad[0] : a.pad[2 * i + 1];
      }
      int64_t padded = in + g.pad_before[s] + g.pad_after[s];
      g.out[s] = padded >= span ? (padded - span) / stride[i] + 1 : 0;
    }
    empty = empty || g.out[s] <= 0;
  }
  SPROUT_CHECK(!empty, ValueError, op, ": the input's spatial size ", shape_str(x.subspan(2)),
               " with padding is smaller than the dilated kernel; the output would be empty");
  return g;
}

}  // namespace sprout
