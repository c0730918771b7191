/* gen.cuh — the judge's input kernels (included by the judge's tensor.cuh): a tensor
 * generated from a key, or checked bit for bit against what the key generates,
 * and an input rounded to a coarser precision for the precision check.
 *
 * A tensor is a list of segments covering it (a plain input is one; a layered
 * input one per parameter and one, constant zero, per gap between them), each
 * its own stream of rng.h. A warp takes 32 consecutive ChaCha blocks, one per
 * lane, keeps their words in shared memory and writes the 32 × 16/wpe elements
 * they hold with consecutive lanes on consecutive elements: one block computed
 * per 16 elements (not one per element), and coalesced stores. Eight rounds of
 * ChaCha cost about 25 integer instructions a word; splitmix64 as used before
 * cost about as much per element (three 64-bit mixes). bench/gen-bench.cu
 * measures both. */
#ifndef CUA_GEN_CUH
#define CUA_GEN_CUH

#include "rng.h"

/* One segment: elements [offset, offset + numel) of the tensor are elements
 * [0, numel) of stream `stream`; its blocks are numbered from block0 in the
 * tensor's block space (segments in order, each starting a new block). */
struct gen_seg {
	int64_t offset, numel, block0;
	double a, b;
	int dist;
	uint32_t stream;
};

#define GEN_WARPS 8   /* warps per thread block */

/* The segment of global block `blk`: binary search over block0. */
__device__ __forceinline__ int gen_find(const gen_seg *tab, int nseg, int64_t blk)
{
	int lo = 0, hi = nseg - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (tab[mid].block0 <= blk)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* VERIFY false: writes the tensor p. VERIFY true: counts the elements of p whose
 * bits differ from what the key generates into *bad, and writes what it
 * generates into `copy` too when that is not NULL (the judge's private copy, made
 * in the same pass). tab has nseg segments sorted by offset and block0; nblocks
 * is the last one's block0 plus its blocks. With one segment (a plain input, the
 * common case) everything per element is in registers: an element is
 * base·per + e, and the loop is the ChaCha rounds, the map and the store. */
template <typename T, bool VERIFY>
__global__ void __launch_bounds__(32 * GEN_WARPS)
gen_kernel(T *p, const gen_seg *tab, int nseg, int64_t nblocks, unsigned wpe,
           struct cua_rng_key key, unsigned long long *bad, T *copy = NULL)
{
	__shared__ uint32_t words[GEN_WARPS][32][CUA_RNG_BLOCK_WORDS + 1];
	__shared__ int segof[GEN_WARPS][32];
	const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
	const unsigned per = CUA_RNG_BLOCK_WORDS / wpe;
	const bool single = nseg == 1;
	const gen_seg one = tab[0];
	unsigned long long mine = 0;
	int64_t warps = (int64_t)gridDim.x * GEN_WARPS;

	for (int64_t base = ((int64_t)blockIdx.x * GEN_WARPS + wid) * 32; base < nblocks;
	     base += warps * 32) {
		int64_t blk = base + lane;
		int g = -1;
		if (blk < nblocks) {
			g = single ? 0 : gen_find(tab, nseg, blk);
			const gen_seg *sp = single ? &one : &tab[g];
			uint32_t w[CUA_RNG_BLOCK_WORDS];
			if (sp->dist == CUA_RNG_CONST) {
				for (int k = 0; k < CUA_RNG_BLOCK_WORDS; k++)
					w[k] = 0;
			} else
				cua_rng_block(&key, sp->stream, (uint64_t)(blk - sp->block0), w);
			for (int k = 0; k < CUA_RNG_BLOCK_WORDS; k++)
				words[wid][lane][k] = w[k];
		}
		segof[wid][lane] = g;
		__syncwarp();
		for (unsigned r = 0; r < per; r++) {
			unsigned e = (unsigned)lane + 32u * r, q = e / per, j = e % per;
			int64_t at;
			T v;
			if (single) {
				at = base * per + e;
				if (base + q >= nblocks || at >= one.numel)
					continue;
				v = (T)cua_rng_map(one.dist, one.a, one.b, words[wid][q], j, wpe);
			} else {
				int sg = segof[wid][q];
				if (sg < 0)
					continue;
				const gen_seg sgm = tab[sg];
				int64_t local = (base + q - sgm.block0) * per + j;
				if (local >= sgm.numel)
					continue;
				v = (T)cua_rng_map(sgm.dist, sgm.a, sgm.b, words[wid][q], j, wpe);
				at = sgm.offset + local;
			}
			if (VERIFY) {
				T got = p[at];
				const unsigned char *x = (const unsigned char *)&got,
				                    *y = (const unsigned char *)&v;
				bool same = true;
				for (unsigned k = 0; k < sizeof(T); k++)
					same &= x[k] == y[k];
				mine += !same;
				if (copy)
					copy[at] = v;
			} else
				p[at] = v;
		}
		__syncwarp();
	}
	if (VERIFY && mine)
		atomicAdd(bad, mine);
}

/* Rounds every finite element to `bits` explicit mantissa bits, to nearest with
 * ties away from zero (cvt.rna's rule: what TF32 conversion does), in place.
 * 10 bits is TF32 (and fp16's precision), 7 is bf16. */
__device__ __forceinline__ float round_mantissa(float x, int bits)
{
	uint32_t u = __float_as_uint(x);
	if ((u & 0x7f800000u) == 0x7f800000u)
		return x;   /* inf, NaN */
	uint32_t drop = 23 - bits, half = 1u << (drop - 1);
	u = (u + half) & ~((1u << drop) - 1u);
	return __uint_as_float(u);
}

template <typename T>
__global__ void round_kernel(T *p, int64_t n, int bits)
{
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
	     i += (int64_t)gridDim.x * blockDim.x)
		p[i] = (T)round_mantissa((float)p[i], bits);
}

#endif /* CUA_GEN_CUH */
