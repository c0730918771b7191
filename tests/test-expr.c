/* test-expr.c — shape expressions (harness/catalogue/expr.c): values, precedence, errors with columns. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "catalogue/expr.h"

static const struct cua_expr_binding vars[] = {
	{"B", 4}, {"N", 10}, {"H", 32}, {"P", 1}, {"K", 3}, {"S", 2},
	{"B_2", 5}, {"Bx_long_name", 7},
};

/* Criterion hands parameters to a separate worker process: strings are
 * arrays, since pointers into this one would not be valid there. */
struct value_case {
	char expr[32];
	int64_t want;
};

ParameterizedTestParameters(expr, evaluates_to_the_value_c_would_give)
{
	static struct value_case cases[] = {
		{"0", 0},
		{"42", 42},
		{"1+2*3", 7},                  /* * binds tighter than + */
		{"2*3-4*5", -14},
		{"(1+2)*3", 9},                /* parentheses override */
		{"10-4-3", 3},                 /* left associative */
		{"100/10/5", 2},
		{"2*7%4", 2},                  /* * / % share a level, left to right */
		{"-3*-2", 6},                  /* unary minus */
		{"--4", 4},
		{"-(2+3)", -5},
		{"1 - -1", 2},
		{"7/2", 3},                    /* division truncates toward zero */
		{"-7/2", -3},
		{"7/-2", -3},
		{"-7%3", -1},                  /* % takes the dividend's sign */
		{"7%-3", 1},
		{"B*N", 40},
		{"(H+2*P-K)/S+1", 16},
		{"  B * ( N + 1 ) ", 44},      /* whitespace anywhere */
		{"B_2*2 + Bx_long_name", 17},
		{"((((((1))))))", 1},
		{"9223372036854775807", INT64_MAX},
		{"-9223372036854775807-1", INT64_MIN},
		{"(-9223372036854775807-1)%-1", 0},
	};
	return cr_make_param_array(struct value_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct value_case *c, expr, evaluates_to_the_value_c_would_give)
{
	char err[CUA_ERR_LEN] = "";
	int64_t v = -12345;
	enum cua_status rc = cua_expr_eval(c->expr, vars, CUA_ARRAY_LEN(vars), &v, err,
	                                   sizeof(err));
	cr_assert_eq(rc, CUA_OK, "\"%s\": %s", c->expr, err);
	cr_assert_eq(v, c->want, "\"%s\" = %lld, want %lld", c->expr, (long long)v,
	             (long long)c->want);
}

struct error_case {
	char expr[32];
	enum cua_status status;
	char msg[80];                      /* the whole message */
};

ParameterizedTestParameters(expr, rejects_bad_input_naming_the_column)
{
	static struct error_case cases[] = {
		{"Q", CUA_E_PARSE, "column 1: unknown name 'Q'"},
		{"B*Q", CUA_E_PARSE, "column 3: unknown name 'Q'"},
		{"B + Bx", CUA_E_PARSE, "column 5: unknown name 'Bx'"},   /* no prefix match */
		{"N/(B-4)", CUA_E_INVALID, "column 2: division by zero"},
		{"N % 0", CUA_E_INVALID, "column 3: division by zero"},
		{"9223372036854775807+1", CUA_E_INVALID, "column 20: overflow in '+'"},
		{"-9223372036854775807-2", CUA_E_INVALID, "column 21: overflow in '-'"},
		{"4611686018427387904*2", CUA_E_INVALID, "column 20: overflow in '*'"},
		{"(-9223372036854775807-1)/-1", CUA_E_INVALID, "column 25: overflow in '/'"},
		{"-(-9223372036854775807-1)", CUA_E_INVALID, "column 1: overflow in unary '-'"},
		{"9223372036854775808", CUA_E_INVALID, "column 1: number does not fit in 64 bits"},
		{"", CUA_E_PARSE, "column 1: empty expression"},
		{"   ", CUA_E_PARSE, "column 4: empty expression"},
		{"1+", CUA_E_PARSE,
		 "column 3: expected a number, a name or '(', found end of expression"},
		{"*3", CUA_E_PARSE, "column 1: expected a number, a name or '(', found '*'"},
		{"1 + $", CUA_E_PARSE, "column 5: expected a number, a name or '(', found '$'"},
		{"(1+2", CUA_E_PARSE, "column 5: expected ')', found end of expression"},
		{"()", CUA_E_PARSE, "column 2: expected a number, a name or '(', found ')'"},
		{"1+2)", CUA_E_PARSE, "column 4: unexpected ')' after the expression"},
		{"B N", CUA_E_PARSE, "column 3: unexpected 'N' after the expression"},
		{"2x", CUA_E_PARSE, "column 1: malformed number"},
		{"1.5", CUA_E_PARSE, "column 2: unexpected '.' after the expression"},
	};
	return cr_make_param_array(struct error_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct error_case *c, expr, rejects_bad_input_naming_the_column)
{
	char err[CUA_ERR_LEN] = "";
	int64_t v = -12345;
	enum cua_status rc = cua_expr_eval(c->expr, vars, CUA_ARRAY_LEN(vars), &v, err,
	                                   sizeof(err));
	cr_assert_eq(rc, c->status, "\"%s\": status %d, want %d (%s)", c->expr, rc,
	             c->status, err);
	cr_assert_str_eq(err, c->msg, "\"%s\"", c->expr);
	cr_assert_eq(v, 0, "the result is cleared on failure");
}

/* n opening parentheses, "1", n closing ones. */
static char *nested(int n)
{
	char *s = malloc((size_t)2 * n + 2);
	cr_assert_not_null(s);
	memset(s, '(', (size_t)n);
	s[n] = '1';
	memset(s + n + 1, ')', (size_t)n);
	s[2 * n + 1] = '\0';
	return s;
}

Test(expr, accepts_64_nested_parentheses_and_rejects_65)
{
	char err[CUA_ERR_LEN] = "";
	int64_t v = 0;
	char *ok = nested(64), *deep = nested(65);
	cr_expect_eq(cua_expr_eval(ok, NULL, 0, &v, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(v, 1);
	cr_expect_eq(cua_expr_eval(deep, NULL, 0, &v, err, sizeof(err)), CUA_E_PARSE);
	cr_expect_str_eq(err, "column 65: nesting deeper than 64");
	free(ok);
	free(deep);
}

Test(expr, limits_how_deep_unary_minus_nests)
{
	char err[CUA_ERR_LEN] = "";
	char s[80];
	int64_t v = 0;
	memset(s, '-', 70);
	strcpy(s + 70, "1");
	cr_assert_eq(cua_expr_eval(s, NULL, 0, &v, err, sizeof(err)), CUA_E_PARSE);
	cr_assert_str_eq(err, "column 65: nesting deeper than 64");
}

Test(expr, treats_no_bindings_as_no_names)
{
	char err[CUA_ERR_LEN] = "";
	int64_t v = 0;
	cr_assert_eq(cua_expr_eval("2*3", NULL, 0, &v, err, sizeof(err)), CUA_OK);
	cr_assert_eq(v, 6);
	cr_assert_eq(cua_expr_eval("2*B", NULL, 5, &v, err, sizeof(err)), CUA_E_PARSE);
	cr_assert_str_eq(err, "column 3: unknown name 'B'");
}

Test(expr, cuts_long_unknown_names_in_the_message)
{
	char err[CUA_ERR_LEN] = "";
	int64_t v = 0;
	const char *name = "a_very_long_name_that_goes_on_and_on_and_on_forever";
	cr_assert_eq(cua_expr_eval(name, vars, CUA_ARRAY_LEN(vars), &v, err, sizeof(err)),
	             CUA_E_PARSE);
	cr_assert_str_eq(err, "column 1: unknown name 'a_very_long_name_that_goes_on_an...'");
}

Test(expr, accepts_a_null_error_buffer_and_a_null_expression)
{
	int64_t v = 7;
	cr_assert_eq(cua_expr_eval("1/0", NULL, 0, &v, NULL, 0), CUA_E_INVALID);
	cr_assert_eq(cua_expr_eval(NULL, NULL, 0, &v, NULL, 0), CUA_E_PARSE);
	cr_assert_eq(v, 0);
}
