// C++ errors -> Python exceptions of the same name (Note [Two kinds of errors] in base/error.h).
#include "base/error.h"
#include "python/bindings.h"

namespace sprout::py {

void bind_errors(nb::module_& m) {
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const RuntimeError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const InternalError& e) {
      PyErr_SetString(PyExc_SystemError, e.what());
    }
  });
  (void)m;
}

}  // namespace sprout::py
