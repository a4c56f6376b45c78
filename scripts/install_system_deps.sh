#!/usr/bin/env bash
# Installs the Debian packages Sprout builds against, only those missing (re-runs cost a dpkg query).
set -euo pipefail
PACKAGES=(g++ ccache ninja-build pkg-config python3-venv python3-dev
          libdnnl-dev libopenblas-openmp-dev libhwy-dev libgtest-dev
          protobuf-compiler libprotobuf-dev zlib1g-dev libopenmpi-dev openmpi-bin
          libopencv-core-dev libopencv-imgproc-dev libopencv-imgcodecs-dev libjpeg62-turbo-dev
          # oneDNN's CMake config (dnnl-config.cmake) looks for OpenCL; without recommends it is not pulled in.
          ocl-icd-opencl-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "Installing system packages: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
