#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "kernels/cpu/random_util.h"
#include "ops/op_def.h"
#include "ops/optim.h"

namespace sprout {
namespace {

// kUpdateSignatures is a second list next to the registry: this keeps the two in step.
TEST(Optim, UpdateSignaturesMatchTheRegistry) {
  for (const UpdateSignature& s : kUpdateSignatures) {
    const OpDef& op = OpRegistry::instance().get(s.op);
    EXPECT_EQ(s.roles.size(), op.inputs.size()) << s.op;
    EXPECT_EQ(s.roles.front(), 'u') << s.op << ": var comes first";
    EXPECT_GE(static_cast<size_t>(std::count(s.roles.begin(), s.roles.end(), 'u')), op.outputs.size()) << s.op;
    EXPECT_EQ(s.roles.find_first_not_of("ust"), std::string_view::npos) << s.op;
    EXPECT_TRUE(op.view && op.kernel(Device::CPU)) << s.op << ": in-place dispatch needs both";
  }
}

// for_each_word hands out the stream in counter order whatever the split: word w is word w % 4 of
// Philox block w / 4.
TEST(Random, WordStreamIsPhiloxInCounterOrderForAnyThreadCount) {
  const auto key = philox_key(12, 34);
  const int64_t count = 100'003;
  for (int threads : {1, 2}) {
    const int saved = num_threads();
    set_num_threads(threads);
    std::vector<uint32_t> words(count);
    for_each_word(count, key, [&](int64_t first, const uint32_t* w, int64_t m) {
      std::copy(w, w + m, words.begin() + first);
    });
    set_num_threads(saved);
    for (int64_t i : {int64_t{0}, int64_t{5}, int64_t{64}, int64_t{4097}, count - 1}) {
      const auto block = philox4x32({static_cast<uint32_t>(i / 4), 0, 0, 0}, key);
      EXPECT_EQ(words[i], block[i % 4]) << "word " << i << " with " << threads << " threads";
    }
  }
}

}  // namespace
}  // namespace sprout
