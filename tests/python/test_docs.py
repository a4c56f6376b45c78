import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def test_ops_doc_is_generated_from_the_current_registry():
    result = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_ops_doc.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
