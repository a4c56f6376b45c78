// Float32 convolution through oneDNN.
//
// Note [Conv2D backends]
// Float32 (and float16, widened) runs oneDNN's convolution primitives: forward, backward data and
// backward weights. Primitives are created with format `any`, so oneDNN picks its fastest layout
// (blocked nChw16c on AVX-512 machines); the caller's dense NCHW/OIHW buffers are reordered in and out
// when that layout differs. The primitive descriptors and primitives are cached per geometry: building
// them costs far more than running a small convolution. Float64 has no oneDNN kernel; it runs im2col +
// dgemm (nn_conv_gemm.cc), which also serves as the exact reference the gradient checks use.
#include <string>

#include "kernels/cpu/nn_conv_kernels.h"
#include "kernels/cpu/onednn.h"

namespace sprout {
namespace {

using dnnl::memory;
using tag = memory::format_tag;

struct ConvDims {
  memory::dims src, wei, dst, strides, dilates, pad_l, pad_r;
};

ConvDims conv_dims(const Conv2DGeometry& g) {
  memory::dims wei = g.group > 1 ? memory::dims{g.group, g.o / g.group, g.c / g.group, g.kh, g.kw}
                                 : memory::dims{g.o, g.c, g.kh, g.kw};
  return {{g.n, g.c, g.h, g.w},  wei, {g.n, g.o, g.oh, g.ow}, {g.sh, g.sw},
          {g.dh - 1, g.dw - 1},  // oneDNN counts dilation from 0
          {g.pt, g.pl},          {g.pb, g.pr}};
}

memory::desc any_md(const memory::dims& d) { return memory::desc(d, memory::data_type::f32, tag::any); }
memory::desc plain_md(const memory::dims& d) {
  tag t = d.size() == 5 ? tag::goihw : tag::nchw;  // nchw and oihw are the same dense layout
  return memory::desc(d, memory::data_type::f32, t);
}

std::string geometry_key(const char* pass, const Conv2DGeometry& g) {
  return str(pass, g.n, ',', g.c, ',', g.h, ',', g.w, ',', g.o, ',', g.kh, ',', g.kw, ',', g.sh, ',', g.sw, ',', g.dh,
             ',', g.dw, ',', g.pt, ',', g.pb, ',', g.pl, ',', g.pr, ',', g.group);
}

dnnl::convolution_forward::primitive_desc forward_pd(const ConvDims& d) {
  dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                                       any_md(d.src), any_md(d.wei), any_md(d.dst), d.strides, d.dilates, d.pad_l,
                                       d.pad_r);
  return {desc, onednn::engine()};
}

// User memory of dense layout `plain` at `data`, as a memory of the primitive's layout `want`.
memory input_in_layout(const memory::desc& want, const memory::desc& plain, const void* data) {
  memory user(plain, onednn::engine(), const_cast<void*>(data));
  if (want == plain) return user;
  memory m(want, onednn::engine());
  dnnl::reorder(user, m).execute(onednn::stream(), user, m);
  return m;
}

// Runs `prim` with its output in layout `want`, landing in the dense buffer `data`.
template <class Exec>
void with_output(const memory::desc& want, const memory::desc& plain, void* data, int arg, Exec&& exec) {
  memory user(plain, onednn::engine(), data);
  if (want == plain) {
    exec(arg, user);
  } else {
    memory m(want, onednn::engine());
    exec(arg, m);
    dnnl::reorder(m, user).execute(onednn::stream(), m, user);
  }
  onednn::stream().wait();
}

struct ForwardPlan {
  dnnl::convolution_forward::primitive_desc pd;
  dnnl::convolution_forward prim;
};

struct BackwardDataPlan {
  dnnl::convolution_backward_data::primitive_desc pd;
  dnnl::convolution_backward_data prim;
};

struct BackwardWeightsPlan {
  dnnl::convolution_backward_weights::primitive_desc pd;
  dnnl::convolution_backward_weights prim;
};

}  // namespace

void onednn_conv2d_forward(const Conv2DGeometry& g, const float* x, const float* w, float* y) {
  ConvDims d = conv_dims(g);
  auto& plan = onednn::cached<ForwardPlan>(geometry_key("fwd", g), [&] {
    auto pd = forward_pd(d);
    return ForwardPlan{pd, dnnl::convolution_forward(pd)};
  });
  memory src = input_in_layout(plan.pd.src_desc(), plain_md(d.src), x);
  memory wei = input_in_layout(plan.pd.weights_desc(), plain_md(d.wei), w);
  with_output(plan.pd.dst_desc(), plain_md(d.dst), y, DNNL_ARG_DST, [&](int arg, memory& dst) {
    plan.prim.execute(onednn::stream(), {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}, {arg, dst}});
  });
}

void onednn_conv2d_backward_data(const Conv2DGeometry& g, const float* dy, const float* w, float* dx) {
  ConvDims d = conv_dims(g);
  auto& plan = onednn::cached<BackwardDataPlan>(geometry_key("bwd_data", g), [&] {
    dnnl::convolution_backward_data::desc desc(dnnl::algorithm::convolution_direct, any_md(d.src), any_md(d.wei),
                                               any_md(d.dst), d.strides, d.dilates, d.pad_l, d.pad_r);
    dnnl::convolution_backward_data::primitive_desc pd(desc, onednn::engine(), forward_pd(d));
    return BackwardDataPlan{pd, dnnl::convolution_backward_data(pd)};
  });
  memory diff_dst = input_in_layout(plan.pd.diff_dst_desc(), plain_md(d.dst), dy);
  memory wei = input_in_layout(plan.pd.weights_desc(), plain_md(d.wei), w);
  with_output(plan.pd.diff_src_desc(), plain_md(d.src), dx, DNNL_ARG_DIFF_SRC, [&](int arg, memory& out) {
    plan.prim.execute(onednn::stream(), {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_WEIGHTS, wei}, {arg, out}});
  });
}

void onednn_conv2d_backward_weights(const Conv2DGeometry& g, const float* dy, const float* x, float* dw) {
  ConvDims d = conv_dims(g);
  auto& plan = onednn::cached<BackwardWeightsPlan>(geometry_key("bwd_weights", g), [&] {
    dnnl::convolution_backward_weights::desc desc(dnnl::algorithm::convolution_direct, any_md(d.src), any_md(d.wei),
                                                  any_md(d.dst), d.strides, d.dilates, d.pad_l, d.pad_r);
    dnnl::convolution_backward_weights::primitive_desc pd(desc, onednn::engine(), forward_pd(d));
    return BackwardWeightsPlan{pd, dnnl::convolution_backward_weights(pd)};
  });
  memory diff_dst = input_in_layout(plan.pd.diff_dst_desc(), plain_md(d.dst), dy);
  memory src = input_in_layout(plan.pd.src_desc(), plain_md(d.src), x);
  with_output(plan.pd.diff_weights_desc(), plain_md(d.wei), dw, DNNL_ARG_DIFF_WEIGHTS, [&](int arg, memory& out) {
    plan.prim.execute(onednn::stream(), {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_SRC, src}, {arg, out}});
  });
}

}  // namespace sprout
