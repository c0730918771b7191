/* test-accuracy.c — precision by accuracy (harness/judge/accuracy.h): the
 * rule the judge applies to every fp32-strict output, fed here with outputs of
 * real arithmetic on the CPU — fp32 in several summation orders (which must
 * pass), TF32, fp16 and bf16 rounding, truncation and stochastic rounding of
 * the inputs, bf16 intermediates (which must fail), and split-precision
 * products (which must pass, being as accurate as fp32). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "judge/accuracy.h"
#include "rng.h"

/* ---- arithmetic ------------------------------------------------------------ */

/* x rounded to `bits` explicit mantissa bits: to nearest, ties away (the
 * judge's round_mantissa, TF32's cvt.rna), or toward zero, or stochastically. */
enum mode { RN, RZ, SR };
static uint64_t sr_state = 1;
static float round_bits(float x, int bits, enum mode m)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	uint32_t drop = 23 - (uint32_t)bits, mask = (1u << drop) - 1u;
	if (m == RN)
		u += 1u << (drop - 1);
	else if (m == SR)
		u += (uint32_t)(cua_mix64(sr_state++) >> 40) & mask;
	u &= ~mask;
	memcpy(&x, &u, 4);
	return x;
}

#define M 48
#define N 48
#define K 768

static float A[M][K], B[K][N];

static void fill(bool centred, uint64_t seed)
{
	struct cua_rng_key key;
	cua_rng_public(seed, &key);
	double lo = centred ? -1 : 0;
	for (int m = 0; m < M; m++)
		for (int k = 0; k < K; k++)
			A[m][k] = (float)cua_rng_value(&key, 0, CUA_RNG_UNIFORM, lo, 1, 1,
			                               (uint64_t)(m * K + k));
	for (int k = 0; k < K; k++)
		for (int n = 0; n < N; n++)
			B[k][n] = (float)cua_rng_value(&key, 1, CUA_RNG_UNIFORM, lo, 1, 1,
			                               (uint64_t)(k * N + n));
}

enum algo {
	EXACT,          /* double: the oracle */
	EXACT_ROUNDED,  /* double on inputs rounded to `bits`: the oracle's r' */
	FP32_SEQ,       /* fp32 FMA chain over k: the naive reference */
	FP32_PAIRWISE,  /* fp32 pairwise sum: a library-like checker */
	FP32_KAHAN,     /* compensated fp32 */
	ROUNDED_IN,     /* inputs rounded (mode, bits), exact products, fp32 accumulation:
	                 * what a tensor core does */
	SPLIT3,         /* hi/lo split of both operands at `bits`, three products */
	BF16_PARTIALS,  /* fp32 products, partial sums of 64 stored as bf16 (an intermediate) */
};

static double run(enum algo a, int m, int n, int bits, enum mode md)
{
	if (a == EXACT || a == EXACT_ROUNDED) {
		double s = 0;
		for (int k = 0; k < K; k++) {
			double x = A[m][k], y = B[k][n];
			if (a == EXACT_ROUNDED) {
				x = round_bits(A[m][k], bits, RN);
				y = round_bits(B[k][n], bits, RN);
			}
			s += x * y;
		}
		return s;
	}
	if (a == FP32_PAIRWISE) {
		float v[K];
		for (int k = 0; k < K; k++)
			v[k] = A[m][k] * B[k][n];
		for (int w = 1; w < K; w *= 2)
			for (int k = 0; k + w < K; k += 2 * w)
				v[k] = v[k] + v[k + w];
		return v[0];
	}
	float acc = 0, comp = 0, part = 0;
	for (int k = 0; k < K; k++) {
		float x = A[m][k], y = B[k][n];
		switch (a) {
		case FP32_SEQ: acc = fmaf(x, y, acc); break;
		case FP32_KAHAN: {
			float t = x * y - comp, s2 = acc + t;
			comp = (s2 - acc) - t;
			acc = s2;
			break;
		}
		case ROUNDED_IN:
			acc += round_bits(x, bits, md) * round_bits(y, bits, md);
			break;
		case SPLIT3: {
			float xh = round_bits(x, bits, RN), yh = round_bits(y, bits, RN);
			float xl = round_bits(x - xh, bits, RN), yl = round_bits(y - yh, bits, RN);
			acc += xh * yh + (xh * yl + xl * yh);
			break;
		}
		case BF16_PARTIALS:
			part = fmaf(x, y, part);
			if (k % 64 == 63) {
				acc += round_bits(part, 7, RN);
				part = 0;
			}
			break;
		default: break;
		}
	}
	return acc + part;
}

/* The sums the judge gathers, for candidate `c` against checker `chk`, with
 * the rounding at `bits`. */
static struct cua_accuracy_result judge(enum algo c, int cbits, enum mode cm, enum algo chk,
                                    int bits)
{
	struct cua_accuracy_sums s = {0};
	for (int m = 0; m < M; m++)
		for (int n = 0; n < N; n++) {
			double r = run(EXACT, m, n, 0, RN), r2 = run(EXACT_ROUNDED, m, n, bits, RN);
			double e = run(c, m, n, cbits, cm) - r, d = r2 - r;
			double q = run(chk, m, n, 0, RN) - r;
			s.ee += e * e;
			s.dd += d * d;
			s.ed += e * d;
			s.kk += q * q;
			s.n += 1;
		}
	struct cua_accuracy_result res;
	cua_accuracy_decide(&s, &res);
	return res;
}

#define PASSES(r, what)                                                                 \
	cr_expect(!(r).corr_fail && !(r).mag_fail,                                      \
	          what ": rho %.3f ± %.3f, error %.3g of the rounding's (checker %.3g), "   \
	          "exposed %d", (r).rho, (r).rho_sd, (r).err_ratio, (r).chk_ratio,          \
	          (r).exposed)
#define FAILS(r, what)                                                                  \
	cr_expect((r).corr_fail || (r).mag_fail,                                        \
	          what ": rho %.3f ± %.3f, error %.3g of the rounding's (checker %.3g), "   \
	          "exposed %d", (r).rho, (r).rho_sd, (r).err_ratio, (r).chk_ratio,          \
	          (r).exposed)

TestSuite(accuracy, .init = NULL);

Test(accuracy, fp32_in_any_summation_order_passes)
{
	for (int centred = 0; centred < 2; centred++) {
		fill(centred, 1);
		PASSES(judge(FP32_SEQ, 0, RN, FP32_PAIRWISE, 10), "sequential FMA");
		PASSES(judge(FP32_PAIRWISE, 0, RN, FP32_SEQ, 10), "pairwise, naive checker");
		PASSES(judge(FP32_KAHAN, 0, RN, FP32_PAIRWISE, 10), "compensated");
		PASSES(judge(FP32_SEQ, 0, RN, FP32_SEQ, 10), "the checker itself");
	}
}

Test(accuracy, tf32_and_fp16_inputs_fail_by_correlation_on_any_inputs)
{
	for (int centred = 0; centred < 2; centred++) {
		fill(centred, 2);
		struct cua_accuracy_result r = judge(ROUNDED_IN, 10, RN, FP32_PAIRWISE, 10);
		FAILS(r, "TF32 (round to nearest)");
		cr_expect(r.corr_fail && r.rho > 0.9 && r.explained > 0.9, "rho %.3f, explained %.2f",
		          r.rho, r.explained);
	}
}

Test(accuracy, truncated_tf32_inputs_fail_by_magnitude_where_exposed)
{
	/* (on all-positive inputs their bias, 2^-10 relative, exceeds the tolerance's
	 * rtol instead: the element-wise check catches them there) */
	fill(true, 2);
	struct cua_accuracy_result r = judge(ROUNDED_IN, 10, RZ, FP32_PAIRWISE, 10);
	cr_expect(r.exposed && r.mag_fail, "error %.3g of the rounding's", r.err_ratio);
}

Test(accuracy, bf16_inputs_fail_in_a_strict_task_and_in_a_tf32_task)
{
	fill(true, 3);
	FAILS(judge(ROUNDED_IN, 7, RN, FP32_PAIRWISE, 10), "bf16, strict");
	for (int centred = 0; centred < 2; centred++) {
		fill(centred, 3);
		FAILS(judge(ROUNDED_IN, 7, RN, FP32_PAIRWISE, 7), "bf16, tf32-allowed");
	}
}

Test(accuracy, tf32_passes_a_tf32_allowed_task)
{
	for (int centred = 0; centred < 2; centred++) {
		fill(centred, 4);
		PASSES(judge(ROUNDED_IN, 10, RN, FP32_PAIRWISE, 7), "TF32 against bf16 rounding");
	}
}

Test(accuracy, stochastic_rounding_leaves_no_correlation_but_fails_by_magnitude)
{
	fill(true, 5);
	struct cua_accuracy_result r = judge(ROUNDED_IN, 10, SR, FP32_PAIRWISE, 10);
	cr_expect(!r.corr_fail, "rho %.3f ± %.3f: stochastic rounding is uncorrelated", r.rho,
	          r.rho_sd);
	cr_expect(r.exposed && r.mag_fail, "error %.3g of the rounding's, exposed %d",
	          r.err_ratio, r.exposed);
}

Test(accuracy, bf16_intermediates_fail_by_magnitude)
{
	fill(true, 6);
	FAILS(judge(BF16_PARTIALS, 0, RN, FP32_PAIRWISE, 10), "bf16 partial sums");
}

Test(accuracy, split_precision_products_are_as_accurate_as_fp32_and_pass)
{
	for (int centred = 0; centred < 2; centred++) {
		fill(centred, 7);
		PASSES(judge(SPLIT3, 10, RN, FP32_PAIRWISE, 10), "3xTF32");
	}
}

Test(accuracy, an_output_the_rounding_does_not_change_is_not_judged)
{
	struct cua_accuracy_sums s = { .ee = 1e-20, .kk = 0, .dd = 0, .ed = 0, .n = 100 };
	struct cua_accuracy_result r;
	cua_accuracy_decide(&s, &r);
	cr_expect(!r.judged && !r.corr_fail && !r.mag_fail);
}

Test(accuracy, too_little_signal_abstains_rather_than_guessing)
{
	/* rho 0.5 from three elements with a large residual: not significant */
	struct cua_accuracy_sums s = { .ee = 3.0, .kk = 0, .dd = 1.0, .ed = 0.5, .n = 3 };
	struct cua_accuracy_result r;
	cua_accuracy_decide(&s, &r);
	cr_expect(r.judged && !r.corr_fail, "rho %.2f ± %.2f", r.rho, r.rho_sd);
	/* and an error d explains little of is not rounded inputs, however significant */
	struct cua_accuracy_sums big = { .ee = 4e6, .kk = 0, .dd = 1e6, .ed = 4e5, .n = 1e6 };
	cua_accuracy_decide(&big, &r);
	cr_expect(r.rho - 6 * r.rho_sd > 0.25 && r.explained < 0.5 && !r.corr_fail,
	          "rho %.2f ± %.3f, explained %.2f", r.rho, r.rho_sd, r.explained);
}

/* Long sums of positive inputs: fp32's own accumulation error reaches the
 * size of TF32's rounding, and a sequential sum drops each addend's low bits on
 * a grid that passes through TF32's (ρ up to 0.43 at 16k terms): a correct
 * sequential sum must pass at every length. */
#define ROWS 400
static void positive_sums(int len, double lo, struct cua_accuracy_sums *s)
{
	struct cua_rng_key key;
	cua_rng_public(9, &key);
	static float v[1 << 15];
	memset(s, 0, sizeof(*s));
	for (int row = 0; row < ROWS; row++) {
		double r = 0, r2 = 0;
		float seq = 0;
		for (int i = 0; i < len; i++) {
			float x = (float)cua_rng_value(&key, (uint32_t)row, CUA_RNG_UNIFORM, lo, 1, 1,
			                               (uint64_t)i);
			r += x;
			r2 += round_bits(x, 10, RN);
			seq += x;
			v[i] = x;
		}
		for (int w = 1; w < len; w *= 2)
			for (int i = 0; i + w < len; i += 2 * w)
				v[i] += v[i + w];
		double e = seq - r, d = r2 - r, q = v[0] - r;
		s->ee += e * e;
		s->dd += d * d;
		s->ed += e * d;
		s->kk += q * q;
		s->n++;
	}
}

Test(accuracy, a_long_sequential_sum_of_positive_inputs_passes_at_every_length)
{
	static const int lens[] = { 2048, 8192, 12000, 16384, 24000, 32768 };
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++)
		for (int half = 0; half < 2; half++) {
			struct cua_accuracy_sums s;
			struct cua_accuracy_result r;
			positive_sums(lens[k], half ? 0.5 : 0, &s);
			cua_accuracy_decide(&s, &r);
			cr_expect(!r.corr_fail && !r.mag_fail,
			          "%d terms of U(%g, 1): rho %.3f ± %.3f, explained %.2f, error %.3g, "
			          "exposed %d", lens[k], half ? 0.5 : 0.0, r.rho, r.rho_sd,
			          r.explained, r.err_ratio, r.exposed);
		}
}

/* Elementwise: fast-math fp32 passes, half precision fails. */
Test(accuracy, fast_math_fp32_passes_and_half_precision_fails_elementwise)
{
	struct cua_rng_key key;
	cua_rng_public(11, &key);
	struct cua_accuracy_sums fast = {0}, half = {0};
	for (int i = 0; i < 100000; i++) {
		float x = (float)cua_rng_value(&key, 0, CUA_RNG_NORMAL, 0, 2, 1, (uint64_t)i);
		double r = 1 / (1 + exp(-(double)x));
		double r2 = 1 / (1 + exp(-(double)round_bits(x, 10, RN)));
		float cf = 1 / (1 + expf(-x));                       /* fp32 libm */
		float xh = round_bits(x, 10, RN);                   /* fp16's mantissa */
		float ch = round_bits(1 / (1 + expf(-xh)), 10, RN);
		double q = (float)(1 / (1 + exp(-(double)x))) - r;  /* correctly rounded fp32 */
		double d = r2 - r, e1 = cf - r, e2 = ch - r;
		fast.ee += e1 * e1; fast.dd += d * d; fast.ed += e1 * d; fast.kk += q * q; fast.n++;
		half.ee += e2 * e2; half.dd += d * d; half.ed += e2 * d; half.kk += q * q; half.n++;
	}
	struct cua_accuracy_result r;
	cua_accuracy_decide(&fast, &r);
	PASSES(r, "fp32 sigmoid");
	cua_accuracy_decide(&half, &r);
	FAILS(r, "fp16 sigmoid");
}
