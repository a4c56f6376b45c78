# Sprout's two commands: `make demo` and `make test`. Both set up everything on a fresh machine:
# Debian packages, the .venv, the build. Re-running them only rebuilds what changed.
SHELL := /bin/bash
VENV := .venv
VPY := $(VENV)/bin/python
# Project code runs with this checkout's package first on the path, whatever the venv's .pth says
# (git worktrees may share one venv).
PY := PYTHONPATH=$(CURDIR)/python $(VPY)
BUILD := build/dev
ASAN_BUILD := build/asan
JOBS ?= 2
# ccache hashes paths relative to the checkout, so git worktrees and CI clones share its cache.
export CCACHE_BASEDIR := $(CURDIR)

.PHONY: all demo test test-cpp test-python test-asan build deps bench docs clean

all: build

deps: $(VENV)/.deps-stamp

$(VENV)/.sysdeps-stamp: scripts/install_system_deps.sh
	bash scripts/install_system_deps.sh
	@python3 -m venv $(VENV) 2>/dev/null || true
	@touch $@

$(VENV)/.deps-stamp: $(VENV)/.sysdeps-stamp requirements-dev.txt requirements-mkl.txt
	$(VPY) -m pip install -q --upgrade pip
	$(VPY) -m pip install -q -r requirements-dev.txt
	$(VPY) -m pip install -q --no-deps -r requirements-mkl.txt
	# Developer install: the venv imports python/ directly (the build drops _C*.so there).
	$(VPY) -c 'import sysconfig, os; open(os.path.join(sysconfig.get_paths()["purelib"], "sprout-dev.pth"), "w").write(os.path.abspath("python") + "\n")'
	@touch $@

$(BUILD)/build.ninja: $(VENV)/.deps-stamp CMakeLists.txt
	$(VENV)/bin/cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DCMAKE_MAKE_PROGRAM=$(abspath $(VENV)/bin/ninja) -DPython_EXECUTABLE=$(abspath $(VPY))

build: $(BUILD)/build.ninja
	$(VENV)/bin/cmake --build $(BUILD) -j $(JOBS)

test: build
	$(MAKE) --no-print-directory test-cpp test-python

test-cpp: build
	cd $(BUILD) && ../../$(VENV)/bin/ctest --output-on-failure -j $(JOBS)

test-python: build
	$(PY) benchmarks/run.py --smoke
	$(PY) -m pytest tests/python -n $(JOBS) -p no:cacheprovider

# C++ tests under AddressSanitizer + UndefinedBehaviorSanitizer (a separate build tree).
test-asan: $(VENV)/.deps-stamp
	$(VENV)/bin/cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSPROUT_SANITIZE=ON \
	  -DSPROUT_BUILD_PYTHON=OFF -DCMAKE_MAKE_PROGRAM=$(abspath $(VENV)/bin/ninja)
	$(VENV)/bin/cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ../../$(VENV)/bin/ctest --output-on-failure -j $(JOBS)

demo: build
	$(PY) examples/lenet_mnist.py

docs: build
	$(PY) scripts/gen_ops_doc.py

bench: build
	$(PY) benchmarks/run.py

clean:
	rm -rf build python/sprout/_C*.so
