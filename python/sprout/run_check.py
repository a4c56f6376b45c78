"""``ms.run_check()``: checks that Sprout is installed and computes correctly, as MindSpore's run_check does:
one multiplication on the device (the CPU), compared with NumPy's."""
import numpy as np


def _check_mul():
    """Multiplies two small tensors; raises if Sprout's product differs from NumPy's."""
    import sprout as ms
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    b = np.array([[2.0, 0.5], [-1.0, 3.0]], np.float32)
    got = ms.ops.mul(ms.Tensor(a), ms.Tensor(b)).asnumpy()
    if not np.array_equal(got, a * b):
        raise RuntimeError(f"The result of multiplication calculation is not correct: {got.tolist()} instead of "
                           f"{(a * b).tolist()}")


def run_check():
    """Prints Sprout's version and whether a multiplication on the CPU gives the right result; returns None
    (a failure is printed, not raised, as MindSpore does)."""
    import sprout as ms
    print(f"Sprout version: {ms.__version__}")
    try:
        _check_mul()
    except Exception as error:  # noqa: BLE001 -- the check reports every failure, as MindSpore's does
        print("Sprout running check failed.")
        print(str(error))
        return
    device = ms.get_context("device_target")
    print(f"The result of multiplication calculation is correct, Sprout has been installed on platform [{device}] "
          f"successfully!")


__all__ = ["run_check"]
