// C++ errors -> Python exceptions of the same name (Note [Two kinds of errors] in base/error.h).
#include <cstring>

#include "base/error.h"
#include "python/bindings.h"

namespace sprout::py {

namespace {

// PyErr_SetString, with bytes that are not UTF-8 replaced: a message quoting part of a user's string
// (one byte of a multi-byte character) must still reach Python, not become a UnicodeDecodeError.
void set_error(PyObject* type, const char* message) {
  PyObject* text = PyUnicode_DecodeUTF8(message, static_cast<Py_ssize_t>(std::strlen(message)), "replace");
  if (!text) return;  // the decode error is set instead
  PyErr_SetObject(type, text);
  Py_DECREF(text);
}

// Sets the Python error for a Sprout error; rethrows anything else.
void set_sprout_error(const std::exception_ptr& p) {
  try {
    std::rethrow_exception(p);
  } catch (const TypeError& e) {
    set_error(PyExc_TypeError, e.what());
  } catch (const ValueError& e) {
    set_error(PyExc_ValueError, e.what());
  } catch (const RuntimeError& e) {
    set_error(PyExc_RuntimeError, e.what());
  } catch (const InternalError& e) {
    set_error(PyExc_SystemError, e.what());
  }
}

}  // namespace

void bind_errors(nb::module_& m) {
  nb::register_exception_translator([](const std::exception_ptr& p, void*) { set_sprout_error(p); });
  (void)m;
}

void set_python_error_from_current() noexcept {
  try {
    set_sprout_error(std::current_exception());
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const nb::builtin_exception& e) {  // nanobind's own (cast and conversion errors)
    PyErr_SetString(e.type() == nb::exception_type::value_error ? PyExc_ValueError : PyExc_TypeError, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_SystemError, "unknown C++ exception");
  }
}

}  // namespace sprout::py
