/* fuzz-expr.c — libFuzzer target: shape expressions (harness/catalogue/expr.c).
 * Build and run: make fuzz (or FUZZ_SECONDS=60 make fuzz). Any crash, leak or
 * sanitizer report is a bug; a rejected expression is fine. */
#include <stdint.h>
#include <string.h>

#include "catalogue/expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char expr[512];
	char err[CUA_ERR_LEN];
	int64_t out;
	struct cua_expr_binding vars[] = {
		{"N", 4096}, {"C", 3}, {"H", 224}, {"K", 7}, {"S", 2}, {"P", 1},
		{"BIG", INT64_MAX / 3}, {"NEG", -5},
	};

	if (size >= sizeof(expr))
		size = sizeof(expr) - 1;
	memcpy(expr, data, size);
	expr[size] = '\0';
	if (cua_expr_eval(expr, vars, (int)(sizeof(vars) / sizeof(vars[0])), &out, err,
	                  sizeof(err)) != CUA_OK && err[0] == '\0')
		__builtin_trap();   /* a failure must always say why */
	return 0;
}
