// Intel MKL's float32 GEMM, loaded at run time when it is installed (Note [MKL at run time]).
#pragma once

#include <string>

namespace sprout {

// MKL's cblas_sgemm: CBLAS enum values (101 row-major, 111/112 no/transpose) and 32-bit sizes.
using MklSgemm = void (*)(int layout, int trans_a, int trans_b, int m, int n, int k, float alpha, const float* a,
                          int lda, const float* b, int ldb, float beta, float* c, int ldc);

// MKL's sgemm, or nullptr when the library cannot be loaded. Loads it on the first call (of this or
// mkl_status()); which products go to MKL is gemm.cc's choice.
MklSgemm mkl_sgemm();

// Whether the CPU vendor is Intel: MKL is used unasked only there.
bool cpu_is_intel();

// Where libmkl_rt lives (the Python package passes its environment's copy); takes effect only before
// the first mkl_sgemm() call. Without it the dynamic loader's search path is used.
void set_mkl_library(const std::string& path);

// "MKL <version>" when the library loads, else why it does not.
std::string mkl_status();

}  // namespace sprout
