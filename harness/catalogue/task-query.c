/* task-query.c — what a loaded task answers (harness/catalogue/task.h): its timed
 * shape set, its expressions and tensor shapes in a shape set, what a dump of a
 * shape set writes, the segment of a layered input at an element, an init in
 * words. task.c loads and validates; this file never sees task.json. */
#include "catalogue/task.h"
#include "catalogue/expr.h"

#include <stdio.h>
#include <string.h>

const struct cua_segment *cua_segment_at(const struct cua_tensor_spec *spec, int64_t index)
{
	int lo = 0, hi = spec->n_segments - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		const struct cua_segment *g = &spec->segments[mid];
		if (index < g->offset)
			hi = mid - 1;
		else if (index >= g->offset + g->numel)
			lo = mid + 1;
		else
			return g;
	}
	return NULL;
}

void cua_init_describe(const struct cua_init *in, char *buf, size_t len)
{
	switch (in->dist) {
	case CUA_DIST_UNIFORM: snprintf(buf, len, "U(%.6g, %.6g)", in->a, in->b); break;
	case CUA_DIST_NORMAL: snprintf(buf, len, "N(%.6g, %.6g^2)", in->a, in->b); break;
	case CUA_DIST_INT: snprintf(buf, len, "int[%.0f, %.0f]", in->a, in->b); break;
	case CUA_DIST_BERNOULLI: snprintf(buf, len, "bernoulli(%.6g)", in->a); break;
	case CUA_DIST_CONST: snprintf(buf, len, "const %.6g", in->a); break;
	default: snprintf(buf, len, "?");
	}
}

int cua_task_timed_shape(const struct cua_task *t)
{
	for (int i = 0; i < t->n_shapes; i++)
		if (t->shapes[i].timed)
			return i;
	CUA_ASSERT(!"a loaded task has a timed shape set");
	return -1;
}

enum cua_status cua_task_eval(const struct cua_task *t, int shape, const char *expr,
                              int64_t *out, char *err, size_t errlen)
{
	struct cua_expr_binding vars[2 * CUA_MAX_NAMED];
	int n = 0;
	*out = 0;
	if (shape < 0 || shape >= t->n_shapes) {
		cua_errf(err, errlen, "no shape set %d (the task has %d)", shape, t->n_shapes);
		return CUA_E_INVALID;
	}
	const struct cua_shape_set *set = &t->shapes[shape];
	for (int i = 0; i < set->n_dims; i++)
		vars[n++] = (struct cua_expr_binding){set->dims[i].name, set->dims[i].value};
	for (int i = 0; i < t->n_params; i++)
		if (t->params[i].is_int)
			vars[n++] = (struct cua_expr_binding){t->params[i].name, (int64_t)t->params[i].value};
	return cua_expr_eval(expr, vars, n, out, err, errlen);
}

enum cua_status cua_task_tensor_shape(const struct cua_task *t, int shape,
                                      const struct cua_tensor_spec *spec,
                                      int64_t dims[CUA_MAX_DIMS], char *err,
                                      size_t errlen)
{
	char msg[CUA_ERR_LEN];
	enum cua_status rc = CUA_OK;
	memset(dims, 0, CUA_MAX_DIMS * sizeof(dims[0]));
	for (int k = 0; k < spec->ndim; k++) {
		rc = cua_task_eval(t, shape, spec->shape[k], &dims[k], msg, sizeof(msg));
		if (rc != CUA_OK) {
			cua_errf(err, errlen, "%s.shape[%d]: %s", spec->name, k, msg);
			break;
		}
		if (dims[k] < 1) {
			cua_errf(err, errlen, "%s.shape[%d]: is %lld (must be >= 1)", spec->name, k,
			         (long long)dims[k]);
			rc = CUA_E_INVALID;
			break;
		}
	}
	if (rc != CUA_OK)
		memset(dims, 0, CUA_MAX_DIMS * sizeof(dims[0]));
	return rc;
}

int64_t cua_task_dump_bytes(const struct cua_task *t, int shape, int64_t *largest)
{
	int64_t total = 0, most = 0;
	for (int k = 0; k < t->n_inputs + t->n_outputs; k++) {
		bool in = k < t->n_inputs;
		const struct cua_tensor_spec *sp = in ? &t->inputs[k] : &t->outputs[k - t->n_inputs];
		int64_t dims[CUA_MAX_DIMS], n = 1;
		if (cua_task_tensor_shape(t, shape, sp, dims, NULL, 0) != CUA_OK)
			return -1;
		for (int d = 0; d < sp->ndim; d++)
			n *= dims[d];
		bool fl = sp->dtype == CUA_F32 || sp->dtype == CUA_F64 || sp->dtype == CUA_F16 ||
		          sp->dtype == CUA_BF16;
		int64_t b = n * (int64_t)(in || !fl ? cua_dtype_size(sp->dtype) : sizeof(double));
		total += b;
		most = b > most ? b : most;
	}
	if (largest)
		*largest = most;
	return total;
}

bool cua_task_dumps_shape(const struct cua_task *t, int shape)
{
	if (shape != cua_task_timed_shape(t))
		return true;
	int64_t bytes = cua_task_dump_bytes(t, shape, NULL);
	return bytes >= 0 && bytes <= CUA_DUMP_TIMED_MAX;
}

int64_t cua_task_dump_file_max(const struct cua_task *t)
{
	int64_t file_max = 0;
	for (int sh = 0; sh < t->n_shapes; sh++) {
		int64_t most = 0;
		if (cua_task_dumps_shape(t, sh) && cua_task_dump_bytes(t, sh, &most) >= 0 &&
		    most > file_max)
			file_max = most;
	}
	return file_max;
}
