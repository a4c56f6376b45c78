// The optimizer passes over MindIR and the pipeline that runs them. Note [Pass pipeline]
// The front end hands over specialized graphs (every node typed, constants folded, one graph per
// call-site signature). The pipeline then runs, in this fixed order:
//   closure_convert  free variables become explicit parameters; a graph value that captured some
//                    becomes Partial(graph, captured...) -- every graph is closed afterwards
//   simplify         Partial calls become direct calls, constant switches pick their branch,
//                    TupleGetItem(MakeTuple) and no-op casts/reshapes vanish, Depend without order drops
//   expand_grad      J(fn) nodes (gradients requested in the source) become fn's J transform
//                    (compiler/autodiff.cc, Note [J transform]), then closure conversion again
//   simplify         again
//   inline           calls of non-recursive graphs are replaced by the callee's body
//   simplify         again, on what inlining exposed
//   fold             pure ops whose inputs are all constants run once, at compile time
//   cse              identical pure nodes computed once
//   fuse             groups of elementwise ops become one fused node, run block by block in cache
//                    (pass_fuse.cc, Note [Elementwise fusion])
//   dce              nodes the result does not need are dropped
//   fold_updates     plain SGD of a weight whose gradient is a MatMul used nowhere else becomes one
//                    accumulating GEMM (pass_fold_updates.cc), then dce again
//   order_writes     each in-place write of a graph input waits for the reads of it that do not
//                    depend on the write (pass_order_writes.cc, Note [Write after read])
// Each pass reports its time; with verification on, the verifier checks the IR after each pass.
#pragma once

#include <string>
#include <vector>

#include "ir/func_graph.h"
#include "runtime/vm.h"

namespace sprout::compiler {

// The graph a ValueNode holds, or null.
ir::FuncGraph* graph_constant(const ir::AnfNode* n);

// Every graph reachable from `entry` through graph constants, entry first.
std::vector<ir::FuncGraph*> reachable_graphs(ir::FuncGraph& entry);

// Does the graph write Parameters in place or call graphs (which may)? Rewrites that turn a computed
// copy into an alias of its input (x * 1 -> x) or merge reads are not safe there.
bool graph_has_effects(const ir::FuncGraph& g);

size_t closure_convert(ir::FuncGraph& entry);
size_t simplify(ir::FuncGraph& entry);
size_t inline_calls(ir::FuncGraph& entry);
size_t fold_constants(ir::FuncGraph& entry);
size_t cse(ir::FuncGraph& entry);
size_t fuse_elementwise(ir::FuncGraph& entry);
size_t dce(ir::FuncGraph& entry);
size_t fold_updates(ir::FuncGraph& entry);
size_t order_writes(ir::FuncGraph& entry);

struct PassReport {
  std::string name;
  double ms = 0;
  size_t changes = 0;
};

struct CompileOptions {
  std::string dump_dir;  // non-empty: write <dir>/<NN>_<stage>.ir and .dot after each stage
  std::string dump_prefix;
  bool verify = false;   // run the IR verifier after every pass
};

struct Compiled {
  std::unique_ptr<vm::Program> program;
  std::vector<PassReport> passes;
};

// Runs the pass pipeline on `entry` (in place) and lowers the result.
Compiled compile_graph(ir::FuncGraph& entry, const CompileOptions& options);

// The passes that keep registry ops as they are (up to cse, then dce; no fusion), in place: the
// graph a model file holds (io/mindir.h).
void optimize_for_export(ir::FuncGraph& entry);

}  // namespace sprout::compiler
