/* rng.h — the harness's input generator: a keyed pseudo-random function, the same
 * code on host and device.
 *
 * Element i of input stream s under key K is a pure function of (K, s, i): the
 * ChaCha block function (RFC 8439's, with CUA_RNG_ROUNDS rounds) keyed with K's
 * 256 bits, nonce (s, domain),
 * counter = the block of 16 32-bit words that holds i's draw, mapped to the
 * task's distribution. No state, so any element can be regenerated (the
 * input-mutation check does exactly that) and a public seed's inputs can be
 * reproduced anywhere.
 *
 * Why a cipher (until 2026-12-01 this was splitmix64 over a counter): every
 * step of splitmix64 is a bijection, so one element of an input gave back its
 * seed, and every seed derived from it — a kernel that saw the secret check
 * case knew every timed sample's inputs in advance (issue 24). ChaCha is a PRF:
 * outputs reveal nothing of the key. Eight rounds: the best published attacks
 * on ChaCha reach seven rounds, at a cost near exhaustive search (Aumasson,
 * "Too Much Crypto", 2019, argues eight are enough), and on the H200 twenty
 * made generation 3.7 times slower than splitmix64 (build/gen-bench: 4.43 ms
 * for ReLU's 800 M inputs against 1.21 ms), a cost every timed sample pays.
 * The block function is RFC 8439's with the round count a parameter: at 20 it
 * equals OpenSSL's ChaCha20 (tests/test-rng.c). Keys come from cua_rng_public() for
 * the public seeds (reproducible: tools/ and --dump), or from the OS per
 * evaluation, kept in the judge and split with cua_rng_derive() into one
 * independent key per check case, timed sample, warm-up and re-check: seeing
 * any input says nothing about any other. */
#ifndef CUA_RNG_H
#define CUA_RNG_H

#include <stdint.h>
#include <math.h>

#ifdef __CUDACC__
#define CUA_HD __host__ __device__ __forceinline__
#else
#define CUA_HD static inline
#endif

/* 64 bits of splitmix64's finaliser. Not for inputs (see above): a mixer for
 * what needs no secrecy (bootstrap resampling in metrics.c). */
CUA_HD uint64_t cua_mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A generator key: 256 bits, ChaCha20's key words in order (little-endian
 * bytes of the RFC's key). */
struct cua_rng_key {
	uint32_t w[8];
};

#define CUA_RNG_ROTL(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
#define CUA_RNG_QR(a, b, c, d)                                                     \
	do {                                                                       \
		a += b; d ^= a; d = CUA_RNG_ROTL(d, 16);                            \
		c += d; b ^= c; b = CUA_RNG_ROTL(b, 12);                            \
		a += b; d ^= a; d = CUA_RNG_ROTL(d, 8);                             \
		c += d; b ^= c; b = CUA_RNG_ROTL(b, 7);                             \
	} while (0)

#define CUA_RNG_ROUNDS 8

/* One ChaCha block of `rounds` rounds (an even number: 20 is RFC 8439's
 * ChaCha20): state words 12–15 are counter_lo, counter_hi, nonce_lo, nonce_hi
 * (RFC 8439's 32-bit counter and 96-bit nonce, read as OpenSSL's 16-byte IV:
 * the same 16 bytes). */
CUA_HD void cua_chacha_block(const struct cua_rng_key *k, uint32_t ctr_lo, uint32_t ctr_hi,
                             uint32_t nonce_lo, uint32_t nonce_hi, int rounds, uint32_t out[16])
{
	uint32_t x[16], s[16] = {
		0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u,   /* "expand 32-byte k" */
		k->w[0], k->w[1], k->w[2], k->w[3], k->w[4], k->w[5], k->w[6], k->w[7],
		ctr_lo, ctr_hi, nonce_lo, nonce_hi,
	};
	for (int i = 0; i < 16; i++)
		x[i] = s[i];
#ifdef __CUDA_ARCH__
#pragma unroll 4
#endif
	for (int r = 0; r < rounds / 2; r++) {
		CUA_RNG_QR(x[0], x[4], x[8], x[12]);
		CUA_RNG_QR(x[1], x[5], x[9], x[13]);
		CUA_RNG_QR(x[2], x[6], x[10], x[14]);
		CUA_RNG_QR(x[3], x[7], x[11], x[15]);
		CUA_RNG_QR(x[0], x[5], x[10], x[15]);
		CUA_RNG_QR(x[1], x[6], x[11], x[12]);
		CUA_RNG_QR(x[2], x[7], x[8], x[13]);
		CUA_RNG_QR(x[3], x[4], x[9], x[14]);
	}
	for (int i = 0; i < 16; i++)
		out[i] = x[i] + s[i];
}

/* Nonce domains: an input draw and a derived key never share a block. */
#define CUA_RNG_DOMAIN_DATA 0x61746164u   /* "data" */
#define CUA_RNG_DOMAIN_KEYS 0x7379656bu   /* "keys" */

/* What a derived key is for (the nonce's other half): each purpose has its own
 * sequence of keys, numbered by `index`. */
enum cua_rng_purpose {
	CUA_RNG_PUBLIC = 1,    /* a public seed's key (index: the seed) */
	CUA_RNG_CHECK = 2,     /* the secret check case of a shape set (index: the shape) */
	CUA_RNG_CALIB = 3,     /* a calibration sample */
	CUA_RNG_WARM = 4,      /* a warm-up sample */
	CUA_RNG_SAMPLE = 5,    /* a timed sample */
	CUA_RNG_RECHECK = 6,   /* the re-check after timing */
	CUA_RNG_CHOICE = 7,    /* the judge's own secret choices (which sample is spot-checked) */
};

/* The child key (purpose, index) of parent: the first 8 words of a ChaCha
 * block of the parent key. A PRF's outputs: no child reveals its parent or
 * another child. */
CUA_HD void cua_rng_derive(const struct cua_rng_key *parent, uint32_t purpose,
                           uint64_t index, struct cua_rng_key *child)
{
	uint32_t b[16];
	cua_chacha_block(parent, (uint32_t)index, (uint32_t)(index >> 32), purpose,
	                 CUA_RNG_DOMAIN_KEYS, CUA_RNG_ROUNDS, b);
	for (int i = 0; i < 8; i++)
		child->w[i] = b[i];
}

/* A public seed's key: derived from a fixed, published key ("cuarena inputs
 * v2", zero-padded), so anyone can regenerate the public cases' inputs. */
CUA_HD void cua_rng_public(uint64_t seed, struct cua_rng_key *out)
{
	const struct cua_rng_key pub = { { 0x72617563u, 0x20616e65u, 0x75706e69u,
	                                   0x76207374u, 0x00000032u, 0, 0, 0 } };
	cua_rng_derive(&pub, CUA_RNG_PUBLIC, seed, out);
}

/* Distribution codes mirror enum cua_dist in task.h. */
#define CUA_RNG_UNIFORM 0
#define CUA_RNG_NORMAL 1
#define CUA_RNG_INT 2
#define CUA_RNG_BERNOULLI 3
#define CUA_RNG_CONST 4

/* Layout of a stream: each element takes `wpe` words (1, or 2 for 8-byte
 * dtypes: 53-bit uniforms, 64-bit integer spans), so a block of 16 words holds
 * 16 / wpe consecutive elements. A normal draws its pair of uniforms from two
 * neighbouring elements' words (Box–Muller: the even one takes the cosine, the
 * odd one the sine), so every distribution has the same layout. */
#define CUA_RNG_BLOCK_WORDS 16

/* 2^-32 and 2^-53 */
#define CUA_RNG_U32 2.3283064365386963e-10
#define CUA_RNG_U53 1.1102230246251565e-16

/* A uniform in [0, 1) from element slot j's words of a block. */
CUA_HD double cua_rng_unit_at(const uint32_t *blk, unsigned j, unsigned wpe)
{
	if (wpe == 1)
		return (double)blk[j] * CUA_RNG_U32;
	uint64_t x = (uint64_t)blk[2 * j] | (uint64_t)blk[2 * j + 1] << 32;
	return (double)(x >> 11) * CUA_RNG_U53;
}

/* The value of element slot j (0 <= j < 16 / wpe) of a block, as a double
 * (integers are exact). */
CUA_HD double cua_rng_map(int dist, double a, double b, const uint32_t *blk, unsigned j,
                          unsigned wpe)
{
	if (dist == CUA_RNG_CONST)
		return a;
	if (dist == CUA_RNG_UNIFORM)
		return a + (b - a) * cua_rng_unit_at(blk, j, wpe);
	if (dist == CUA_RNG_NORMAL) {
		unsigned m = j & ~1u;
		double u1 = 1.0 - cua_rng_unit_at(blk, m, wpe);   /* (0, 1]: log() is finite */
		double u2 = cua_rng_unit_at(blk, m + 1, wpe);
		double r = sqrt(-2.0 * log(u1)), t = 6.283185307179586 * u2;
		return a + b * r * ((j & 1u) ? sin(t) : cos(t));
	}
	if (dist == CUA_RNG_INT) {
		uint64_t span = (uint64_t)((int64_t)b - (int64_t)a) + 1;
		uint64_t x = wpe == 1 ? blk[j]
		                      : ((uint64_t)blk[2 * j] | (uint64_t)blk[2 * j + 1] << 32);
		return (double)((int64_t)a + (int64_t)(span ? x % span : x));
	}
	return cua_rng_unit_at(blk, j, wpe) < a ? 1.0 : 0.0;   /* bernoulli(p = a) */
}

/* Block `blk` of stream `stream` under key k (the words its elements map from). */
CUA_HD void cua_rng_block(const struct cua_rng_key *k, uint32_t stream, uint64_t blk,
                          uint32_t out[16])
{
	cua_chacha_block(k, (uint32_t)blk, (uint32_t)(blk >> 32), stream, CUA_RNG_DOMAIN_DATA,
	                 CUA_RNG_ROUNDS, out);
}

/* Element `index` of stream `stream` as a double: one block computed for one
 * element (the device kernels share each block among its elements instead). */
CUA_HD double cua_rng_value(const struct cua_rng_key *k, uint32_t stream, int dist, double a,
                            double b, unsigned wpe, uint64_t index)
{
	uint32_t w[16];
	unsigned per = CUA_RNG_BLOCK_WORDS / wpe;
	cua_rng_block(k, stream, index / per, w);
	return cua_rng_map(dist, a, b, w, (unsigned)(index % per), wpe);
}

#endif /* CUA_RNG_H */
