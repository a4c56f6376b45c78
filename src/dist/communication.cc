#include "dist/communication.h"

// The C API only: Open MPI's deprecated C++ bindings would need their own library.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstring>

#include "base/error.h"

namespace sprout::dist {
namespace {

bool g_finalized = false;

void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char message[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, message, &length);
  throw RuntimeError(str("communication: ", what, " failed: ", std::string(message, static_cast<size_t>(length))));
}

// MPI's type for a dtype's elements; Float16/BFloat16 have none (they travel as Float32).
MPI_Datatype mpi_type(DType t) {
  switch (t) {
    case DType::Bool: return MPI_C_BOOL;
    case DType::Int8: return MPI_INT8_T;
    case DType::Int16: return MPI_INT16_T;
    case DType::Int32: return MPI_INT32_T;
    case DType::Int64: return MPI_INT64_T;
    case DType::UInt8: return MPI_UINT8_T;
    case DType::UInt16: return MPI_UINT16_T;
    case DType::UInt32: return MPI_UINT32_T;
    case DType::UInt64: return MPI_UINT64_T;
    case DType::Float32: return MPI_FLOAT;
    case DType::Float64: return MPI_DOUBLE;
    case DType::Float16:
    case DType::BFloat16: break;
  }
  return MPI_DATATYPE_NULL;
}

MPI_Op mpi_op(ReduceOp op, DType t) {
  if (t == DType::Bool) return op == ReduceOp::Sum || op == ReduceOp::Max ? MPI_LOR : MPI_LAND;
  switch (op) {
    case ReduceOp::Sum: return MPI_SUM;
    case ReduceOp::Max: return MPI_MAX;
    case ReduceOp::Min: return MPI_MIN;
    case ReduceOp::Prod: return MPI_PROD;
  }
  return MPI_SUM;
}

MPI_Datatype checked_type(DType t) {
  MPI_Datatype type = mpi_type(t);
  SPROUT_ASSERT(type != MPI_DATATYPE_NULL, name(t), " has no MPI type: the kernels send it as Float32");
  return type;
}

}  // namespace

ReduceOp reduce_op_from_name(const std::string& name, const char* api) {
  if (name == "sum") return ReduceOp::Sum;
  if (name == "max") return ReduceOp::Max;
  if (name == "min") return ReduceOp::Min;
  if (name == "prod") return ReduceOp::Prod;
  throw ValueError(str(api, ": op must be 'sum', 'max', 'min' or 'prod', but got '", name, "'"));
}

void init() {
  SPROUT_CHECK(!g_finalized, RuntimeError, "communication.init: the job was already released (MPI cannot restart)");
  if (initialized()) return;
  int provided = 0;
  // Collectives are called from one thread at a time (eager ops, or the VM running a program).
  check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
}

bool initialized() {
  int done = 0, finalized = 0;
  MPI_Initialized(&done);
  MPI_Finalized(&finalized);
  return done && !finalized;
}

void finalize() {
  if (!initialized()) return;
  g_finalized = true;
  check_mpi(MPI_Finalize(), "MPI_Finalize");
}

void check_initialized(const char* api) {
  SPROUT_CHECK(initialized(), RuntimeError, api,
               ": communication is not initialized; call sprout.communication.init() first (and start the job "
               "with mpirun -n N)");
}

void check_group(const std::string& group, const char* api) {
  SPROUT_CHECK(group == "hccl_world_group" || group == "nccl_world_group" || group == "mccl_world_group" ||
                   group == "world_group",
               ValueError, api, ": group '", group, "' does not exist; Sprout has the world group only "
               "('hccl_world_group', 'nccl_world_group')");
}

int rank() {
  check_initialized("get_rank");
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int size() {
  check_initialized("get_group_size");
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

void all_reduce(Tensor& t, ReduceOp op) {
  check_initialized("AllReduce");
  SPROUT_ASSERT(t.is_contiguous(), "AllReduce works on contiguous tensors");
  SPROUT_CHECK(t.numel() <= INT32_MAX, ValueError, "AllReduce: ", t.numel(), " elements are more than MPI sends at once");
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, t.raw_data(), static_cast<int>(t.numel()), checked_type(t.dtype()),
                          mpi_op(op, t.dtype()), MPI_COMM_WORLD),
            "MPI_Allreduce");
}

Tensor all_gather(const Tensor& x) {
  check_initialized("AllGather");
  Tensor t = x.contiguous();
  Shape shape = t.shape();
  SPROUT_CHECK(!shape.empty(), ValueError, "AllGather: the input must have at least one axis (they are joined along "
               "axis 0), but got a scalar");
  shape[0] *= size();
  Tensor out = Tensor::empty(shape, t.dtype());
  SPROUT_CHECK(t.numel() <= INT32_MAX, ValueError, "AllGather: ", t.numel(), " elements are more than MPI sends at once");
  check_mpi(MPI_Allgather(t.raw_data(), static_cast<int>(t.numel()), checked_type(t.dtype()), out.raw_data(),
                          static_cast<int>(t.numel()), checked_type(t.dtype()), MPI_COMM_WORLD),
            "MPI_Allgather");
  return out;
}

void broadcast(Tensor& t, int root) {
  check_initialized("Broadcast");
  SPROUT_CHECK(root >= 0 && root < size(), ValueError, "Broadcast: root_rank ", root, " is not a rank of the job (",
               size(), " ranks)");
  SPROUT_ASSERT(t.is_contiguous(), "Broadcast works on contiguous tensors");
  check_mpi(MPI_Bcast(t.raw_data(), static_cast<int>(t.numel()), checked_type(t.dtype()), root, MPI_COMM_WORLD),
            "MPI_Bcast");
}

void barrier() {
  check_initialized("barrier");
  check_mpi(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

}  // namespace sprout::dist
