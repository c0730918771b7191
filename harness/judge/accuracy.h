/* accuracy.h — precision by accuracy: whether a kernel's output of an
 * fp32-strict (or tf32-allowed) task is as accurate as correct code of that
 * precision, whatever instructions produced it. Shared by the judge (which
 * gathers the sums on the device, accuracy.cuh) and the CPU tests (which feed
 * it outputs of fp32, TF32, bf16 and split-precision arithmetic).
 *
 * For one output of one case the judge has the candidate's output c, the fp64
 * oracle r on the case's inputs x, the oracle r' on x rounded to the coarser
 * precision the task forbids (TF32 — fp16 has the same 10-bit mantissa — for a
 * strict task; bf16 for a tf32-allowed one), and a trusted fp32 kernel's
 * output k on x (the task's checker). With e = c − r, d = r' − r (what the
 * best arithmetic of that precision gets wrong: exact arithmetic on rounded
 * inputs) and q = k − r:
 *
 *  - correlation: ρ = <e, d> / <d, d>. Arithmetic that rounds the inputs to 10
 *    or fewer mantissa bits (TF32 or fp16 tensor cores, bf16, conversions to
 *    half) carries d in its error: ρ ≈ 1 (≈ −0.5 when it truncates). Correct
 *    fp32 code rounds no input: its error is uncorrelated with d, whatever its
 *    summation order, and however large its error is — which holds where
 *    magnitudes cannot tell (long sums of positive inputs, where fp32's own
 *    accumulation error reaches TF32's). Fails when |ρ| exceeds RHO_MAX by Z
 *    standard errors and d explains at least R2_MIN of the error's energy
 *    (ρ²‖d‖²/‖e‖²); abstains when the output carries too little signal. The
 *    second condition is there because fp32 is not always free of the pattern:
 *    a sequential sum of 8k–32k positive inputs drops each addend's bits below
 *    its partial sum's ulp, a grid that passes through TF32's on the way, and
 *    shows ρ up to 0.43 — but with d explaining at most 0.19 of its error
 *    (tests/test-accuracy.c), where rounded inputs explain all of theirs.
 *    Truncated inputs (ρ ≈ −0.5, and a bias) explain only a quarter: they
 *    fail by magnitude, or by the tolerance, whose rtol their bias exceeds.
 *  - magnitude: where the task exposes reduced precision — rounding the inputs
 *    costs at least EXPOSED times the trusted fp32 kernel's error — the
 *    candidate's RMS error may be at most ERR_MAX of the rounding's. Catches
 *    reduced precision that leaves no correlation: stochastic rounding of the
 *    inputs, bf16 or fp16 intermediates. An fp32 candidate has EXPOSED ×
 *    ERR_MAX = 64 times the checker's error to spare there.
 * Split-precision products (3×TF32, 3×bf16) and compensated sums are as
 * accurate as fp32: they pass both. */
#ifndef CUA_ACCURACY_H
#define CUA_ACCURACY_H

#include <math.h>
#include <stdbool.h>

#define CUA_ACCURACY_RHO_MAX 0.25
#define CUA_ACCURACY_Z 6.0
#define CUA_ACCURACY_R2_MIN 0.5
#define CUA_ACCURACY_EXPOSED 256.0
#define CUA_ACCURACY_ERR_MAX 0.25

/* Sums over the elements where every term is finite. */
struct cua_accuracy_sums {
	double ee;   /* Σ e² */
	double kk;   /* Σ q²: the trusted fp32 kernel's error */
	double dd;   /* Σ d²: the rounded inputs' */
	double ed;   /* Σ e·d */
	double n;    /* elements summed */
};

struct cua_accuracy_result {
	bool judged;      /* the rounding changed the output at all (dd > 0) */
	double rho, rho_sd;
	double explained; /* ρ²‖d‖²/‖e‖²: the share of the error d accounts for */
	double err_ratio; /* ‖e‖ / ‖d‖ */
	double chk_ratio; /* ‖q‖ / ‖d‖ */
	bool exposed;     /* ‖d‖ >= EXPOSED ‖q‖: the magnitude rule applies */
	bool corr_fail, mag_fail;
};

static inline void cua_accuracy_decide(const struct cua_accuracy_sums *s, struct cua_accuracy_result *r)
{
	r->judged = s->dd > 0 && s->n >= 1;
	r->rho = r->rho_sd = r->explained = r->err_ratio = r->chk_ratio = 0;
	r->exposed = r->corr_fail = r->mag_fail = false;
	if (!r->judged)
		return;
	r->rho = s->ed / s->dd;
	double resid = s->ee - s->ed * s->ed / s->dd;
	if (resid < 0)
		resid = 0;
	r->rho_sd = s->n > 1 ? sqrt(resid / (s->n - 1) / s->dd) : INFINITY;
	r->err_ratio = sqrt(s->ee / s->dd);
	r->chk_ratio = sqrt(s->kk / s->dd);
	r->explained = s->ee > 0 ? r->rho * r->rho * s->dd / s->ee : 0;
	r->corr_fail = fabs(r->rho) - CUA_ACCURACY_Z * r->rho_sd > CUA_ACCURACY_RHO_MAX &&
	               r->explained >= CUA_ACCURACY_R2_MIN;
	r->exposed = s->dd >= CUA_ACCURACY_EXPOSED * CUA_ACCURACY_EXPOSED * s->kk;
	r->mag_fail = r->exposed && s->ee > CUA_ACCURACY_ERR_MAX * CUA_ACCURACY_ERR_MAX * s->dd;
}

#endif /* CUA_ACCURACY_H */
