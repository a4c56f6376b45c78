#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>

#include "base/error.h"
#include "compiler/autodiff.h"
#include "compiler/lower.h"
#include "compiler/passes.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace sprout::compiler {

using namespace ir;

FuncGraph* graph_constant(const AnfNode* n) {
  if (n->kind() != NodeKind::Value) return nullptr;
  auto* g = static_cast<const ValueNode*>(n)->value().as<FuncGraph*>();
  return g ? *g : nullptr;
}

std::vector<FuncGraph*> reachable_graphs(FuncGraph& entry) {
  std::vector<FuncGraph*> out{&entry};
  std::set<const FuncGraph*> seen{&entry};
  for (size_t i = 0; i < out.size(); ++i)
    for (const CNode* c : out[i]->topological_order())
      for (const AnfNode* in : c->inputs())
        if (in->kind() == NodeKind::Value)
          if (auto* g = static_cast<const ValueNode*>(in)->value().as<FuncGraph*>())
            if (seen.insert(*g).second) out.push_back(*g);
  // Closures reach graphs through their free variables' definers too: include nested graphs that
  // the reached ones define (their values appear in the parents' node lists).
  for (size_t i = 0; i < out.size(); ++i)
    for (const auto& n : out[i]->nodes())
      if (n->kind() == NodeKind::Value)
        if (auto* g = static_cast<const ValueNode*>(n.get())->value().as<FuncGraph*>())
          if (seen.insert(*g).second) out.push_back(*g);
  return out;
}

namespace {

// Writes a file atomically: a temporary next to it, then a rename.
void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    SPROUT_CHECK(out, RuntimeError, "save_graphs: cannot write ", tmp.string());
    out << text;
  }
  std::filesystem::rename(tmp, path);
}

class Dumper {
 public:
  explicit Dumper(const CompileOptions& o) : options_(o) {
    if (!o.dump_dir.empty()) std::filesystem::create_directories(o.dump_dir);
  }
  void stage(const std::string& name, const FuncGraph& entry) {
    if (options_.dump_dir.empty()) return;
    char index[8];
    std::snprintf(index, sizeof index, "%02d_", stage_++);
    std::filesystem::path base = std::filesystem::path(options_.dump_dir) / (options_.dump_prefix + index + name);
    write_file(base.string() + ".ir", print_ir(entry));
    write_file(base.string() + ".dot", print_dot(entry));
  }
  void program(const vm::Program& p) {
    if (options_.dump_dir.empty()) return;
    write_file((std::filesystem::path(options_.dump_dir) / (options_.dump_prefix + "program.txt")).string(), p.describe());
  }

 private:
  const CompileOptions& options_;
  int stage_ = 0;
};

}  // namespace

Compiled compile_graph(FuncGraph& entry, const CompileOptions& options) {
  using Clock = std::chrono::steady_clock;
  Compiled result;
  Dumper dump(options);
  dump.stage("specialize", entry);
  if (options.verify) verify(entry);
  auto run = [&](const char* name, size_t (*pass)(FuncGraph&)) {
    auto start = Clock::now();
    size_t changes = pass(entry);
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    result.passes.push_back(PassReport{name, ms, changes});
    if (options.verify) verify(entry);
    dump.stage(name, entry);
  };
  run("closure_convert", closure_convert);
  run("simplify", simplify);
  run("expand_grad", expand_grad);
  run("simplify", simplify);
  run("inline", inline_calls);
  run("simplify", simplify);
  run("fold", fold_constants);
  run("cse", cse);
  run("fuse", fuse_elementwise);
  run("dce", dce);
  run("fold_updates", fold_updates);
  run("dce", dce);
  run("order_writes", order_writes);
  auto start = Clock::now();
  result.program = lower(entry);
  result.passes.push_back(
      PassReport{"lower", std::chrono::duration<double, std::milli>(Clock::now() - start).count(), 0});
  dump.program(*result.program);
  return result;
}

void optimize_for_export(FuncGraph& entry) {
  for (size_t (*pass)(FuncGraph&) : {closure_convert, simplify, expand_grad, simplify, inline_calls, simplify,
                                     fold_constants, cse, dce})
    pass(entry);
}

}  // namespace sprout::compiler
