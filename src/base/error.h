// Errors. Note [Two kinds of errors]
// A *user* error (TypeError, ValueError, RuntimeError) says what was wrong with the caller's input:
// the op or API, the argument, what was expected and what was given. The Python bindings translate
// each to the Python exception of the same name.
// An *internal* error (InternalError, raised by SPROUT_ASSERT) means Sprout has a bug; it carries the
// file and line so the report points at the code, not at the user.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace sprout {

class TypeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class ValueError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Concatenates any streamable values into one message: str("axis ", 3, " out of range").
template <class... Args>
std::string str(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

[[noreturn]] void internal_error(const char* file, int line, const char* cond, const std::string& msg);

}  // namespace sprout

// SPROUT_CHECK(cond, ErrorType, message parts...): a user error when cond is false.
#define SPROUT_CHECK(cond, Error, ...)                 \
  do {                                                 \
    if (!(cond)) [[unlikely]]                          \
      throw ::sprout::Error(::sprout::str(__VA_ARGS__)); \
  } while (0)

// SPROUT_ASSERT(cond, message parts...): an invariant of Sprout itself; failing means a bug.
#define SPROUT_ASSERT(cond, ...)                                                               \
  do {                                                                                         \
    if (!(cond)) [[unlikely]]                                                                  \
      ::sprout::internal_error(__FILE__, __LINE__, #cond, ::sprout::str("" __VA_OPT__(, ) __VA_ARGS__)); \
  } while (0)
