/* params.cuh — the host cursor over a layered input (Level 3 weights). Header-only.
 *
 * A Level 3 network's weights reach the kernel as one flat f32 tensor (`params`)
 * whose layout task.json declares as a layer list: named segments in PyTorch
 * state_dict() order, laid end to end, each starting at a multiple of 64
 * elements (256 bytes), zero between them (docs/ADDING-A-TASK.md, "Layered
 * inputs"). A reference takes the segments in the task's order:
 *
 *     struct cua_par c;
 *     CUA_CHECK(cua_par_begin(&c, &in[1]));
 *     const float *w1 = cua_par_take(&c, 64 * 3 * 7 * 7);   // conv1.weight
 *     ...
 *     CUA_CHECK(cua_par_end(&c));                           // all of P, exactly
 *
 * Each take aligns the offset up to 64 first, so the numels alone walk the
 * layout; a take past the end sets `bad` and returns NULL, and cua_par_end
 * fails unless exactly P elements were consumed. A mismatch between task.json
 * and the reference is then an error at selftest, never a silent misread. The
 * pointers are device pointers into the tensor; nothing is copied. */
#ifndef CUA_COMMON_PARAMS_CUH
#define CUA_COMMON_PARAMS_CUH

#include "check.cuh"

#define CUA_PAR_ALIGN 64       /* elements; harness/task.h CUA_SEG_ALIGN */

struct cua_par {
	const float *base;     /* the layered input's data */
	int64_t n, off;        /* its P, and the element after the last take */
	int bad;               /* a take overran P or asked for < 1 element */
};

/* Starts a cursor over t, which must be a 1-D f32 tensor. */
static inline int cua_par_begin(struct cua_par *c, const struct cua_tensor *t)
{
	c->base = NULL;
	c->n = c->off = 0;
	c->bad = 1;
	CUA_CHECK(cua_check_tensor(t, CUA_F32, 1));
	c->base = (const float *)t->data;
	c->n = t->shape[0];
	c->bad = 0;
	return 0;
}

/* The next segment of numel elements (a device pointer), or NULL on overrun. */
static inline const float *cua_par_take(struct cua_par *c, int64_t numel)
{
	int64_t at = (c->off + CUA_PAR_ALIGN - 1) / CUA_PAR_ALIGN * CUA_PAR_ALIGN;
	if (c->bad || numel < 1 || at > c->n || numel > c->n - at) {
		c->bad = 1;
		return NULL;
	}
	c->off = at + numel;
	return c->base + at;
}

/* 0 when every take fit and the last ended exactly at P; else CUA_CHECK_E_SHAPE. */
static inline int cua_par_end(const struct cua_par *c)
{
	return !c->bad && c->off == c->n ? 0 : CUA_CHECK_E_SHAPE;
}

#endif /* CUA_COMMON_PARAMS_CUH */
