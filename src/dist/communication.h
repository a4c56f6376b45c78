// Collective communication between the processes of a job, on MPI. Note [Collectives on MPI]
// A data-parallel job is several copies of one program started by `mpirun -n N`; each process owns a
// rank 0..N-1. init() joins the job (a process started without mpirun is a job of one); the collectives
// below must then be called by every rank in the same order with tensors of the same shapes and dtypes,
// as MPI requires. Only the world group exists (MindSpore's "hccl_world_group" / "nccl_world_group").
// Tensors of Float16 and BFloat16 have no MPI type: the kernels (kernels/cpu/comm.cc) send them as
// Float32, so a sum of them rounds once, at the end.
#pragma once

#include <string>

#include "tensor/tensor.h"

namespace sprout::dist {

enum class ReduceOp : uint8_t { Sum, Max, Min, Prod };
// "sum" / "max" / "min" / "prod" (MindSpore's ReduceOp names); ValueError naming `api` otherwise.
ReduceOp reduce_op_from_name(const std::string& name, const char* api);

// Joins the job (idempotent). RuntimeError when MPI cannot start.
void init();
bool initialized();
// Leaves the job (idempotent); no collective may follow.
void finalize();

// RuntimeError naming `api` unless init() has been called (and finalize() has not).
void check_initialized(const char* api);
// RuntimeError naming `api` unless `group` names the world group.
void check_group(const std::string& group, const char* api);
int rank();
int size();

// In place: every rank's `t` becomes the elementwise reduction of all ranks' `t` (contiguous).
void all_reduce(Tensor& t, ReduceOp op);
// The ranks' tensors (same shape) concatenated along axis 0, in rank order.
Tensor all_gather(const Tensor& t);
// In place: every rank's `t` becomes root's (contiguous).
void broadcast(Tensor& t, int root);
void barrier();

}  // namespace sprout::dist
