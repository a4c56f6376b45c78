#include "data/errors.h"

#include <atomic>

#include "base/error.h"

namespace sprout::data {

namespace {
std::atomic<ForeignErrorAnnotator> foreign_annotator{nullptr};
}

void set_foreign_error_annotator(ForeignErrorAnnotator annotator) { foreign_annotator.store(annotator); }

std::exception_ptr annotate_error(std::exception_ptr error, const std::string& where) {
  if (ForeignErrorAnnotator hook = foreign_annotator.load()) {
    if (std::exception_ptr annotated = hook(error, where)) return annotated;
  }
  const std::string note = "\n  [sprout.dataset] raised " + where;
  try {
    std::rethrow_exception(error);
  } catch (const Cancelled&) {
    return error;
  } catch (const TypeError& e) {
    return std::make_exception_ptr(TypeError(e.what() + note));
  } catch (const ValueError& e) {
    return std::make_exception_ptr(ValueError(e.what() + note));
  } catch (const RuntimeError& e) {
    return std::make_exception_ptr(RuntimeError(e.what() + note));
  } catch (const InternalError& e) {
    return std::make_exception_ptr(InternalError(e.what() + note));
  } catch (const std::exception& e) {
    return std::make_exception_ptr(RuntimeError(std::string(e.what()) + note));
  } catch (...) {
    return error;
  }
}

}  // namespace sprout::data
