// MindIR core: building graphs by hand (the seed 004 examples), use lists, printing, verifying.
#include <gtest/gtest.h>

#include "ir/func_graph.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace sprout::ir {
namespace {

IrValue prim(const char* name) { return IrValue{Primitive::make(name)}; }

// test_f(x, y): a = x - 1; b = a + y; c = b * func(a, b); return c   with func(x, y) = x / y
struct TestF {
  Module module;
  FuncGraph* func;
  FuncGraph* test_f;
  TestF() {
    func = module.new_graph("func");
    auto* fx = func->add_parameter("x");
    auto* fy = func->add_parameter("y");
    func->set_output(func->add_cnode({func->add_value(prim("RealDiv")), fx, fy}));

    test_f = module.new_graph("test_f");
    auto* x = test_f->add_parameter("x");
    auto* y = test_f->add_parameter("y");
    auto* a = test_f->add_cnode({test_f->add_value(prim("Sub")), x, test_f->add_value(IrValue{int64_t{1}})},
                                {"test_f.py", 3});
    auto* b = test_f->add_cnode({test_f->add_value(prim("Add")), a, y}, {"test_f.py", 4});
    auto* call = test_f->add_cnode({test_f->add_value(IrValue{func}), a, b}, {"test_f.py", 5});
    auto* c = test_f->add_cnode({test_f->add_value(prim("Mul")), b, call}, {"test_f.py", 5});
    test_f->set_output(c);
  }
};

TEST(Ir, TestFPrintsAnfWithSourceLines) {
  TestF t;
  verify(*t.test_f);
  std::string text = print_ir(*t.test_f);
  EXPECT_NE(text.find("funcgraph @test_f(%x: <?>, %y: <?>)"), std::string::npos) << text;
  EXPECT_NE(text.find("%1 = Sub(%x, 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("%3 = @func(%1, %2)"), std::string::npos) << text;
  EXPECT_NE(text.find("# test_f.py:5"), std::string::npos) << text;
  EXPECT_NE(text.find("funcgraph @func(%x: <?>, %y: <?>)"), std::string::npos) << text;
  EXPECT_NE(print_dot(*t.test_f).find("cluster_func"), std::string::npos);
}

TEST(Ir, TopologicalOrderPutsInputsFirst) {
  TestF t;
  auto order = t.test_f->topological_order();
  ASSERT_EQ(order.size(), 5u);
  EXPECT_EQ(order.back(), t.test_f->return_node());
  for (size_t i = 0; i < order.size(); ++i)
    for (AnfNode* in : order[i]->inputs())
      if (in->kind() == NodeKind::CNode)
        EXPECT_LT(std::find(order.begin(), order.end(), in) - order.begin(), static_cast<long>(i));
}

TEST(Ir, ReplaceAllUsesKeepsUseListsConsistent) {
  TestF t;
  AnfNode* x = t.test_f->parameters()[0];
  AnfNode* y = t.test_f->parameters()[1];
  size_t y_uses = y->users().size();
  t.test_f->replace_all_uses(x, y);
  EXPECT_TRUE(x->users().empty());
  EXPECT_EQ(y->users().size(), y_uses + 1);
  verify(*t.test_f);
}

TEST(Ir, ClosureUsesParentNodesAsFreeVariables) {
  // func_outer(a, b): def func_inner(c): return a + b + c; return func_inner
  Module m;
  FuncGraph* outer = m.new_graph("func_outer");
  auto* a = outer->add_parameter("a");
  auto* b = outer->add_parameter("b");
  FuncGraph* inner = m.new_graph("func_inner", outer);
  auto* c = inner->add_parameter("c");
  auto* ab = inner->add_cnode({inner->add_value(prim("Add")), a, b});
  inner->set_output(inner->add_cnode({inner->add_value(prim("Add")), ab, c}));
  outer->set_output(outer->add_value(IrValue{inner}));
  verify(*outer);
  EXPECT_NE(print_ir(*outer).find("Add(@func_outer.a, @func_outer.b)"), std::string::npos) << print_ir(*outer);
}

TEST(Ir, VerifierRejectsForeignNodes) {
  Module m;
  FuncGraph* f = m.new_graph("f");
  FuncGraph* g = m.new_graph("g");  // not enclosing f
  auto* gx = g->add_parameter("x");
  g->set_output(gx);
  f->set_output(f->add_cnode({f->add_value(prim("Neg")), gx}));
  EXPECT_THROW(verify(*f), InternalError);
  FuncGraph* no_return = m.new_graph("h");
  EXPECT_THROW(verify(*no_return), InternalError);
}

TEST(Ir, JoinMergesShapesAndRejectsMismatches) {
  auto a = tensor_abstract(DType::Float32, Shape{2, 3});
  auto b = tensor_abstract(DType::Float32, Shape{2, 4});
  EXPECT_EQ(join(a, b, "if")->to_string(), "<Tensor[Float32], (2, -1)>");
  EXPECT_EQ(join(constant_abstract(int64_t{1}), constant_abstract(int64_t{2}), "if")->to_string(), "<Int64>");
  try {
    join(a, tensor_abstract(DType::Int64, Shape{2, 3}), "f.py:7 if/else");
    FAIL();
  } catch (const TypeError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("<Tensor[Float32], (2, 3)> and <Tensor[Int64], (2, 3)>"), std::string::npos) << msg;
    EXPECT_NE(msg.find("f.py:7"), std::string::npos);
  }
}

}  // namespace
}  // namespace sprout::ir
