# common.sh — sourced by the GPU check scripts of tests/gpu/ (llm.sh, slurm.sh,
# resume.sh): the repository root as the working directory, OUT for logs (default
# /tmp/gpu-session), the compile cache a device call unpacks (CUARENA_CACHE), the GPUs
# (DEVS: CUDA_VISIBLE_DEVICES, else GPU 0) and the harness (BIN).
set -u
shopt -s extglob
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
OUT=${OUT:-/tmp/gpu-session}
mkdir -p "$OUT"
export CUARENA_CACHE=${CUARENA_CACHE:-/tmp/cuarena-cache}
IFS=, read -r -a DEVS <<< "${CUDA_VISIBLE_DEVICES:-0}"
BIN=build/cuarena
