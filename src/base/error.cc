#include "base/error.h"

namespace sprout {

void internal_error(const char* file, int line, const char* cond, const std::string& msg) {
  throw InternalError(str("Internal error in Sprout (this is a bug, please report it): ", file, ":",
                          line, ": check '", cond, "' failed", msg.empty() ? "" : ": ", msg));
}

}  // namespace sprout
