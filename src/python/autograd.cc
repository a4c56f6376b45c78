// Eager autodiff from Python: grad scopes, tracking, backward (Note [Eager autodiff]).
// The user-facing APIs (ms.grad, value_and_grad, GradOperation, vjp, jvp) are built on these in
// python/sprout/ops/composite/grad.py.
#include <nanobind/stl/vector.h>

#include <memory>

#include "python/bindings.h"
#include "runtime/autograd/backward.h"
#include "runtime/autograd/graph.h"

namespace sprout::py {
namespace {

// A context manager around an RAII guard (enter creates it, exit destroys it).
template <class Guard>
struct PyGuard {
  std::unique_ptr<Guard> guard;
};

template <class Guard>
void bind_guard(nb::module_& m, const char* name, const char* doc) {
  nb::class_<PyGuard<Guard>>(m, name, doc)
      .def(nb::init<>())
      .def("__enter__", [](PyGuard<Guard>& g) { g.guard = std::make_unique<Guard>(); })
      .def("__exit__", [](PyGuard<Guard>& g, nb::args) { g.guard.reset(); });
}

struct SavedAutograd {
  std::shared_ptr<AutogradMeta> meta;
};

// What Tensor.register_hook returns: removes the hook from its node (a no-op once the node is gone).
struct GradHookHandle {
  std::weak_ptr<GradNode> node;
  uint64_t id = 0;
  void remove() {
    if (auto n = node.lock()) remove_grad_hook(*n, id);
  }
};

}  // namespace

void bind_autograd(nb::module_& m) {
  bind_guard<GradScope>(m, "GradScope", "Records eager ops on tracked tensors while open.");
  bind_guard<NoGradGuard>(m, "NoGrad", "Pauses recording while open.");
  nb::class_<SavedAutograd>(m, "SavedAutograd");
  m.def("is_recording", &is_recording);
  m.def("track", &track, "A tracked alias of the tensor (same memory) to take a gradient with respect to.");
  m.def("track_inplace", [](nb::handle obj) {
    // Parameters are read by the function through their Python object: track that object itself.
    Tensor& t = nb::cast<Tensor&>(obj);
    SavedAutograd saved{t.autograd()};
    t.assign_view(track(t));
    return saved;
  });
  m.def("restore_autograd", [](nb::handle obj, const SavedAutograd& saved) {
    nb::cast<Tensor&>(obj).set_autograd(saved.meta);
  });
  m.def("detach", &Tensor::detached, "The same tensor without autodiff bookkeeping (stop_gradient).");
  m.def("is_tracked", [](const Tensor& t) { return static_cast<bool>(t.autograd()); });
  m.def("write_tracked", [](nb::handle obj, const Tensor& value) {
    // An in-place write that carries a gradient (Tensor.__setitem__ in a grad scope): the tensor takes
    // value's bytes, in its own memory so that views see them, and value's place in the graph.
    Tensor& t = nb::cast<Tensor&>(obj);
    SPROUT_CHECK(!(t.autograd() && t.autograd()->edge.node->target), RuntimeError,
                 "Tensor index assignment: cannot write in place into a tensor the gradient is taken with respect to "
                 "(a grad input or weight); write into a copy: t = t.copy(), then t[...] = value");
    t.copy_from(value);
    t.bump_version();  // Note [In-place writes and saved values]
    t.set_autograd(value.autograd());
  });
  nb::class_<GradHookHandle>(m, "GradHookHandle")
      .def("remove", &GradHookHandle::remove)
      .def("alive", [](const GradHookHandle& h) { return !h.node.expired(); });
  m.def("add_grad_hook", [](const Tensor& t, nb::callable fn) {
    // Note [Gradient hooks]. fn(grad) -> Tensor or None (keep the gradient).
    SPROUT_CHECK(t.autograd(), RuntimeError, "add_grad_hook: the tensor is not tracked");
    GradHook hook = [fn](const Tensor& grad) {
      nb::object result = fn(wrap(grad));
      if (result.is_none()) return Tensor();
      SPROUT_CHECK(is_tensor_object(result), TypeError, "Tensor.register_hook: the hook must return a Tensor or None, ",
                   "but returned ", Py_TYPE(result.ptr())->tp_name);
      return *tensor_of(result);
    };
    const uint64_t id = add_grad_hook(t, std::move(hook));
    return GradHookHandle{t.autograd()->edge.node, id};
  }, "Runs fn on the tensor's summed gradient during backward; returns a handle with remove().");
  m.def("record_custom", [](nb::callable backward_fn, std::vector<Tensor> inputs, std::vector<Tensor> outputs) {
    // A node whose backward is a Python callable: douts (tuple of Tensors) -> input gradients
    // (a tuple with one Tensor or None per input). Used for Cell.bprop overrides.
    size_t n_inputs = inputs.size();
    CustomBackward fn = [backward_fn, n_inputs](std::span<const Tensor> douts) {
      nb::list py_douts;
      for (const Tensor& d : douts) py_douts.append(wrap(d));
      nb::object result = backward_fn(nb::tuple(py_douts));
      std::vector<Tensor> grads;
      for (nb::handle g : result) grads.push_back(g.is_none() ? Tensor() : nb::cast<Tensor>(g));
      SPROUT_CHECK(grads.size() == n_inputs, ValueError, "bprop: must return one gradient per input (", n_inputs,
                   "), but returned ", grads.size());
      return grads;
    };
    record_custom(std::move(fn), inputs, outputs);
    return outputs;
  }, "Records a node with a Python backward; returns the outputs, now tracked.");
  m.def("backward", [](std::vector<Tensor> roots, std::vector<Tensor> sens, std::vector<Tensor> targets) {
    return backward(roots, sens, targets);
  });
}

}  // namespace sprout::py
