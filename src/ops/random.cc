// Random ops (Note [Random ops]): StandardNormal, UniformReal, UniformInt, Bernoulli, Multinomial,
// RandomCategorical, Randperm, RandomShuffle. None is differentiable: the draws do not depend smoothly
// on any input (RandomShuffle's output does, but MindSpore gives it no gradient either).
#include "ops/infer_util.h"
#include "ops/random.h"

namespace sprout {
namespace {

using V = Emitter::Value;

void check_seeds(const OpDef& op, int64_t seed, int64_t seed2) {
  SPROUT_CHECK(seed >= 0 && seed2 >= 0, ValueError, op.name, ": 'seed' and 'seed2' must be non-negative, but got ",
               seed, " and ", seed2);
}

std::vector<TensorSpec> infer_random_shape(const OpDef& op, const RandomShapeAttrs& a, std::span<const TensorSpec>) {
  check_seeds(op, a.seed, a.seed2);
  check_shape(op.name, "shape", a.shape);
  return {TensorSpec{DType::Float32, Shape(a.shape)}};
}

std::vector<TensorSpec> infer_uniform_int(const OpDef& op, const UniformIntAttrs& a, std::span<const TensorSpec> in) {
  check_seeds(op, a.seed, a.seed2);
  check_shape(op.name, "shape", a.shape);
  for (size_t i = 0; i < 2; ++i) {
    SPROUT_CHECK(in[i].dtype == DType::Int32 || in[i].dtype == DType::Int64, TypeError, op.name, ": '", op.inputs[i],
                 "' must be an Int32 or Int64 tensor (or an int), but got ", spec_str(in[i]));
    SPROUT_CHECK(in[i].shape.empty(), ValueError, op.name, ": '", op.inputs[i], "' must be a 0-d tensor (a scalar), "
                 "but got shape ", shape_str(in[i].shape));
  }
  return {TensorSpec{DType::Int32, Shape(a.shape)}};
}

std::vector<TensorSpec> infer_bernoulli(const OpDef& op, const BernoulliAttrs& a, std::span<const TensorSpec> in) {
  SPROUT_CHECK(a.seed >= -1, ValueError, op.name, ": 'seed' must be -1 (random) or non-negative, but got ", a.seed);
  SPROUT_CHECK(a.offset >= 0, ValueError, op.name, ": 'offset' must be non-negative, but got ", a.offset);
  check_not_bool(op, 0, in[0]);
  check_floating(op, 1, in[1]);
  const Shape joined = broadcast_shapes(op.name, in[0].shape, in[1].shape);
  SPROUT_CHECK(joined == in[0].shape, ValueError, op.name, ": 'p' must broadcast to the shape of 'x' ",
               shape_str(in[0].shape), ", but got shape ", shape_str(in[1].shape));
  return {in[0]};
}

// Multinomial and RandomCategorical: rows of weights (1-d: one row) -> (rows, samples) indices.
Shape sample_shape(const OpDef& op, const TensorSpec& x, int64_t samples, const char* samples_name) {
  check_floating(op, 0, x);
  SPROUT_CHECK(x.shape.size() == 1 || x.shape.size() == 2, ValueError, op.name, ": '", op.inputs[0],
               "' must be 1-d or 2-d, but got shape ", shape_str(x.shape));
  SPROUT_CHECK(x.shape.back() > 0, ValueError, op.name, ": '", op.inputs[0], "' must have at least one category, ",
               "but got shape ", shape_str(x.shape));
  SPROUT_CHECK(samples > 0, ValueError, op.name, ": '", samples_name, "' must be positive, but got ", samples);
  return x.shape.size() == 1 ? Shape{samples} : Shape{x.shape[0], samples};
}

std::vector<TensorSpec> infer_multinomial(const OpDef& op, const MultinomialAttrs& a, std::span<const TensorSpec> in) {
  check_seeds(op, a.seed, a.seed2);
  SPROUT_CHECK(a.dtype == DType::Int32 || a.dtype == DType::Int64, TypeError, op.name,
               ": 'dtype' must be Int32 or Int64, but got ", name(a.dtype));
  return {TensorSpec{a.dtype, sample_shape(op, in[0], a.num_samples, "num_samples")}};
}

std::vector<TensorSpec> infer_categorical(const OpDef& op, const RandomCategoricalAttrs& a,
                                          std::span<const TensorSpec> in) {
  SPROUT_CHECK(a.seed >= 0, ValueError, op.name, ": 'seed' must be non-negative, but got ", a.seed);
  SPROUT_CHECK(a.dtype == DType::Int16 || a.dtype == DType::Int32 || a.dtype == DType::Int64, TypeError, op.name,
               ": 'dtype' must be Int16, Int32 or Int64, but got ", name(a.dtype));
  SPROUT_CHECK(in[0].shape.size() == 2, ValueError, op.name, ": 'logits' must be 2-d (batch, classes), but got shape ",
               shape_str(in[0].shape));
  return {TensorSpec{a.dtype, sample_shape(op, in[0], a.num_sample, "num_sample")}};
}

std::vector<TensorSpec> infer_randperm(const OpDef& op, const RandpermAttrs& a, std::span<const TensorSpec> in) {
  check_seeds(op, a.seed, a.seed2);
  SPROUT_CHECK(is_integral(a.dtype), TypeError, op.name,
               ": 'dtype' must be an integer dtype, but got ", name(a.dtype));
  SPROUT_CHECK(a.max_length >= 1, ValueError, op.name, ": 'max_length' must be positive, but got ", a.max_length);
  SPROUT_CHECK(is_integral(in[0].dtype) && numel(in[0].shape) == 1, TypeError, op.name,
               ": 'n' must be an integer tensor of one element, but got ", spec_str(in[0]));
  return {TensorSpec{a.dtype, Shape{a.max_length}}};
}

std::vector<TensorSpec> infer_shuffle(const OpDef& op, const RandomShuffleAttrs& a, std::span<const TensorSpec> in) {
  check_seeds(op, a.seed, a.seed2);
  return {in[0]};
}

BpropFn no_gradient() {
  return [](Emitter&, const BpropArgs& args) { return std::vector<V>(args.inputs.size()); };
}

}  // namespace

SPROUT_REGISTER(random) {
  define_op<RandomShapeAttrs>("StandardNormal")
      .random()
      .doc("Float32 samples of N(0, 1): StandardNormal(seed, seed2)(shape).")
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_random_shape)
      .bprop(no_gradient());
  define_op<RandomShapeAttrs>("UniformReal")
      .random()
      .doc("Float32 samples uniform in [0, 1): UniformReal(seed, seed2)(shape).")
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_random_shape)
      .bprop(no_gradient());
  define_op<UniformIntAttrs>("UniformInt")
      .random()
      .doc("Int32 samples uniform in [minval, maxval): UniformInt(seed, seed2)(shape, minval, maxval), the bounds "
           "0-d Int32/Int64 tensors or ints.")
      .inputs({"minval", "maxval"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_uniform_int)
      .bprop(no_gradient());
  define_op<BernoulliAttrs>("Bernoulli")
      .random()
      .doc("1 with probability p, else 0, in the dtype and shape of 'x' (p broadcasts to x).")
      .inputs({"x", "p"})
      .outputs({"y"})
      .non_differentiable({true})
      .infer(infer_bernoulli)
      .bprop(no_gradient());
  define_op<MultinomialAttrs>("Multinomial")
      .random()
      .doc("Indices drawn with replacement, each row of 'x' weighting its categories (non-negative, any sum).")
      .inputs({"x"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_multinomial)
      .bprop(no_gradient());
  define_op<RandomCategoricalAttrs>("RandomCategorical")
      .random()
      .doc("Indices drawn from the categorical distribution softmax(logits) of each row.")
      .inputs({"logits"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_categorical)
      .bprop(no_gradient());
  define_op<RandpermAttrs>("Randperm")
      .random()
      .doc("A random permutation of 0 .. n - 1, padded with 'pad' to 'max_length': Randperm(max_length)(n).")
      .inputs({"n"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_randperm)
      .bprop(no_gradient());
  define_op<RandomShuffleAttrs>("RandomShuffle")
      .random()
      .doc("The slices of 'x' along axis 0 in a random order.")
      .inputs({"x"})
      .outputs({"output"})
      .non_differentiable({true})
      .infer(infer_shuffle)
      .bprop(no_gradient());
}

}  // namespace sprout
