// Note [MKL at run time]
// On the 2-core Xeon, MKL's sgemm beat oneDNN's brgemm matmul by 5-10% on large float32 products
// (1024^3: 376 vs 351 GFLOP/s; 1024x256x1024: 367 vs 325; benchmarks/matmul_backends.py has the
// table), which is PyTorch's edge on matmul_1024. Sprout uses MKL without linking it:
// - it is optional: the `mkl` wheel is 220 MB and Intel-only in spirit; without it float32 products
//   stay on oneDNN (and OpenBLAS for small ones);
// - its CBLAS symbols would collide with OpenBLAS's, so libmkl_rt is dlopen'ed RTLD_LOCAL and only
//   cblas_sgemm is looked up;
// - its default threading layer is Intel's OpenMP runtime, a second thread pool beside libgomp (which
//   oneDNN, OpenBLAS and Sprout's loops share). MKL is told to use its GNU OpenMP layer before any
//   other call, so it runs on the same pool with the same thread setting; the Makefile installs the
//   wheel without its intel-openmp dependency, so the Intel runtime is not even present;
// - Intel tunes MKL for its own CPUs; on other vendors Sprout keeps oneDNN unless MKL is forced with
//   SPROUT_MATMUL_BACKEND=mkl.
#include "kernels/cpu/mkl_blas.h"

#include <cpuid.h>
#include <dlfcn.h>

#include <cstring>
#include <mutex>

#include "base/error.h"

namespace sprout {
namespace {

constexpr int kMklThreadingGnu = 3;   // MKL_THREADING_GNU in mkl_service.h
constexpr int kMklInterfaceLp64 = 0;  // MKL_INTERFACE_LP64: 32-bit integers, as declared in MklSgemm

std::mutex g_mutex;
std::string g_library = "libmkl_rt.so.3";

struct Loaded {
  MklSgemm sgemm = nullptr;
  std::string status;  // "MKL <version>" or why MKL is not used
};

// Opens libmkl_rt and switches it to the GNU OpenMP layer; `sgemm` stays null on any failure.
Loaded load(const std::string& path) {
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) return {nullptr, str("MKL not loaded: ", dlerror())};
  auto set_threading = reinterpret_cast<int (*)(int)>(dlsym(lib, "MKL_Set_Threading_Layer"));
  auto set_interface = reinterpret_cast<int (*)(int)>(dlsym(lib, "MKL_Set_Interface_Layer"));
  auto version = reinterpret_cast<void (*)(char*, int)>(dlsym(lib, "MKL_Get_Version_String"));
  auto sgemm = reinterpret_cast<MklSgemm>(dlsym(lib, "cblas_sgemm"));
  if (!set_threading || !set_interface || !version || !sgemm)
    return {nullptr, str("MKL not used: ", path, " lacks the mkl_rt entry points")};
  if (set_interface(kMklInterfaceLp64) != kMklInterfaceLp64 || set_threading(kMklThreadingGnu) != kMklThreadingGnu)
    return {nullptr, "MKL not used: it refused the LP64 interface or the GNU OpenMP threading layer"};
  char text[256] = {};
  version(text, sizeof(text) - 1);
  return {sgemm, str("MKL ", text)};
}

const Loaded& loaded() {
  std::lock_guard<std::mutex> lock(g_mutex);
  static const Loaded result = load(g_library);
  return result;
}

}  // namespace

bool cpu_is_intel() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return false;
  char vendor[13] = {};
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  return std::strcmp(vendor, "GenuineIntel") == 0;
}

MklSgemm mkl_sgemm() { return loaded().sgemm; }

void set_mkl_library(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_library = path;
}

std::string mkl_status() { return loaded().status; }

}  // namespace sprout
