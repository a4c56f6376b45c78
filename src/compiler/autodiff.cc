// Graph-mode automatic differentiation: the J transform. Note [J transform]
//
// J(G), for a closed graph G(p...), is a graph G_J(p...) returning (out, bprop): the forward values
// of G, and a closure bprop(dout) returning one gradient per parameter of G. bprop is the graph G_B,
// nested in G_J, whose free variables are the forward values it needs (closure conversion later turns
// it into Partial(G_B, saved values...), so the forward values used by the backward are shared, not
// recomputed). G_B walks G's nodes backwards:
//   primitive      the op's bprop rule (the same rules eager mode runs) through a GraphEmitter
//   MakeTuple / TupleGetItem / Depend   move sensitivities structurally
//   call of a graph or closure   the forward calls the callee's J form, which returns (out, bprop);
//                  the backward calls that bprop -- this covers direct calls, recursion and loops
//                  (tail recursion), and Switch: both branches are wrapped to take the same bound
//                  values (uniform_switch), so one bprop signature serves whichever branch ran.
// Only nodes that depend on a parameter get a backward; sensitivities that never arrive are zeros.
//
// Note [Recomputed cells in compiled code]
// A call of a graph marked recompute (a Cell's construct after cell.recompute()) is not differentiated
// through its J form in the forward graph, which would keep every value its bprop reads alive until
// backward: the forward calls the graph plainly, and the backward calls its J form again, on its
// arguments passed through Depend(arg, dout). The Depend makes the recomputation wait for the
// sensitivity (so it runs during backward, after the values of the forward call were released) and
// keeps CSE from merging it with the forward computation (its inputs are other nodes). Random ops draw
// the same numbers both times: the copies carry the same seeds and each runs once per program run
// (Note [Random streams in compiled code]). A graph that writes Parameters (BatchNorm's statistics in
// training) is differentiated as usual, since recomputing would write them twice.
// Applying J to a graph that contains J's output gives higher orders: expand_grad expands the inner
// J first and inlines it, so the outer J sees plain primitives.
#include <map>
#include <set>

#include "base/error.h"
#include "compiler/autodiff.h"
#include "compiler/graph_emit.h"
#include "compiler/passes.h"

namespace sprout::compiler {

using namespace ir;

namespace {

AbstractPtr fn_abstract() { return function_abstract({}, {}); }

const Primitive* primitive_callee(const CNode* c) {
  const IrValue* v = c->callee_value();
  return v ? v->as<Primitive>() : nullptr;
}

// Zeros shaped like `like` (a forward node seen from `g`): tensors, tuples of them, None otherwise.
AnfNode* zeros_like(FuncGraph& g, AnfNode* like) {
  const AbstractPtr& a = like->abstract();
  if (a && a->is_tensor()) {
    static const Primitive zeros = Primitive::make("ZerosLike");
    AnfNode* in[1] = {like};
    return emit_primitive(g, zeros, in)[0];
  }
  if (const AbstractSequence* seq = a ? a->as<AbstractSequence>() : nullptr) {
    std::vector<AnfNode*> items;
    for (size_t i = 0; i < seq->elements.size(); ++i)
      items.push_back(zeros_like(g, emit_tuple_getitem(g, like, static_cast<int64_t>(i))));
    return emit_make_tuple(g, std::move(items));
  }
  ValueNode* none = g.add_value(IrValue{NoneValue{}});
  none->set_abstract(none_abstract());
  return none;
}

class JTransform {
 public:
  explicit JTransform(Module& m) : module_(m) {}

  FuncGraph* j(FuncGraph* g) {
    auto it = done_.find(g);
    if (it != done_.end()) return it->second;
    FuncGraph* gj = module_.new_graph(g->name() + "_J");
    done_[g] = gj;  // before the body: recursive graphs refer to their own J form
    transform(*g, *gj);
    return gj;
  }

  Module& module() { return module_; }

 private:
  class GraphJ;
  void transform(FuncGraph& g, FuncGraph& gj);
  Module& module_;
  std::map<FuncGraph*, FuncGraph*> done_;
};

class JTransform::GraphJ {
 public:
  GraphJ(JTransform& jt, FuncGraph& g, FuncGraph& gj) : jt_(jt), g_(g), gj_(gj) {}

  void run() {
    for (ParameterNode* p : g_.parameters()) {
      ParameterNode* q = gj_.add_parameter(p->name());
      q->set_abstract(p->abstract());
      fwd_[p] = q;
      needs_.insert(p);
    }
    order_ = g_.topological_order();
    order_.pop_back();  // the Return node
    verbatim_ = g_.custom_bprop();  // its forward is copied as is: its own bprop replaces autodiff
    for (CNode* c : order_) forward(c);
    FuncGraph* gb = jt_.module().new_graph(g_.name() + "_B", &gj_);
    if (g_.custom_bprop()) custom_backward(*gb);
    else backward(*gb);
    ValueNode* bprop = gj_.add_value(IrValue{gb});
    bprop->set_abstract(function_abstract({gb}, {}));
    gj_.set_output(emit_make_tuple(gj_, {mapped(g_.output()), bprop}));
  }

 private:
  AnfNode* mapped(AnfNode* n) {
    auto it = fwd_.find(n);
    if (it != fwd_.end()) return it->second;
    SPROUT_ASSERT(n->kind() == NodeKind::Value, "J: node ", n->id(), " of @", g_.name(), " is a free variable; ",
                  "closure conversion must run first");
    IrValue v = static_cast<ValueNode*>(n)->value();
    if (FuncGraph* k = graph_constant(n); k && !verbatim_) v = IrValue{jt_.j(k)};  // called in their J form
    ValueNode* copy = gj_.add_value(std::move(v));
    copy->set_abstract(n->abstract());
    return fwd_[n] = copy;
  }

  bool depends(const CNode* c) const {
    for (size_t i = 1; i < c->inputs().size(); ++i)
      if (needs_.count(c->input(i))) return true;
    return !primitive_callee(c) && !c->callee_value();  // a dynamic call may close over parameters
  }

  // What `c` calls when it is to be recomputed in backward (Note [Recomputed cells in compiled code]): the
  // graph, and the values a Partial binds to its first parameters (captured Parameters).
  struct Recomputed {
    FuncGraph* graph = nullptr;
    std::vector<AnfNode*> bound;
  };
  static Recomputed recomputed_callee(const CNode* c) {
    const AnfNode* callee = c->input(0);
    while (callee->kind() == NodeKind::CNode && static_cast<const CNode*>(callee)->is_special(SpecialOp::Depend))
      callee = static_cast<const CNode*>(callee)->input(1);  // a call ordered after effects (it draws numbers)
    Recomputed r;
    if (callee->kind() == NodeKind::CNode && static_cast<const CNode*>(callee)->is_special(SpecialOp::Partial)) {
      const auto* p = static_cast<const CNode*>(callee);
      r.bound.assign(p->inputs().begin() + 2, p->inputs().end());
      callee = p->input(1);
    }
    r.graph = graph_constant(callee);
    FuncGraph* k = r.graph;
    if (!k || !k->recompute() || r.bound.size() + c->inputs().size() - 1 != k->parameters().size()) return {};
    for (const CNode* n : k->topological_order()) {
      const Primitive* p = primitive_callee(n);
      if ((p && p->def().side_effect && !p->def().random) || (!p && !n->callee_value()))
        return {};  // writes a Parameter, or calls a function value (which may)
    }
    return r;
  }

  void forward(CNode* c) {
    const IrValue* callee = c->callee_value();
    bool is_call = !callee || callee->as<FuncGraph*>();
    if (is_call && !verbatim_ && recomputed_callee(c).graph) {  // a plain call: nothing kept for backward
      std::vector<AnfNode*> inputs{plain_callee(c->input(0))};
      for (size_t i = 1; i < c->inputs().size(); ++i) inputs.push_back(mapped(c->input(i)));
      CNode* copy = gj_.add_cnode(std::move(inputs), c->debug());
      copy->set_abstract(c->abstract());
      fwd_[c] = copy;
      recomputed_.insert(c);
      if (depends(c)) needs_.insert(c);
      return;
    }
    if (is_call && !verbatim_) {
      // t = callee_J(args) = (out, bprop)
      std::vector<AnfNode*> inputs{call_target(c->input(0))};
      for (size_t i = 1; i < c->inputs().size(); ++i) inputs.push_back(mapped(c->input(i)));
      CNode* t = gj_.add_cnode(std::move(inputs), c->debug());
      t->set_abstract(tuple_abstract({c->abstract() ? c->abstract() : none_abstract(), fn_abstract()}));
      calls_[c] = t;
      fwd_[c] = emit_tuple_getitem(gj_, t, 0, c->debug());
      needs_.insert(c);
      return;
    }
    std::vector<AnfNode*> inputs;
    for (AnfNode* in : c->inputs()) inputs.push_back(mapped(in));
    CNode* copy = gj_.add_cnode(std::move(inputs), c->debug());
    copy->set_abstract(c->abstract());
    fwd_[c] = copy;
    if (depends(c)) needs_.insert(c);
  }

  // The callee of a call in its J form. Switch(c, f1, f2) gets branches binding the same values.
  AnfNode* call_target(AnfNode* callee) {
    if (callee->kind() == NodeKind::CNode && static_cast<CNode*>(callee)->is_special(SpecialOp::Depend)) {
      // Depend(f, after...): the call is ordered after side effects; keep the order, transform f.
      auto* dep = static_cast<CNode*>(callee);
      std::vector<AnfNode*> args{call_target(dep->input(1))};
      for (size_t i = 2; i < dep->inputs().size(); ++i) args.push_back(mapped(dep->input(i)));
      CNode* d = emit_special(gj_, SpecialOp::Depend, std::move(args), dep->debug());
      d->set_abstract(fn_abstract());
      return d;
    }
    if (callee->kind() == NodeKind::CNode && static_cast<CNode*>(callee)->is_special(SpecialOp::Switch)) {
      auto* sw = static_cast<CNode*>(callee);
      std::vector<AnfNode*> bound_union;
      for (size_t i = 2; i <= 3; ++i) {
        auto* f = sw->input(i);
        if (f->kind() == NodeKind::CNode && static_cast<CNode*>(f)->is_special(SpecialOp::Partial))
          for (size_t k = 2; k < static_cast<CNode*>(f)->inputs().size(); ++k) {
            AnfNode* b = static_cast<CNode*>(f)->input(k);
            if (std::find(bound_union.begin(), bound_union.end(), b) == bound_union.end()) bound_union.push_back(b);
          }
      }
      std::vector<AnfNode*> branches;
      for (size_t i = 2; i <= 3; ++i) branches.push_back(uniform_branch(sw->input(i), bound_union));
      std::vector<AnfNode*> bound;
      for (AnfNode* b : bound_union) bound.push_back(mapped(b));
      std::vector<AnfNode*> partials;
      for (AnfNode* br : branches) {
        std::vector<AnfNode*> args{br};
        args.insert(args.end(), bound.begin(), bound.end());
        CNode* p = emit_special(gj_, SpecialOp::Partial, std::move(args), sw->debug());
        p->set_abstract(fn_abstract());
        partials.push_back(p);
      }
      CNode* s = emit_special(gj_, SpecialOp::Switch, {mapped(sw->input(1)), partials[0], partials[1]}, sw->debug());
      s->set_abstract(fn_abstract());
      switch_bound_[callee] = bound_union;
      return s;
    }
    if (callee->kind() == NodeKind::CNode && static_cast<CNode*>(callee)->is_special(SpecialOp::Partial)) {
      auto* p = static_cast<CNode*>(callee);
      std::vector<AnfNode*> args;
      for (size_t k = 1; k < p->inputs().size(); ++k) args.push_back(mapped(p->input(k)));
      CNode* q = emit_special(gj_, SpecialOp::Partial, std::move(args), p->debug());
      q->set_abstract(fn_abstract());
      return q;
    }
    if (graph_constant(callee)) return mapped(callee);
    throw TypeError(str("graph mode: cannot differentiate a call of a function computed at run time in @", g_.name(),
                        " (a function value that is neither a known function nor a branch of an if); call the "
                        "function directly"));
  }

  // A graph value K_J(u..., args...) for a branch that binds some of `bound` (Partial(K, b...)) or none:
  // it calls K_J with its own bound values and returns a bprop giving gradients for all of `bound`.
  AnfNode* uniform_branch(AnfNode* branch, const std::vector<AnfNode*>& bound) {
    FuncGraph* k = nullptr;
    std::vector<AnfNode*> own;
    if (auto* g = graph_constant(branch)) {
      k = g;
    } else {
      SPROUT_CHECK(branch->kind() == NodeKind::CNode && static_cast<CNode*>(branch)->is_special(SpecialOp::Partial) &&
                       graph_constant(static_cast<CNode*>(branch)->input(1)),
                   TypeError, "graph mode: cannot differentiate through a branch that is not a function of the program");
      auto* p = static_cast<CNode*>(branch);
      k = graph_constant(p->input(1));
      own.assign(p->inputs().begin() + 2, p->inputs().end());
    }
    FuncGraph* kj = jt_.j(k);
    size_t n_args = k->parameters().size() - own.size();
    // W(u..., args...) = let (out, b) = K_J(own(u)..., args...) in (out, WB) ; WB(d) = spread(b(d))
    FuncGraph* w = jt_.module().new_graph(k->name() + "_branch");
    std::vector<ParameterNode*> u, args;
    for (AnfNode* b : bound) {
      u.push_back(w->add_parameter("u"));
      u.back()->set_abstract(b->abstract());
    }
    for (size_t i = 0; i < n_args; ++i) {
      args.push_back(w->add_parameter("a"));
      args.back()->set_abstract(k->parameters()[own.size() + i]->abstract());
    }
    std::vector<AnfNode*> call_in{w->add_value(IrValue{kj})};
    std::vector<size_t> own_index;
    for (AnfNode* o : own) {
      size_t idx = static_cast<size_t>(std::find(bound.begin(), bound.end(), o) - bound.begin());
      own_index.push_back(idx);
      call_in.push_back(u[idx]);
    }
    call_in.insert(call_in.end(), args.begin(), args.end());
    CNode* t = w->add_cnode(std::move(call_in));
    t->set_abstract(tuple_abstract({k->output() ? k->output()->abstract() : none_abstract(), fn_abstract()}));
    FuncGraph* wb = jt_.module().new_graph(k->name() + "_branch_B", w);
    ParameterNode* d = wb->add_parameter("dout");
    CNode* grads = wb->add_cnode({emit_tuple_getitem(*w, t, 1), d});
    std::vector<AbstractPtr> param_abs;
    for (ParameterNode* p : k->parameters()) param_abs.push_back(p->abstract());
    grads->set_abstract(tuple_abstract(param_abs));
    std::vector<AnfNode*> spread(bound.size() + n_args, nullptr);
    for (size_t i = 0; i < own.size(); ++i) {
      AnfNode* gi = emit_tuple_getitem(*wb, grads, static_cast<int64_t>(i));
      spread[own_index[i]] = spread[own_index[i]] ? add(*wb, spread[own_index[i]], gi) : gi;
    }
    for (size_t i = 0; i < n_args; ++i) spread[bound.size() + i] = emit_tuple_getitem(*wb, grads, static_cast<int64_t>(own.size() + i));
    for (size_t i = 0; i < bound.size(); ++i)
      if (!spread[i]) spread[i] = zeros_like(*wb, u[i]);
    wb->set_output(emit_make_tuple(*wb, spread));
    ValueNode* wbv = w->add_value(IrValue{wb});
    wbv->set_abstract(fn_abstract());
    w->set_output(emit_make_tuple(*w, {emit_tuple_getitem(*w, t, 0), wbv}));
    ValueNode* wv = gj_.add_value(IrValue{w});
    wv->set_abstract(fn_abstract());
    return wv;
  }

  static AnfNode* add(FuncGraph& g, AnfNode* a, AnfNode* b) {
    if (a->abstract() && a->abstract()->as<AbstractSequence>()) {
      const auto* seq = a->abstract()->as<AbstractSequence>();
      std::vector<AnfNode*> items;
      for (size_t i = 0; i < seq->elements.size(); ++i)
        items.push_back(add(g, emit_tuple_getitem(g, a, static_cast<int64_t>(i)),
                            emit_tuple_getitem(g, b, static_cast<int64_t>(i))));
      return emit_make_tuple(g, std::move(items));
    }
    if (!a->abstract() || !a->abstract()->is_tensor()) return a;
    static const Primitive add_op = Primitive::make("Add");
    AnfNode* in[2] = {a, b};
    return emit_primitive(g, add_op, in)[0];
  }

  // --- the backward graph ---------------------------------------------------------------------------
  void accumulate(FuncGraph& gb, AnfNode* fwd_node, AnfNode* grad) {
    if (!grad || !needs_.count(fwd_node)) return;
    auto it = sens_.find(fwd_node);
    sens_[fwd_node] = it == sens_.end() ? grad : add(gb, it->second, grad);
  }

  // The sensitivity of a tuple-valued node: per element (nullptr: zero).
  std::vector<AnfNode*>& tuple_sens(AnfNode* n) {
    auto& v = tuple_sens_[n];
    const AbstractSequence* seq = n->abstract() ? n->abstract()->as<AbstractSequence>() : nullptr;
    if (seq && v.size() < seq->elements.size()) v.resize(seq->elements.size(), nullptr);
    return v;
  }

  // The whole sensitivity of `n` as one value of gb (zeros where none arrived).
  AnfNode* sens_of(FuncGraph& gb, AnfNode* n) {
    const AbstractSequence* seq = n->abstract() ? n->abstract()->as<AbstractSequence>() : nullptr;
    if (seq) {
      auto it = sens_.find(n);
      std::vector<AnfNode*> items = tuple_sens(n);
      for (size_t i = 0; i < items.size(); ++i) {
        AnfNode* whole = it != sens_.end() ? emit_tuple_getitem(gb, it->second, static_cast<int64_t>(i)) : nullptr;
        if (!items[i]) items[i] = whole ? whole : zeros_like(gb, emit_tuple_getitem(gb, fwd_.at(n), static_cast<int64_t>(i)));
        else if (whole) items[i] = add(gb, items[i], whole);
      }
      return emit_make_tuple(gb, std::move(items));
    }
    auto it = sens_.find(n);
    if (it != sens_.end()) return it->second;
    return zeros_like(gb, fwd_.at(n));
  }

  bool has_sens(AnfNode* n) {
    if (sens_.count(n)) return true;
    auto it = tuple_sens_.find(n);
    if (it == tuple_sens_.end()) return false;
    for (AnfNode* x : it->second)
      if (x) return true;
    return false;
  }

  void backward(FuncGraph& gb) {
    ParameterNode* dout = gb.add_parameter("dout");
    dout->set_abstract(g_.output()->abstract());
    sens_[g_.output()] = dout;
    needs_.insert(g_.output());
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      CNode* c = *it;
      if (!needs_.count(c) || !has_sens(c)) continue;
      AnfNode* d = sens_of(gb, c);
      if (recomputed_.count(c)) {
        backward_recomputed(gb, c, d);
        continue;
      }
      if (calls_.count(c)) {
        backward_call(gb, c, d);
        continue;
      }
      if (c->is_special(SpecialOp::MakeTuple)) {
        for (size_t i = 1; i < c->inputs().size(); ++i)
          accumulate(gb, c->input(i), emit_tuple_getitem(gb, d, static_cast<int64_t>(i - 1)));
      } else if (c->is_special(SpecialOp::TupleGetItem)) {
        AnfNode* t = c->input(1);
        const int64_t* idx = static_cast<ValueNode*>(c->input(2))->value().as<int64_t>();
        if (needs_.count(t)) {
          auto& slot = tuple_sens(t).at(static_cast<size_t>(*idx));
          slot = slot ? add(gb, slot, d) : d;
        }
      } else if (c->is_special(SpecialOp::Depend)) {
        accumulate(gb, c->input(1), d);
      } else if (const Primitive* p = primitive_callee(c)) {
        backward_primitive(gb, *p, c, d);
      }
    }
    std::vector<AnfNode*> grads;
    for (ParameterNode* p : g_.parameters()) grads.push_back(has_sens(p) ? sens_of(gb, p) : zeros_like(gb, fwd_.at(p)));
    gb.set_output(emit_make_tuple(gb, std::move(grads)));
  }

  // The Cell's own bprop: the output is Depend(result, bprop closure); the closure takes the result's
  // sensitivities and returns one gradient per input of construct (the last parameters of the graph).
  void custom_backward(FuncGraph& gb) {
    auto* dep = static_cast<CNode*>(g_.output());
    SPROUT_ASSERT(dep->kind() == NodeKind::CNode && dep->is_special(SpecialOp::Depend) && dep->inputs().size() == 3,
                  "custom bprop graph @", g_.name(), " must end with Depend(result, bprop)");
    ParameterNode* dout = gb.add_parameter("dout");
    dout->set_abstract(dep->input(1)->abstract());
    const AbstractSequence* leaves = dep->input(1)->abstract()->as<AbstractSequence>();
    std::vector<AnfNode*> call{fwd_.at(dep->input(2))};
    for (size_t i = 0; i < leaves->elements.size(); ++i) call.push_back(emit_tuple_getitem(gb, dout, static_cast<int64_t>(i)));
    CNode* r = gb.add_cnode(std::move(call), dep->debug());
    size_t n_params = g_.parameters().size();
    std::vector<AnfNode*> grads;
    // The bprop returns a tuple with one gradient per tensor input; the leading parameters are
    // captured values (Parameters), which get zeros: a custom bprop defines input gradients only.
    const FuncGraph* bprop_graph = nullptr;
    if (dep->input(2)->kind() == NodeKind::CNode && static_cast<CNode*>(dep->input(2))->is_special(SpecialOp::Partial))
      bprop_graph = graph_constant(static_cast<CNode*>(dep->input(2))->input(1));
    else
      bprop_graph = graph_constant(dep->input(2));
    SPROUT_ASSERT(bprop_graph && bprop_graph->output(), "custom bprop of @", g_.name(), " is not a known graph");
    const AbstractSequence* out = bprop_graph->output()->abstract()->as<AbstractSequence>();
    size_t n_grads = out->elements.size();
    SPROUT_CHECK(n_grads <= n_params, ValueError, "graph mode: the bprop of ", g_.name(), " returns ", n_grads,
                 " gradients for ", n_params, " inputs");
    std::vector<AbstractPtr> abs(out->elements.begin(), out->elements.end());
    r->set_abstract(tuple_abstract(abs));
    for (size_t i = 0; i < n_params - n_grads; ++i) grads.push_back(zeros_like(gb, fwd_.at(g_.parameters()[i])));
    for (size_t i = 0; i < n_grads; ++i) grads.push_back(emit_tuple_getitem(gb, r, static_cast<int64_t>(i)));
    gb.set_output(emit_make_tuple(gb, std::move(grads)));
  }

  void backward_primitive(FuncGraph& gb, const Primitive& p, CNode* c, AnfNode* d) {
    const OpDef& def = p.def();
    SPROUT_CHECK(def.bprop, TypeError, "graph mode: ", def.name, " has no gradient (no bprop rule is registered)",
                 c->debug().file.empty() ? "" : str(" at ", c->debug().file, ":", c->debug().line));
    GraphEmitter e(gb, c->debug());
    std::vector<Emitter::Value> in, out, dout;
    for (size_t i = 1; i < c->inputs().size(); ++i) in.push_back(e.wrap(mapped(c->input(i))));
    const AbstractSequence* seq = c->abstract() ? c->abstract()->as<AbstractSequence>() : nullptr;
    if (seq) {
      for (size_t i = 0; i < seq->elements.size(); ++i) {
        out.push_back(e.wrap(emit_tuple_getitem(gb, fwd_.at(c), static_cast<int64_t>(i))));
        dout.push_back(e.wrap(emit_tuple_getitem(gb, d, static_cast<int64_t>(i))));
      }
    } else {
      out.push_back(e.wrap(fwd_.at(c)));
      dout.push_back(e.wrap(d));
    }
    std::vector<Emitter::Value> grads = def.bprop(e, BpropArgs{p, in, out, dout});
    for (size_t i = 0; i < grads.size() && i + 1 < c->inputs().size(); ++i)
      if (grads[i].valid()) accumulate(gb, c->input(i + 1), e.node(grads[i]));
  }

  // A recomputed call's callee in the forward graph: the graph itself (not its J form), still ordered after
  // the effects its Depend names.
  AnfNode* plain_callee(AnfNode* callee) {
    const bool depend = callee->kind() == NodeKind::CNode && static_cast<CNode*>(callee)->is_special(SpecialOp::Depend);
    const bool partial = callee->kind() == NodeKind::CNode && static_cast<CNode*>(callee)->is_special(SpecialOp::Partial);
    if (depend || partial) {  // Depend(f, after...) or Partial(f, bound...): the same around the plain f
      auto* c = static_cast<CNode*>(callee);
      std::vector<AnfNode*> args{plain_callee(c->input(1))};
      for (size_t i = 2; i < c->inputs().size(); ++i) args.push_back(mapped(c->input(i)));
      CNode* d = emit_special(gj_, depend ? SpecialOp::Depend : SpecialOp::Partial, std::move(args), c->debug());
      d->set_abstract(callee->abstract());
      return d;
    }
    ValueNode* v = gj_.add_value(IrValue{graph_constant(callee)});
    v->set_abstract(callee->abstract());
    return v;
  }

  // The callee's J form called again in backward, on its arguments made to wait for `d`.
  void backward_recomputed(FuncGraph& gb, CNode* c, AnfNode* d) {
    Recomputed r = recomputed_callee(c);
    std::vector<AnfNode*> targets = r.bound;  // the values of the callee's parameters, in order
    targets.insert(targets.end(), c->inputs().begin() + 1, c->inputs().end());
    std::vector<AnfNode*> call{gb.add_value(IrValue{jt_.j(r.graph)})};
    call[0]->set_abstract(fn_abstract());
    std::vector<AbstractPtr> abs;
    for (AnfNode* x : targets) {
      AnfNode* arg = mapped(x);
      CNode* waits = emit_special(gb, SpecialOp::Depend, {arg, d}, c->debug());
      waits->set_abstract(arg->abstract());
      call.push_back(waits);
      abs.push_back(x->abstract() ? x->abstract() : none_abstract());
    }
    CNode* t = gb.add_cnode(std::move(call), c->debug());
    t->set_abstract(tuple_abstract({c->abstract() ? c->abstract() : none_abstract(), fn_abstract()}));
    CNode* grads = gb.add_cnode({emit_tuple_getitem(gb, t, 1), d}, c->debug());
    grads->set_abstract(tuple_abstract(abs));
    for (size_t i = 0; i < targets.size(); ++i)
      if (needs_.count(targets[i])) accumulate(gb, targets[i], emit_tuple_getitem(gb, grads, static_cast<int64_t>(i)));
  }

  void backward_call(FuncGraph& gb, CNode* c, AnfNode* d) {
    CNode* t = calls_.at(c);
    AnfNode* bprop = emit_tuple_getitem(gb, t, 1);
    CNode* grads = gb.add_cnode({bprop, d}, c->debug());
    // The gradients: of the values bound by the callee (a Partial, or the union for a Switch), then of the args.
    std::vector<AnfNode*> targets;
    AnfNode* callee = c->input(0);
    while (callee->kind() == NodeKind::CNode && static_cast<CNode*>(callee)->is_special(SpecialOp::Depend))
      callee = static_cast<CNode*>(callee)->input(1);
    if (auto it = switch_bound_.find(callee); it != switch_bound_.end()) {
      targets = it->second;
    } else if (callee->kind() == NodeKind::CNode && static_cast<CNode*>(callee)->is_special(SpecialOp::Partial)) {
      auto* p = static_cast<CNode*>(callee);
      targets.assign(p->inputs().begin() + 2, p->inputs().end());
    }
    targets.insert(targets.end(), c->inputs().begin() + 1, c->inputs().end());
    std::vector<AbstractPtr> abs;
    for (AnfNode* x : targets) abs.push_back(x->abstract() ? x->abstract() : none_abstract());
    grads->set_abstract(tuple_abstract(abs));
    for (size_t i = 0; i < targets.size(); ++i)
      if (needs_.count(targets[i])) accumulate(gb, targets[i], emit_tuple_getitem(gb, grads, static_cast<int64_t>(i)));
  }

  JTransform& jt_;
  FuncGraph& g_;
  FuncGraph& gj_;
  std::vector<CNode*> order_;
  bool verbatim_ = false;
  std::map<AnfNode*, AnfNode*> fwd_;        // node of G -> its forward value in G_J
  std::set<AnfNode*> needs_;                // nodes of G that depend on a parameter
  std::map<CNode*, CNode*> calls_;          // call node of G -> (out, bprop) node in G_J
  std::set<CNode*> recomputed_;             // calls of G whose callee is recomputed in G_B
  std::map<AnfNode*, std::vector<AnfNode*>> switch_bound_;
  std::map<AnfNode*, AnfNode*> sens_;       // node of G -> its accumulated sensitivity (a node of G_B)
  std::map<AnfNode*, std::vector<AnfNode*>> tuple_sens_;
};

void JTransform::transform(FuncGraph& g, FuncGraph& gj) { GraphJ(*this, g, gj).run(); }

bool reaches_j(FuncGraph& g) {
  for (FuncGraph* k : reachable_graphs(g))
    for (const CNode* c : k->topological_order())
      if (c->is_special(SpecialOp::J)) return true;
  return false;
}

// Expands one J node whose target has no J inside; returns false when none is left.
bool expand_one(FuncGraph& entry) {
  for (FuncGraph* g : reachable_graphs(entry)) {
    for (CNode* c : g->topological_order()) {
      if (!c->is_special(SpecialOp::J)) continue;
      AnfNode* target = c->input(1);
      FuncGraph* k = graph_constant(target);
      std::vector<AnfNode*> bound;
      if (!k && target->kind() == NodeKind::CNode && static_cast<CNode*>(target)->is_special(SpecialOp::Partial)) {
        auto* p = static_cast<CNode*>(target);
        k = graph_constant(p->input(1));
        bound.assign(p->inputs().begin() + 2, p->inputs().end());
      }
      SPROUT_CHECK(k, TypeError, "graph mode: the function to differentiate must be known at compile time");
      if (reaches_j(*k)) continue;  // inner J nodes first
      // The target as flat as it gets: inner gradients inlined, partial calls made direct.
      for (size_t changed = 1; changed;) changed = simplify(*k) + inline_calls(*k);
      FuncGraph* kj = JTransform(*entry.module()).j(k);
      AnfNode* replacement;
      if (bound.empty()) {
        ValueNode* v = g->add_value(IrValue{kj});
        v->set_abstract(fn_abstract());
        replacement = v;
      } else {
        replacement = bind_dropping_gradients(*g, kj, k, bound);
      }
      g->replace_all_uses(c, replacement);
      return true;
    }
  }
  return false;
}

}  // namespace

// J(Partial(K, b...)) = Partial(A, b...) with A(b..., x...) = let (o, bp) = K_J(b..., x...) in
// (o, d -> bp(d)[len(b):]): the caller asked for gradients of its own arguments only.
AnfNode* bind_dropping_gradients(FuncGraph& g, FuncGraph* kj, FuncGraph* k, const std::vector<AnfNode*>& bound) {
  Module& m = *g.module();
  FuncGraph* a = m.new_graph(k->name() + "_J_bound");
  std::vector<AnfNode*> call{a->add_value(IrValue{kj})};
  for (ParameterNode* p : k->parameters()) {
    ParameterNode* q = a->add_parameter(p->name());
    q->set_abstract(p->abstract());
    call.push_back(q);
  }
  CNode* t = a->add_cnode(std::move(call));
  t->set_abstract(tuple_abstract({k->output()->abstract(), fn_abstract()}));
  FuncGraph* ab = m.new_graph(k->name() + "_J_bound_B", a);
  ParameterNode* d = ab->add_parameter("dout");
  CNode* grads = ab->add_cnode({emit_tuple_getitem(*a, t, 1), d});
  std::vector<AbstractPtr> abs;
  for (ParameterNode* p : k->parameters()) abs.push_back(p->abstract());
  grads->set_abstract(tuple_abstract(abs));
  std::vector<AnfNode*> kept;
  for (size_t i = bound.size(); i < k->parameters().size(); ++i)
    kept.push_back(emit_tuple_getitem(*ab, grads, static_cast<int64_t>(i)));
  ab->set_output(emit_make_tuple(*ab, kept));
  ValueNode* abv = a->add_value(IrValue{ab});
  abv->set_abstract(fn_abstract());
  a->set_output(emit_make_tuple(*a, {emit_tuple_getitem(*a, t, 0), abv}));
  std::vector<AnfNode*> args{g.add_value(IrValue{a})};
  args.insert(args.end(), bound.begin(), bound.end());
  CNode* p = emit_special(g, SpecialOp::Partial, std::move(args));
  p->set_abstract(fn_abstract());
  return p;
}

size_t expand_grad(FuncGraph& entry) {
  size_t changes = 0;
  // After each expansion the new bprop graphs (closures over forward values) are lifted, so an outer
  // J sees closed graphs only.
  while (expand_one(entry)) {
    closure_convert(entry);
    ++changes;
  }
  // The recompute marks have done their work: later passes inline those graphs like any other.
  for (FuncGraph* g : reachable_graphs(entry)) g->set_recompute(false);
  return changes;
}

}  // namespace sprout::compiler
