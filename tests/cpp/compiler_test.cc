// The compiler pipeline on hand-built graphs: closure conversion, inlining, folding, lowering, the VM.
#include <gtest/gtest.h>

#include "compiler/graph_emit.h"
#include "compiler/lower.h"
#include "compiler/passes.h"
#include "ir/verifier.h"

namespace sprout::compiler {
namespace {

using namespace ir;

AnfNode* emit1(FuncGraph& g, const char* op, std::vector<AnfNode*> in) {
  return emit_primitive(g, Primitive::make(op), in)[0];
}

Tensor scalar(float v) { return Tensor::scalar(v, DType::Float32); }

// outer(x) { inner() { return x * x } ; return inner() + 1 }: a closure over x, called directly.
TEST(Compiler, ClosureConvertInlineAndRun) {
  Module m;
  FuncGraph* outer = m.new_graph("outer");
  ParameterNode* x = outer->add_parameter("x");
  x->set_abstract(tensor_abstract(DType::Float32, {3}));
  FuncGraph* inner = m.new_graph("inner", outer);
  inner->set_output(emit1(*inner, "Mul", {x, x}));  // x is a free variable of inner
  CNode* call = outer->add_cnode({outer->add_value(IrValue{inner})});
  call->set_abstract(tensor_abstract(DType::Float32, {3}));
  outer->set_output(emit1(*outer, "Add", {call, constant_tensor(*outer, scalar(1))}));
  verify(*outer);

  Compiled c = compile_graph(*outer, CompileOptions{"", "", true});
  EXPECT_TRUE(inner->parameters().size() == 1) << "closure conversion gives inner its captured x";
  size_t calls = 0;
  for (const CNode* n : outer->topological_order())
    if (!n->callee_value() || n->callee_value()->as<FuncGraph*>()) ++calls;
  EXPECT_EQ(calls, 0u) << "the call of inner is inlined";

  Tensor in = Tensor::empty(std::vector<int64_t>{3}, DType::Float32);
  for (int i = 0; i < 3; ++i) in.data<float>()[i] = static_cast<float>(i + 1);
  vm::VmValue out = c.program->run({vm::VmValue{in}});
  ASSERT_TRUE(out.tensor());
  EXPECT_FLOAT_EQ(out.tensor()->data<float>()[2], 10.0f);
}

// count(n, acc) = Switch(n > 0, body, done)(): body tail-calls count(n - 1, acc + 2).
TEST(Compiler, TailRecursiveLoopRunsInConstantStack) {
  Module m;
  FuncGraph* loop = m.new_graph("loop");
  ParameterNode* n = loop->add_parameter("n");
  ParameterNode* acc = loop->add_parameter("acc");
  n->set_abstract(tensor_abstract(DType::Float32, {}));
  acc->set_abstract(tensor_abstract(DType::Float32, {}));
  FuncGraph* body = m.new_graph("body", loop);
  FuncGraph* done = m.new_graph("done", loop);
  done->set_output(acc);
  body->set_output(body->add_cnode({body->add_value(IrValue{loop}),
                                    emit1(*body, "Sub", {n, constant_tensor(*body, scalar(1))}),
                                    emit1(*body, "Add", {acc, constant_tensor(*body, scalar(2))})}));
  AnfNode* cond = emit1(*loop, "Greater", {n, constant_tensor(*loop, scalar(0))});
  CNode* sw = emit_special(*loop, SpecialOp::Switch, {cond, loop->add_value(IrValue{body}), loop->add_value(IrValue{done})});
  loop->set_output(loop->add_cnode({sw}));

  Compiled c = compile_graph(*loop, CompileOptions{"", "", true});
  vm::VmValue out = c.program->run({vm::VmValue{scalar(100000)}, vm::VmValue{scalar(0)}});
  EXPECT_FLOAT_EQ(out.tensor()->data<float>()[0], 200000.0f);
}

TEST(Compiler, ConstantFoldingAndCse) {
  Module m;
  FuncGraph* g = m.new_graph("g");
  ParameterNode* x = g->add_parameter("x");
  x->set_abstract(tensor_abstract(DType::Float32, {2}));
  AnfNode* two = emit1(*g, "Add", {constant_tensor(*g, scalar(1)), constant_tensor(*g, scalar(1))});
  AnfNode* a = emit1(*g, "Mul", {x, two});
  AnfNode* b = emit1(*g, "Mul", {x, two});
  g->set_output(emit1(*g, "Add", {a, b}));
  Compiled c = compile_graph(*g, CompileOptions{"", "", true});
  // 1 + 1 folded, the two equal products computed once, and Mul + Add fused into one pass.
  const auto& code = c.program->entry().code;
  ASSERT_EQ(code.size(), 1u);
  ASSERT_EQ(code[0].op, vm::OpCode::Fused);
  EXPECT_EQ(code[0].fused->to_string(), "Fused[Mul, Add]");
  Tensor in = Tensor::empty(std::vector<int64_t>{2}, DType::Float32);
  in.data<float>()[0] = 1.5f;
  in.data<float>()[1] = -2.0f;
  vm::VmValue out = c.program->run({vm::VmValue{in}});
  EXPECT_FLOAT_EQ(out.tensor()->data<float>()[0], 6.0f);
  EXPECT_FLOAT_EQ(out.tensor()->data<float>()[1], -8.0f);
}

}  // namespace
}  // namespace sprout::compiler
