// Float32 convolution (2-d and 3-d) through oneDNN; bfloat16 too where the CPU computes it natively.
//
// Note [Conv2D backends]
// Float32 (and float16, widened) mostly runs oneDNN's convolution primitives: forward, backward data and
// backward weights. Primitives are created with format `any`, so oneDNN picks its fastest layout
// (blocked nChw16c on AVX-512 machines); the caller's dense NCHW/OIHW buffers are reordered in and out
// when that layout differs. The primitive descriptors and primitives are cached per geometry: building
// them costs far more than running a small convolution. Float64 has no oneDNN kernel; it runs im2col +
// dgemm (nn_conv_gemm.cc), which also serves as the exact reference the gradient checks use. The
// same im2col path in float32 takes backward data with very few input channels, where oneDNN's
// channel blocking wastes most of its work (measurements in nn_conv.cc). Two sets of loops of Sprout's
// own take the shapes oneDNN pads most: Note [Direct convolution] (1-3 input channels) and Note
// [Batch-vectorized backward passes] (backward passes with channel counts far from multiples of 16).
#include <string>
#include <type_traits>
#include <unordered_map>

#include "kernels/cpu/nn_conv_kernels.h"
#include "kernels/cpu/onednn.h"

namespace sprout {
namespace {

using dnnl::memory;
using tag = memory::format_tag;

struct ConvDims {
  memory::dims src, wei, dst, strides, dilates, pad_l, pad_r;
};

// Spatial entries of a geometry array in oneDNN's order: (h, w) for a 2-d convolution, (d, h, w) for 3-d.
memory::dims spatial(const ConvGeometry& g, const int64_t (&v)[3], int64_t minus = 0) {
  memory::dims out;
  for (int i = 3 - g.rank; i < 3; ++i) out.push_back(v[i] - minus);
  return out;
}

memory::dims with_lead(memory::dims lead, const memory::dims& rest) {
  lead.insert(lead.end(), rest.begin(), rest.end());
  return lead;
}

ConvDims conv_dims(const ConvGeometry& g) {
  memory::dims k = spatial(g, g.k);
  memory::dims wei = g.group > 1 ? with_lead({g.group, g.o / g.group, g.c / g.group}, k) : with_lead({g.o, g.c}, k);
  return {with_lead({g.n, g.c}, spatial(g, g.in)), wei, with_lead({g.n, g.o}, spatial(g, g.out)), spatial(g, g.stride),
          spatial(g, g.dilation, 1),  // oneDNN counts dilation from 0
          spatial(g, g.pad_before), spatial(g, g.pad_after)};
}

template <class T>
constexpr memory::data_type kType = std::is_same_v<T, float> ? memory::data_type::f32 : memory::data_type::bf16;

template <class T>
memory::desc any_md(const memory::dims& d) { return memory::desc(d, kType<T>, tag::any); }

// Dense layouts: data NC(D)HW, weights OI(D)HW or GOI(D)HW (the same bytes as the op's filter).
template <class T>
memory::desc plain_md(const memory::dims& d, bool grouped_weights) {
  static const tag by_rank[] = {tag::undef, tag::undef, tag::undef, tag::undef, tag::nchw, tag::ncdhw};
  tag t = grouped_weights ? (d.size() == 5 ? tag::goihw : tag::goidhw) : by_rank[d.size()];
  return memory::desc(d, kType<T>, t);
}

template <class T>
std::string geometry_key(const char* pass, const ConvGeometry& g) {
  std::string key = str(pass, static_cast<int>(kType<T>), ':', g.rank, ',', g.n, ',', g.c, ',', g.o, ',', g.group);
  for (const auto* v : {&g.in, &g.k, &g.stride, &g.dilation, &g.pad_before, &g.pad_after})
    for (int64_t e : *v) key += str(',', e);
  return key;
}

template <class T>
dnnl::convolution_forward::primitive_desc forward_pd(const ConvDims& d) {
  dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                                       any_md<T>(d.src), any_md<T>(d.wei), any_md<T>(d.dst), d.strides, d.dilates,
                                       d.pad_l, d.pad_r);
  return {desc, onednn::user_scratchpad(), onednn::engine()};
}

// User memory of dense layout `plain` at `data`, as a memory of the primitive's layout `want` (a
// copy in `temps` when they differ; Note [oneDNN temporaries]).
memory input_in_layout(const memory::desc& want, const memory::desc& plain, const void* data,
                       onednn::Temporaries& temps) {
  memory user(plain, onednn::engine(), const_cast<void*>(data));
  if (want == plain) return user;
  memory m = temps.memory(want);
  dnnl::reorder(user, m).execute(onednn::stream(), user, m);
  return m;
}

// Runs `prim` on `args`, its scratchpad and its output `arg` in layout `want`, landing in the dense
// buffer `data` (through a copy in `temps` when the layouts differ; Note [oneDNN temporaries]).
void execute_into(const dnnl::primitive& prim, const memory::desc& scratchpad, std::unordered_map<int, memory> args,
                  int arg, const memory::desc& want, const memory::desc& plain, void* data,
                  onednn::Temporaries& temps) {
  memory user(plain, onednn::engine(), data);
  bool direct = want == plain;
  memory out = direct ? user : temps.memory(want);
  args.emplace(arg, out);
  temps.add_scratchpad(scratchpad, args);
  prim.execute(onednn::stream(), args);
  if (!direct) dnnl::reorder(out, user).execute(onednn::stream(), out, user);
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

template <class T>
void conv_forward(const ConvGeometry& g, const T* x, const T* w, T* y) {
  ConvDims d = conv_dims(g);
  auto& plan = onednn::cached<ForwardPlan>(geometry_key<T>("fwd", g), [&] {
    auto pd = forward_pd<T>(d);
    return ForwardPlan{pd, dnnl::convolution_forward(pd)};
  });
  onednn::Temporaries temps;
  memory src = input_in_layout(plan.pd.src_desc(), plain_md<T>(d.src, false), x, temps);
  memory wei = input_in_layout(plan.pd.weights_desc(), plain_md<T>(d.wei, g.group > 1), w, temps);
  execute_into(plan.prim, plan.pd.scratchpad_desc(), {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wei}}, DNNL_ARG_DST,
               plan.pd.dst_desc(), plain_md<T>(d.dst, false), y, temps);
}

template <class T>
void conv_backward_data(const ConvGeometry& g, const T* dy, const T* w, T* dx) {
  ConvDims d = conv_dims(g);
  auto& plan = onednn::cached<BackwardDataPlan>(geometry_key<T>("bwd_data", g), [&] {
    dnnl::convolution_backward_data::desc desc(dnnl::algorithm::convolution_direct, any_md<T>(d.src),
                                               any_md<T>(d.wei), any_md<T>(d.dst), d.strides, d.dilates, d.pad_l,
                                               d.pad_r);
    dnnl::convolution_backward_data::primitive_desc pd(desc, onednn::user_scratchpad(), onednn::engine(),
                                                       forward_pd<T>(d));
    return BackwardDataPlan{pd, dnnl::convolution_backward_data(pd)};
  });
  onednn::Temporaries temps;
  memory diff_dst = input_in_layout(plan.pd.diff_dst_desc(), plain_md<T>(d.dst, false), dy, temps);
  memory wei = input_in_layout(plan.pd.weights_desc(), plain_md<T>(d.wei, g.group > 1), w, temps);
  execute_into(plan.prim, plan.pd.scratchpad_desc(), {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_WEIGHTS, wei}},
               DNNL_ARG_DIFF_SRC, plan.pd.diff_src_desc(), plain_md<T>(d.src, false), dx, temps);
}

template <class T>
void conv_backward_weights(const ConvGeometry& g, const T* dy, const T* x, T* dw) {
  ConvDims d = conv_dims(g);
  auto& plan = onednn::cached<BackwardWeightsPlan>(geometry_key<T>("bwd_weights", g), [&] {
    dnnl::convolution_backward_weights::desc desc(dnnl::algorithm::convolution_direct, any_md<T>(d.src),
                                                  any_md<T>(d.wei), any_md<T>(d.dst), d.strides, d.dilates, d.pad_l,
                                                  d.pad_r);
    dnnl::convolution_backward_weights::primitive_desc pd(desc, onednn::user_scratchpad(), onednn::engine(),
                                                          forward_pd<T>(d));
    return BackwardWeightsPlan{pd, dnnl::convolution_backward_weights(pd)};
  });
  onednn::Temporaries temps;
  memory diff_dst = input_in_layout(plan.pd.diff_dst_desc(), plain_md<T>(d.dst, false), dy, temps);
  memory src = input_in_layout(plan.pd.src_desc(), plain_md<T>(d.src, false), x, temps);
  execute_into(plan.prim, plan.pd.scratchpad_desc(), {{DNNL_ARG_DIFF_DST, diff_dst}, {DNNL_ARG_SRC, src}},
               DNNL_ARG_DIFF_WEIGHTS, plan.pd.diff_weights_desc(), plain_md<T>(d.wei, g.group > 1), dw, temps);
}

}  // namespace

void onednn_conv_forward(const ConvGeometry& g, const float* x, const float* w, float* y) { conv_forward(g, x, w, y); }
void onednn_conv_forward(const ConvGeometry& g, const bfloat16* x, const bfloat16* w, bfloat16* y) {
  conv_forward(g, x, w, y);
}
void onednn_conv_backward_data(const ConvGeometry& g, const float* dy, const float* w, float* dx) {
  conv_backward_data(g, dy, w, dx);
}
void onednn_conv_backward_data(const ConvGeometry& g, const bfloat16* dy, const bfloat16* w, bfloat16* dx) {
  conv_backward_data(g, dy, w, dx);
}
void onednn_conv_backward_weights(const ConvGeometry& g, const float* dy, const float* x, float* dw) {
  conv_backward_weights(g, dy, x, dw);
}
void onednn_conv_backward_weights(const ConvGeometry& g, const bfloat16* dy, const bfloat16* x, bfloat16* dw) {
  conv_backward_weights(g, dy, x, dw);
}

}  // namespace sprout
