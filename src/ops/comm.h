// Attributes of the collective communication ops (ops/comm.cc; MindSpore's names and defaults).
#pragma once

#include <string>

#include "ops/attrs.h"

namespace sprout {

struct AllReduceAttrs {
  std::string op = "sum";
  std::string group = "hccl_world_group";
  static constexpr auto fields() {
    return std::tuple{attr("op", &AllReduceAttrs::op, "How the ranks' tensors combine: 'sum', 'max', 'min' or 'prod'."),
                      attr("group", &AllReduceAttrs::group, "The communication group (the world group).")};
  }
};

struct GroupAttrs {
  std::string group = "hccl_world_group";
  static constexpr auto fields() {
    return std::tuple{attr("group", &GroupAttrs::group, "The communication group (the world group).")};
  }
};

struct BroadcastAttrs {
  int64_t root_rank = 0;
  std::string group = "hccl_world_group";
  static constexpr auto fields() {
    return std::tuple{attr("root_rank", &BroadcastAttrs::root_rank, "The rank whose tensors every rank receives."),
                      attr("group", &BroadcastAttrs::group, "The communication group (the world group).")};
  }
};

}  // namespace sprout
