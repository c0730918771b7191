/* 003-gemm-tf32 reference — fixture for tests/test-sol.c: never built, only task.json is read. */
#include "cuarena.h"
