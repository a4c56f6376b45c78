// Note [Print]
// Print(format)(tensors...) writes the format with each "{}" replaced by a tensor, in program order:
// it is a side-effect op, so graph mode keeps it where the source put it (Note [Side effects in graph
// mode]). Strings and other constants of a print(...) call are folded into the format at compile
// time; only tensors are inputs. The output is a 0-d Int32 zero (a value to order things after).
#include "ops/debug_print.h"

#include <iostream>
#include <mutex>

#include "ops/infer_util.h"
#include "ops/op_def.h"

namespace sprout {

constexpr auto PrintAttrs::fields() {
  return std::tuple{attr("format", &PrintAttrs::format, "The text, with {} where each tensor goes.")};
}

namespace {

PrintSink& sink() {
  static PrintSink s;
  return s;
}

std::vector<TensorSpec> infer_print(const OpDef&, const PrintAttrs&, std::span<const TensorSpec>) {
  return {TensorSpec{DType::Int32, {}}};
}

}  // namespace

void set_print_sink(PrintSink s) { sink() = std::move(s); }

void print_tensors(const std::string& format, std::span<const Tensor> tensors) {
  if (sink()) return sink()(format, tensors);
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  std::string text = format;
  for (const Tensor& t : tensors) {
    std::string rendered = "Tensor" + shape_str(t.shape()) + "[";
    for (int64_t i = 0; i < t.numel(); ++i) rendered += (i ? ", " : "") + std::to_string(t.contiguous().element_as_double(i));
    rendered += "]";
    size_t at = text.find("{}");
    text = at == std::string::npos ? text + (text.empty() ? "" : " ") + rendered : text.replace(at, 2, rendered);
  }
  std::cout << text << std::endl;
}

SPROUT_REGISTER(debug_print) {
  define_op<PrintAttrs>("Print")
      .side_effect()
      .doc("Prints its format with each {} replaced by an input tensor, in program order; returns 0 (Int32).")
      .variadic()
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_print)
      .bprop([](Emitter&, const BpropArgs& a) { return std::vector<Emitter::Value>(a.inputs.size()); });
}

}  // namespace sprout
