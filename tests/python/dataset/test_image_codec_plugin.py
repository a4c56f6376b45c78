"""OpenCV's image codecs load with the first image given to OpenCV, not with `import sprout`
(Note [OpenCV codecs on demand]): every other program starts without their ~140 libraries."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

CODE = """
import numpy as np

def codecs_loaded():
    with open("/proc/self/maps") as maps:
        return "libopencv_imgcodecs" in maps.read()

import sprout as ms
from sprout.dataset import vision as V
before = codecs_loaded()
ms.ops.add(ms.Tensor(np.ones(3, np.float32)), 1.0)  # the core at work: still no codecs
image = np.arange(7 * 6 * 3, dtype=np.uint8).reshape(7, 6, 3)
png = V.encode_png(image, 9)
print(before, codecs_loaded(), np.array_equal(V.Decode()(png), image))
"""


def test_codecs_load_with_the_first_image_opencv_encodes():
    result = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python")))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True", "True"]
