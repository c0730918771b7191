/* expr.c — recursive-descent evaluator for integer shape expressions (expr.h). */
#include "catalogue/expr.h"

#include <ctype.h>
#include <string.h>

#define MAX_DEPTH 64     /* parentheses and unary minus nest at most this deep */
#define SHOWN_NAME 32    /* longest name quoted in an error */

struct parser {
	const char *src;
	const char *p;
	const struct cua_expr_binding *vars;
	int n_vars;
	int depth;
	char *err;
	size_t errlen;
};

static enum cua_status parse_sum(struct parser *ps, int64_t *out);

static int column(const struct parser *ps, const char *at)
{
	return (int)(at - ps->src) + 1;
}

static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
		ps->p++;
}

static bool is_name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Describes the character at p for "unexpected ..." messages. */
static void describe(const char *p, char *buf, size_t len)
{
	if (*p == '\0')
		snprintf(buf, len, "end of expression");
	else if (isprint((unsigned char)*p))
		snprintf(buf, len, "'%c'", *p);
	else
		snprintf(buf, len, "byte 0x%02x", (unsigned char)*p);
}

static enum cua_status syntax_error(struct parser *ps, const char *expected)
{
	char what[32];
	describe(ps->p, what, sizeof(what));
	cua_errf(ps->err, ps->errlen, "column %d: expected %s, found %s",
	         column(ps, ps->p), expected, what);
	return CUA_E_PARSE;
}

static enum cua_status enter(struct parser *ps)
{
	if (++ps->depth > MAX_DEPTH) {
		cua_errf(ps->err, ps->errlen, "column %d: nesting deeper than %d",
		         column(ps, ps->p), MAX_DEPTH);
		return CUA_E_PARSE;
	}
	return CUA_OK;
}

static enum cua_status parse_number(struct parser *ps, int64_t *out)
{
	const char *start = ps->p;
	int64_t v = 0;
	while (isdigit((unsigned char)*ps->p)) {
		if (__builtin_mul_overflow(v, (int64_t)10, &v) ||
		    __builtin_add_overflow(v, (int64_t)(*ps->p - '0'), &v)) {
			cua_errf(ps->err, ps->errlen,
			         "column %d: number does not fit in 64 bits",
			         column(ps, start));
			return CUA_E_INVALID;
		}
		ps->p++;
	}
	if (is_name_char(*ps->p)) {
		cua_errf(ps->err, ps->errlen, "column %d: malformed number",
		         column(ps, start));
		return CUA_E_PARSE;
	}
	*out = v;
	return CUA_OK;
}

static enum cua_status parse_name(struct parser *ps, int64_t *out)
{
	const char *start = ps->p;
	while (is_name_char(*ps->p))
		ps->p++;
	size_t len = (size_t)(ps->p - start);
	for (int i = 0; i < ps->n_vars; i++) {
		const char *name = ps->vars[i].name;
		if (name && strlen(name) == len && memcmp(name, start, len) == 0) {
			*out = ps->vars[i].value;
			return CUA_OK;
		}
	}
	cua_errf(ps->err, ps->errlen, "column %d: unknown name '%.*s%s'",
	         column(ps, start), (int)(len > SHOWN_NAME ? SHOWN_NAME : len),
	         start, len > SHOWN_NAME ? "..." : "");
	return CUA_E_PARSE;
}

/* unary := '-' unary | '(' sum ')' | number | name */
static enum cua_status parse_unary(struct parser *ps, int64_t *out)
{
	enum cua_status rc;
	skip_space(ps);
	const char *at = ps->p;
	if (*at == '-') {
		if ((rc = enter(ps)) != CUA_OK)
			return rc;
		ps->p++;
		int64_t v;
		if ((rc = parse_unary(ps, &v)) != CUA_OK)
			return rc;
		ps->depth--;
		if (__builtin_sub_overflow((int64_t)0, v, out)) {
			cua_errf(ps->err, ps->errlen, "column %d: overflow in unary '-'",
			         column(ps, at));
			return CUA_E_INVALID;
		}
		return CUA_OK;
	}
	if (*at == '(') {
		if ((rc = enter(ps)) != CUA_OK)
			return rc;
		ps->p++;
		if ((rc = parse_sum(ps, out)) != CUA_OK)
			return rc;
		skip_space(ps);
		if (*ps->p != ')')
			return syntax_error(ps, "')'");
		ps->p++;
		ps->depth--;
		return CUA_OK;
	}
	if (isdigit((unsigned char)*at))
		return parse_number(ps, out);
	if (is_name_start(*at))
		return parse_name(ps, out);
	return syntax_error(ps, "a number, a name or '('");
}

/* product := unary (('*' | '/' | '%') unary)* */
static enum cua_status parse_product(struct parser *ps, int64_t *out)
{
	enum cua_status rc;
	int64_t acc;
	if ((rc = parse_unary(ps, &acc)) != CUA_OK)
		return rc;
	for (;;) {
		skip_space(ps);
		const char *at = ps->p;
		char op = *at;
		if (op != '*' && op != '/' && op != '%')
			break;
		ps->p++;
		int64_t rhs;
		if ((rc = parse_unary(ps, &rhs)) != CUA_OK)
			return rc;
		bool overflow = false;
		if (op == '*') {
			overflow = __builtin_mul_overflow(acc, rhs, &acc);
		} else if (rhs == 0) {
			cua_errf(ps->err, ps->errlen, "column %d: division by zero",
			         column(ps, at));
			return CUA_E_INVALID;
		} else if (rhs == -1) {
			/* INT64_MIN / -1 overflows; x % -1 is 0 for every x. */
			if (op == '/')
				overflow = __builtin_sub_overflow((int64_t)0, acc, &acc);
			else
				acc = 0;
		} else {
			acc = op == '/' ? acc / rhs : acc % rhs;
		}
		if (overflow) {
			cua_errf(ps->err, ps->errlen, "column %d: overflow in '%c'",
			         column(ps, at), op);
			return CUA_E_INVALID;
		}
	}
	*out = acc;
	return CUA_OK;
}

/* sum := product (('+' | '-') product)* */
static enum cua_status parse_sum(struct parser *ps, int64_t *out)
{
	enum cua_status rc;
	int64_t acc;
	if ((rc = parse_product(ps, &acc)) != CUA_OK)
		return rc;
	for (;;) {
		skip_space(ps);
		const char *at = ps->p;
		char op = *at;
		if (op != '+' && op != '-')
			break;
		ps->p++;
		int64_t rhs;
		if ((rc = parse_product(ps, &rhs)) != CUA_OK)
			return rc;
		bool overflow = op == '+' ? __builtin_add_overflow(acc, rhs, &acc)
		                          : __builtin_sub_overflow(acc, rhs, &acc);
		if (overflow) {
			cua_errf(ps->err, ps->errlen, "column %d: overflow in '%c'",
			         column(ps, at), op);
			return CUA_E_INVALID;
		}
	}
	*out = acc;
	return CUA_OK;
}

enum cua_status cua_expr_eval(const char *expr, const struct cua_expr_binding *vars,
                              int n_vars, int64_t *out, char *err, size_t errlen)
{
	*out = 0;
	if (!expr) {
		cua_errf(err, errlen, "column 1: empty expression");
		return CUA_E_PARSE;
	}
	struct parser ps = {
		.src = expr, .p = expr, .vars = vars, .n_vars = vars ? n_vars : 0,
		.err = err, .errlen = errlen,
	};
	skip_space(&ps);
	if (*ps.p == '\0') {
		cua_errf(err, errlen, "column %d: empty expression", column(&ps, ps.p));
		return CUA_E_PARSE;
	}
	int64_t v;
	enum cua_status rc = parse_sum(&ps, &v);
	if (rc != CUA_OK)
		return rc;
	skip_space(&ps);
	if (*ps.p != '\0') {
		char what[32];
		describe(ps.p, what, sizeof(what));
		cua_errf(err, errlen, "column %d: unexpected %s after the expression",
		         column(&ps, ps.p), what);
		return CUA_E_PARSE;
	}
	*out = v;
	return CUA_OK;
}
