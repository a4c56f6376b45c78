"""``mindspore.communication``: joining a data-parallel job and the ranks in it.

Start the job with ``mpirun -n N python train.py``; each process calls ``init()`` and gets a rank.
Collectives run on MPI (Note [Collectives on MPI] in src/dist/communication.h); a process started
without mpirun is a job of one. Only the world group exists.
"""
from sprout.communication.management import (GlobalComm, HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP,
                                             create_group, get_group_size, get_local_rank, get_local_rank_size,
                                             get_rank, init, release)

__all__ = ["GlobalComm", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "create_group", "get_group_size",
           "get_local_rank", "get_local_rank_size", "get_rank", "init", "release"]
