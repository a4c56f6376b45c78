// Float32 pooling through oneDNN (pooling_v2), on the caller's dense NCHW buffers. Max pooling's
// backward needs the forward's workspace (where each maximum was), so MaxPoolGrad reruns the forward
// in training mode first; that costs one pooling pass and keeps MaxPool's own output workspace-free.
#include <string>

#include "kernels/cpu/nn_pool_kernels.h"
#include "kernels/cpu/onednn.h"

namespace sprout {
namespace {

using dnnl::memory;

struct PoolDescs {
  memory::desc src, dst;
  memory::dims strides, kernel, dilation, pad_l, pad_r;
};

PoolDescs pool_descs(const Pool2DGeometry& g) {
  auto md = [](memory::dims d) { return memory::desc(d, memory::data_type::f32, memory::format_tag::nchw); };
  return {md({g.n, g.c, g.h, g.w}), md({g.n, g.c, g.oh, g.ow}), {g.sh, g.sw}, {g.kh, g.kw}, {0, 0},
          {g.pt, g.pl}, {g.pb, g.pr}};
}

dnnl::algorithm algorithm_of(PoolKind kind) {
  return kind == PoolKind::Max ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_exclude_padding;
}

std::string geometry_key(const char* pass, PoolKind kind, const Pool2DGeometry& g) {
  return str(pass, kind == PoolKind::Max ? "max" : "avg", g.n, ',', g.c, ',', g.h, ',', g.w, ',', g.kh, ',', g.kw,
             ',', g.sh, ',', g.sw, ',', g.pt, ',', g.pb, ',', g.pl, ',', g.pr);
}

dnnl::pooling_v2_forward::primitive_desc forward_pd(PoolKind kind, const PoolDescs& d, dnnl::prop_kind prop) {
  dnnl::pooling_v2_forward::desc desc(prop, algorithm_of(kind), d.src, d.dst, d.strides, d.kernel, d.dilation,
                                      d.pad_l, d.pad_r);
  return {desc, onednn::engine()};
}

struct ForwardPlan {
  dnnl::pooling_v2_forward::primitive_desc pd;
  dnnl::pooling_v2_forward prim;
};

struct BackwardPlan {
  dnnl::pooling_v2_forward::primitive_desc fwd_pd;
  dnnl::pooling_v2_forward fwd;  // training forward: the workspace max pooling's backward reads
  dnnl::pooling_v2_backward prim;
};

memory wrap(const memory::desc& md, const void* data) {
  return memory(md, onednn::engine(), const_cast<void*>(data));
}

}  // namespace

void onednn_pool2d_forward(PoolKind kind, const Pool2DGeometry& g, const float* x, float* y) {
  PoolDescs d = pool_descs(g);
  auto& plan = onednn::cached<ForwardPlan>(geometry_key("fwd", kind, g), [&] {
    auto pd = forward_pd(kind, d, dnnl::prop_kind::forward_inference);
    return ForwardPlan{pd, dnnl::pooling_v2_forward(pd)};
  });
  plan.prim.execute(onednn::stream(), {{DNNL_ARG_SRC, wrap(d.src, x)}, {DNNL_ARG_DST, wrap(d.dst, y)}});
  onednn::stream().wait();
}

void onednn_pool2d_backward(PoolKind kind, const Pool2DGeometry& g, const float* x, const float* dy, float* dx) {
  PoolDescs d = pool_descs(g);
  auto& plan = onednn::cached<BackwardPlan>(geometry_key("bwd", kind, g), [&] {
    auto fwd_pd = forward_pd(kind, d, dnnl::prop_kind::forward_training);
    dnnl::pooling_v2_backward::desc desc(algorithm_of(kind), d.src, d.dst, d.strides, d.kernel, d.dilation, d.pad_l,
                                         d.pad_r);
    dnnl::pooling_v2_backward::primitive_desc pd(desc, onednn::engine(), fwd_pd);
    return BackwardPlan{fwd_pd, dnnl::pooling_v2_forward(fwd_pd), dnnl::pooling_v2_backward(pd)};
  });
  std::unordered_map<int, memory> args{{DNNL_ARG_DIFF_DST, wrap(d.dst, dy)}, {DNNL_ARG_DIFF_SRC, wrap(d.src, dx)}};
  onednn::Temporaries temps;  // Note [oneDNN temporaries]
  if (kind == PoolKind::Max) {
    memory workspace = temps.memory(plan.fwd_pd.workspace_desc());
    memory scratch_dst = temps.memory(d.dst);
    plan.fwd.execute(onednn::stream(), {{DNNL_ARG_SRC, wrap(d.src, x)}, {DNNL_ARG_DST, scratch_dst},
                                        {DNNL_ARG_WORKSPACE, workspace}});
    args.emplace(DNNL_ARG_WORKSPACE, workspace);
  }
  plan.prim.execute(onednn::stream(), args);
  onednn::stream().wait();
}

}  // namespace sprout
