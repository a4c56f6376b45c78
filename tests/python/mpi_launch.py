"""Starting a job of several ranks from a test: `mpirun -n N` with the environment it needs here."""
import os
import shutil
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_mpi(args, ranks=2, timeout=600):
    """Runs `args` (a command) as `ranks` ranks; returns the CompletedProcess (stdout, stderr as text)."""
    mpirun = shutil.which("mpirun")
    assert mpirun, "mpirun is missing: scripts/install_system_deps.sh installs openmpi-bin"
    # Not this process's own MPI state (a test here may have joined a job of one).
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "OPAL_"))}
    env.update(PYTHONPATH=os.path.join(REPO, "python"), OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               # containers forbid reading another process's memory, Open MPI's default for large messages
               OMPI_MCA_btl_vader_single_copy_mechanism="none")
    return subprocess.run([mpirun, "-n", str(ranks), "--oversubscribe", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)
