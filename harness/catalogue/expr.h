/* expr.h — integer shape expressions over named dims: "B*N", "(H+2*P-K)/S+1". */
#ifndef CUA_EXPR_H
#define CUA_EXPR_H

#include "common.h"

struct cua_expr_binding {
	const char *name;
	int64_t value;
};

/* Evaluates expr with 64-bit signed integer arithmetic: + - * / % unary minus,
 * parentheses, decimal literals and names bound in vars. Division truncates
 * (C semantics). Errors (syntax, unknown name, division by zero, overflow)
 * name the column: "column 5: unknown name 'Q'". */
enum cua_status cua_expr_eval(const char *expr, const struct cua_expr_binding *vars,
                              int n_vars, int64_t *out, char *err, size_t errlen);

#endif /* CUA_EXPR_H */
