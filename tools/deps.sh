#!/usr/bin/env bash
# deps.sh — installs what cuarena needs from Debian's packages (as root), or prints
# the apt line; then checks the CUDA toolkit. Called by `make deps` and .ci/run.
set -u
# slurmctld slurmd slurm-client (+ iproute2, util-linux: its network namespace):
# tests/slurm.sh starts a real single-node cluster
PKGS="libcjson-dev libmicrohttpd-dev libcriterion-dev libcurl4-openssl-dev libssl-dev gnuplot-nox python3 chromium fonts-dejavu-core slurmctld slurmd slurm-client iproute2 util-linux"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ]; then
		echo "deps: installing$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
			echo "deps: apt-get install failed" >&2; exit 1; }
	else
		echo "deps: missing packages; run as root:"
		echo "  apt-get install -y$missing"
		exit 1
	fi
fi
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if [ ! -x "$CUDA_HOME/bin/nvcc" ]; then
	echo "deps: no nvcc at $CUDA_HOME/bin/nvcc: install the CUDA toolkit (13.x) or set CUDA_HOME" >&2
	exit 1
fi
for lib in libcudart.so libcublas.so libcudnn.so; do
	if [ ! -e "$CUDA_HOME/lib64/$lib" ] && ! ldconfig -p | grep -q "$lib"; then
		echo "deps: $lib not found under $CUDA_HOME/lib64 or in ldconfig" >&2
		exit 1
	fi
done
# The SASS precision check lists machine code with cuobjdump (and its nvdisasm). A
# toolkit without them (a compiler-only install) gets NVIDIA's wheels from PyPI.
TOOLS=/opt/cuarena/cuda-tools
if [ -x "$CUDA_HOME/bin/cuobjdump" ] && [ -x "$CUDA_HOME/bin/nvdisasm" ]; then
	sass="cuobjdump from the toolkit"
elif [ -x "$TOOLS/bin/cuobjdump" ] && [ -x "$TOOLS/bin/nvdisasm" ]; then
	sass="cuobjdump from $TOOLS"
elif [ "$(id -u)" = 0 ]; then
	echo "deps: no cuobjdump/nvdisasm in $CUDA_HOME/bin: installing NVIDIA's wheels into $TOOLS"
	rm -rf "$TOOLS" && mkdir -p "$TOOLS/bin" &&
	python3 -m pip install --quiet --disable-pip-version-check --target "$TOOLS/pkgs" \
		nvidia-cuda-cuobjdump==13.2.51 nvidia-cuda-nvdisasm==13.2.51 >/dev/null 2>&1 || {
		echo "deps: pip install of nvidia-cuda-cuobjdump / nvidia-cuda-nvdisasm failed" >&2; exit 1; }
	for t in cuobjdump nvdisasm; do
		f=$(find "$TOOLS/pkgs" -type f -name "$t" | head -n 1)
		[ -n "$f" ] && chmod +x "$f" && ln -sf "$f" "$TOOLS/bin/$t"
	done
	[ -x "$TOOLS/bin/cuobjdump" ] && [ -x "$TOOLS/bin/nvdisasm" ] || {
		echo "deps: the wheels hold no cuobjdump/nvdisasm" >&2; exit 1; }
	sass="cuobjdump installed in $TOOLS"
else
	echo "deps: no cuobjdump/nvdisasm (the SASS check needs them); run as root to install"
	exit 1
fi
echo "deps: ok ($("$CUDA_HOME/bin/nvcc" --version | grep -o 'release [0-9.]*'), $sass, packages: $PKGS)"
