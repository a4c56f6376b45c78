// Float32 average pooling through oneDNN (pooling_v2), on the caller's dense NCHW buffers; padded cells
// are not counted (Note [Pool2D geometry]). Max pooling has loops of Sprout's own (Note [Max pooling
// kernels]).
#include <string>
#include <utility>

#include "kernels/cpu/nn_pool_kernels.h"
#include "kernels/cpu/onednn.h"

namespace sprout {
namespace {

using dnnl::memory;

constexpr auto kAverage = dnnl::algorithm::pooling_avg_exclude_padding;

struct PoolDescs {
  memory::desc src, dst;
  memory::dims strides, kernel, dilation, pad_l, pad_r;
};

PoolDescs pool_descs(const Pool2DGeometry& g) {
  auto md = [](memory::dims d) { return memory::desc(d, memory::data_type::f32, memory::format_tag::nchw); };
  return {md({g.n, g.c, g.h, g.w}), md({g.n, g.c, g.oh, g.ow}), {g.sh, g.sw}, {g.kh, g.kw}, {0, 0},
          {g.pt, g.pl}, {g.pb, g.pr}};
}

std::string geometry_key(const char* pass, const Pool2DGeometry& g) {
  return str(pass, "avg", g.n, ',', g.c, ',', g.h, ',', g.w, ',', g.kh, ',', g.kw, ',', g.sh, ',', g.sw, ',', g.pt,
             ',', g.pb, ',', g.pl, ',', g.pr);
}

dnnl::pooling_v2_forward::primitive_desc forward_pd(const PoolDescs& d, dnnl::prop_kind prop) {
  dnnl::pooling_v2_forward::desc desc(prop, kAverage, d.src, d.dst, d.strides, d.kernel, d.dilation, d.pad_l,
                                      d.pad_r);
  return {desc, onednn::engine()};
}

struct ForwardPlan {
  dnnl::pooling_v2_forward::primitive_desc pd;
  dnnl::pooling_v2_forward prim;
};

struct BackwardPlan {
  dnnl::pooling_v2_backward::primitive_desc pd;
  dnnl::pooling_v2_backward prim;
};

memory wrap(const memory::desc& md, const void* data) {
  return memory(md, onednn::engine(), const_cast<void*>(data));
}

// oneDNN's NCHW average pooling is slow on planes of one row or one column (1-d pooling, as avg_pool1d
// writes it): (16, 32, 1, 4096) with 1 x 4 windows took 5.9 ms, the same data as (16, 32, 4, 1024) 0.36.
// Windows that tile the line without padding (window = stride, dividing its length) never cross a fold,
// so such a line is pooled as a plane of several rows of the same memory.
Pool2DGeometry fold_line(Pool2DGeometry g) {
  const bool row = g.h == 1 && g.kh == 1 && g.sh == 1, column = g.w == 1 && g.kw == 1 && g.sw == 1;
  if (row == column) return g;
  if (column) {  // (H, 1) windows down a column: the same memory as a row of H
    std::swap(g.h, g.w), std::swap(g.kh, g.kw), std::swap(g.sh, g.sw), std::swap(g.oh, g.ow);
    std::swap(g.pt, g.pl), std::swap(g.pb, g.pr);
  }
  if (g.pt || g.pb || g.pl || g.pr || g.kw != g.sw || g.w % g.kw != 0 || g.ow != g.w / g.kw) return g;
  int64_t rows = 1;  // the most rows (up to 64) leaving each at least 16 windows
  for (int64_t f = 2; f <= 64 && g.ow / f >= 16; ++f)
    if (g.ow % f == 0) rows = f;
  g.h = g.oh = rows;
  g.w /= rows;
  g.ow /= rows;
  return g;
}

}  // namespace

void onednn_avg_pool2d_forward(const Pool2DGeometry& original, const float* x, float* y) {
  const Pool2DGeometry g = fold_line(original);
  PoolDescs d = pool_descs(g);
  auto& plan = onednn::cached<ForwardPlan>(geometry_key("fwd", g), [&] {
    auto pd = forward_pd(d, dnnl::prop_kind::forward_inference);
    return ForwardPlan{pd, dnnl::pooling_v2_forward(pd)};
  });
  plan.prim.execute(onednn::stream(), {{DNNL_ARG_SRC, wrap(d.src, x)}, {DNNL_ARG_DST, wrap(d.dst, y)}});
  onednn::stream().wait();
}

void onednn_avg_pool2d_backward(const Pool2DGeometry& original, const float* dy, float* dx) {
  const Pool2DGeometry g = fold_line(original);
  PoolDescs d = pool_descs(g);
  auto& plan = onednn::cached<BackwardPlan>(geometry_key("bwd", g), [&] {
    dnnl::pooling_v2_backward::desc desc(kAverage, d.src, d.dst, d.strides, d.kernel, d.dilation, d.pad_l, d.pad_r);
    dnnl::pooling_v2_backward::primitive_desc pd(desc, onednn::engine(),
                                                 forward_pd(d, dnnl::prop_kind::forward_training));
    return BackwardPlan{pd, dnnl::pooling_v2_backward(pd)};
  });
  plan.prim.execute(onednn::stream(), {{DNNL_ARG_DIFF_DST, wrap(d.dst, dy)}, {DNNL_ARG_DIFF_SRC, wrap(d.src, dx)}});
  onednn::stream().wait();
}

}  // namespace sprout
