#!/usr/bin/env bash
# serve-wheels.sh — the wheels `transformers serve` needs beyond what the GPU machine's
# image holds (fastapi, uvicorn, openai, pydantic and their dependencies), for Python
# 3.12 on x86-64 Linux, into .carry/wheels: carry that folder with the device call
# that runs `tools/dev/gpu-session.sh llm` (nothing can be fetched there).
set -eu
cd "$(dirname "$0")/../.."
mkdir -p .carry/wheels
python3 -m pip download --quiet --disable-pip-version-check --dest .carry/wheels \
	--only-binary=:all: --python-version 3.12 --implementation cp \
	--platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
	--platform manylinux_2_28_x86_64 --platform any \
	fastapi uvicorn openai pydantic
du -sh .carry/wheels
ls .carry/wheels | wc -l
