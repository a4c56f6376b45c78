// Float32 average pooling through oneDNN (pooling_v2), on the caller's dense NCHW buffers; padded cells
// are not counted (Note [Pool2D geometry]). Max pooling has loops of Sprout's own (Note [Max pooling
// kernels]).
#include <string>

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

}  // namespace

void onednn_avg_pool2d_forward(const Pool2DGeometry& g, const float* x, float* y) {
  PoolDescs d = pool_descs(g);
  auto& plan = onednn::cached<ForwardPlan>(geometry_key("fwd", g), [&] {
    auto pd = forward_pd(d, dnnl::prop_kind::forward_inference);
    return ForwardPlan{pd, dnnl::pooling_v2_forward(pd)};
  });
  plan.prim.execute(onednn::stream(), {{DNNL_ARG_SRC, wrap(d.src, x)}, {DNNL_ARG_DST, wrap(d.dst, y)}});
  onednn::stream().wait();
}

void onednn_avg_pool2d_backward(const Pool2DGeometry& g, const float* dy, float* dx) {
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
