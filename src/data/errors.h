// Errors inside the pipeline: where they happened, and how the pipeline stops.
//
// Note [Errors cross threads]
// A row function that throws on a worker thread must surface in the thread that asked for rows, as
// the same exception, with a note saying which operation and which row raised it. Workers catch the
// exception as an exception_ptr; the node that owns the worker annotates it once (annotate_error)
// and its consumer rethrows it in order, at the row's position, so an error is as deterministic as
// the data. Parents pass it through untouched. Sprout's own errors are rebuilt with the note appended
// to the message; foreign exceptions (a Python exception raised in a user callable) are annotated by
// a hook the Python bindings install, which adds the note to the original Python exception object.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

namespace sprout::data {

// Thrown inside the engine when the pipeline is being stopped (iterator dropped, interrupt, error).
// Never reaches the user.
class Cancelled : public std::runtime_error {
 public:
  Cancelled() : std::runtime_error("sprout.dataset: pipeline stopped") {}
};

// The exception `error` with a note naming where it happened (e.g. "in map(...) on row 17").
std::exception_ptr annotate_error(std::exception_ptr error, const std::string& where);

// Annotates an exception type the engine does not know; returns nullptr to decline.
using ForeignErrorAnnotator = std::exception_ptr (*)(std::exception_ptr error, const std::string& where);
void set_foreign_error_annotator(ForeignErrorAnnotator annotator);

}  // namespace sprout::data
