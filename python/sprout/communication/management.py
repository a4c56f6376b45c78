"""init / release / get_rank / get_group_size (``mindspore.communication.management``)."""
import atexit
import os

from sprout import _C

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
_BACKENDS = (None, "hccl", "nccl", "mccl", "mpi")


class GlobalComm:
    """The backend and world group in use (``GlobalComm.WORLD_COMM_GROUP`` is what ops default to)."""
    BACKEND = "mpi"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False


def init(backend_name=None):
    """Joins the job started by ``mpirun`` (a job of one without it). MindSpore's backend names are
    accepted; the collectives run on MPI whichever is named."""
    if backend_name not in _BACKENDS:
        raise ValueError(f"init: backend_name must be one of {', '.join(repr(b) for b in _BACKENDS)}, "
                         f"but got {backend_name!r}")
    if GlobalComm.INITED:
        return
    _C.dist_init()
    GlobalComm.INITED = True
    atexit.register(release)  # MPI wants every process to leave the job before it exits


def release():
    """Leaves the job; no collective may follow."""
    if GlobalComm.INITED:
        _C.dist_finalize()
        GlobalComm.INITED = False


def _check_group(group, api):
    if not isinstance(group, str):
        raise TypeError(f"{api}: group must be a str, but got {type(group).__name__}")
    _C.dist_check_group(group, api)  # the one list of the world group's names (src/dist)


def get_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank in the job, 0 .. get_group_size() - 1."""
    _check_group(group, "get_rank")
    return _C.dist_rank()


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of processes in the job."""
    _check_group(group, "get_group_size")
    return _C.dist_size()


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """This process's rank among those on its machine (Open MPI tells each process)."""
    _check_group(group, "get_local_rank")
    return int(os.environ.get("OMPI_COMM_WORLD_LOCAL_RANK", _C.dist_rank()))


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of the job's processes on this machine."""
    _check_group(group, "get_local_rank_size")
    return int(os.environ.get("OMPI_COMM_WORLD_LOCAL_SIZE", _C.dist_size()))


def create_group(group, rank_ids):
    """Sub-groups are not supported: every collective spans the whole job."""
    raise RuntimeError(f"create_group: Sprout's collectives span the world group only; cannot create '{group}' "
                       f"of ranks {list(rank_ids)}")
