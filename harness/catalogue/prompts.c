/* prompts.c — the prompt a task shows an agent, the prompt templates' hash and
 * their placeholders (prompts.h). */
#include "catalogue/prompts.h"
#include "catalogue/task.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

/* Max size of one template file. */
#define PROMPT_MAX (4u << 20)

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_md(const char *name)
{
	size_t n = strlen(name);
	return n > 3 && name[0] != '.' && !strcmp(name + n - 3, ".md");
}

void cua_prompts_dir(const char *root, char *buf, size_t len)
{
	static const char *const sub[] = {"data/prompts", "docs/prompts"};
	const char *r = root ? root : ".";
	struct stat st;
	if (!buf || !len)   /* (and gcc's UBSan build then knows buf is not NULL below) */
		return;
	for (size_t i = 0; i < CUA_ARRAY_LEN(sub); i++) {
		snprintf(buf, len, "%s/%s", r, sub[i]);
		if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
			return;
	}
	snprintf(buf, len, "%s/%s", r, sub[0]);   /* neither: named in the error */
}

enum cua_status cua_prompts_hash(const char *root, char out[65], char *err,
                                 size_t errlen)
{
	enum cua_status result = CUA_E_IO;
	char dir[CUA_PATH_LEN], path[CUA_PATH_BUF];
	char **names = NULL, *buf = NULL;
	size_t n = 0, cap = 0;
	struct cua_sha256 *h = NULL;
	struct dirent *de;
	DIR *d;

	out[0] = '\0';
	cua_prompts_dir(root, dir, sizeof(dir));
	d = opendir(dir);
	if (!d) {
		cua_errf(err, errlen, "%s: cannot open the prompt folder", dir);
		return CUA_E_NOT_FOUND;
	}
	while ((de = readdir(d))) {
		struct stat st;
		if (!is_md(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			names = cua_xrealloc(names, ncap * sizeof(*names));
			cap = ncap;
		}
		names[n++] = cua_xstrdup(de->d_name);
	}
	if (n == 0) {
		result = CUA_E_NOT_FOUND;
		cua_errf(err, errlen, "%s: no .md prompt template", dir);
		goto out;
	}
	qsort(names, n, sizeof(*names), name_cmp);
	h = cua_sha256_new();
	for (size_t i = 0; i < n; i++) {
		char size[32];
		size_t len;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		result = cua_read_file(path, PROMPT_MAX, &buf, &len, err, errlen);
		if (result != CUA_OK) {
			result = CUA_E_IO;
			goto out;
		}
		snprintf(size, sizeof(size), "%zu", len);
		cua_sha256_update(h, names[i], strlen(names[i]) + 1);
		cua_sha256_update(h, size, strlen(size) + 1);
		cua_sha256_update(h, buf, len);
		free(buf);
		buf = NULL;
	}
	cua_sha256_final(h, out);
	h = NULL;
	result = CUA_OK;
out:
	if (h) {
		char scratch[65];
		cua_sha256_final(h, scratch);     /* frees h */
	}
	if (result != CUA_OK)
		out[0] = '\0';
	free(buf);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return result;
}

/* The index of the key that `p` (just after "{{") names, up to "}}", or -1. */
static long find_key(const char *p, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t kl = strlen(keys[i]);
		if (!strncmp(p, keys[i], kl) && p[kl] == '}' && p[kl + 1] == '}')
			return (long)i;
	}
	return -1;
}

char *cua_prompts_fill(const char *tmpl, const char *const *keys,
                      const char *const *vals, size_t n)
{
	size_t len = 0;
	char *out = NULL, *o = NULL;

	/* Two passes over the same rules: measure, then write. */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			o = out = cua_xmalloc(len + 1);
		}
		for (const char *p = tmpl; *p;) {
			long k = p[0] == '{' && p[1] == '{' ? find_key(p + 2, keys, n) : -1;
			const char *piece = p;
			size_t pl = 1;

			if (k >= 0) {
				piece = vals[k] ? vals[k] : "";
				pl = strlen(piece);
				p += 2 + strlen(keys[k]) + 2;
			} else {
				p++;
			}
			if (pass == 0) {
				len += pl;
			} else {
				memcpy(o, piece, pl);
				o += pl;
			}
		}
	}
	*o = '\0';
	return out;
}

static void tensor_line(struct cua_buf *b, const struct cua_task *t, int shape,
                        const struct cua_tensor_spec *s)
{
	int64_t dims[CUA_MAX_DIMS];
	cua_buf_printf(b, "    %s: %s [", s->name, cua_dtype_name(s->dtype));
	if (cua_task_tensor_shape(t, shape, s, dims, NULL, 0) == CUA_OK)
		for (int i = 0; i < s->ndim; i++)
			cua_buf_printf(b, "%s%lld", i ? ", " : "", (long long)dims[i]);
	cua_buf_printf(b, "]\n");
}

/* The layout table of a layered input: what the agent needs to find each weight. */
static void layout_table(struct cua_buf *b, const struct cua_tensor_spec *s)
{
	const struct cua_segment *last = &s->segments[s->n_segments - 1];
	int64_t p = last->offset + last->numel;
	char init[64];
	cua_buf_printf(b, "\n### Layout of `%s`: %d segments, P = %lld floats (%lld bytes)\n"
	               "Laid end to end in this order (PyTorch state_dict() names and order), "
	               "each starting at a multiple of %d elements (%d bytes), so float4 loads "
	               "of a segment need no checks; the padding between segments is zero. "
	               "Offsets are in elements from the start of `%s`.\n\n"
	               "| # | name | shape | offset | init |\n|---|---|---|---|---|\n",
	               s->name, s->n_segments, (long long)p, (long long)p * 4, CUA_SEG_ALIGN,
	               CUA_SEG_ALIGN * 4, s->name);
	for (int k = 0; k < s->n_segments; k++) {
		const struct cua_segment *g = &s->segments[k];
		cua_init_describe(&g->init, init, sizeof(init));
		cua_buf_printf(b, "| %d | %s | [", k, g->name);
		for (int d = 0; d < g->ndim; d++)
			cua_buf_printf(b, "%s%lld", d ? ", " : "", (long long)g->shape[d]);
		cua_buf_printf(b, "] | %lld | %s |\n", (long long)g->offset, init);
	}
}

char *cua_prompts_render(const struct cua_task *t, const char *root)
{
	struct cua_buf b = {0};
	char path[CUA_PATH_BUF], *src = NULL;

	cua_buf_printf(&b, "# Task %s: %s\n\n%s\n\n", t->id, t->title, t->description);
	if (t->source_file)
		cua_buf_printf(&b, "Source: KernelBench %s, KernelBench/%s.\n\n", t->source_version,
		               t->source_file);
	cua_buf_printf(&b, "## Tensors\n");
	for (int i = 0; i < t->n_inputs; i++) {
		const struct cua_tensor_spec *s = &t->inputs[i];
		cua_buf_printf(&b, "- input  `%s`: %s [", s->name, cua_dtype_name(s->dtype));
		for (int k = 0; k < s->ndim; k++)
			cua_buf_printf(&b, "%s%s", k ? ", " : "", s->shape[k]);
		cua_buf_printf(&b, "]");
		if (s->ignored)
			cua_buf_printf(&b, " (no output depends on it: %s)", s->ignored);
		cua_buf_printf(&b, "\n");
	}
	for (int i = 0; i < t->n_outputs; i++) {
		const struct cua_tensor_spec *s = &t->outputs[i];
		cua_buf_printf(&b, "- output `%s`: %s [", s->name, cua_dtype_name(s->dtype));
		for (int k = 0; k < s->ndim; k++)
			cua_buf_printf(&b, "%s%s", k ? ", " : "", s->shape[k]);
		cua_buf_printf(&b, "]\n");
	}
	for (int i = 0; i < t->n_inputs; i++)
		if (t->inputs[i].n_segments)
			layout_table(&b, &t->inputs[i]);
	if (t->memory_mb)
		cua_buf_printf(&b, "\nPeak device memory of one evaluation (the harness's copies "
		               "included): %lld MiB.\n", (long long)t->memory_mb);
	if (t->n_params) {
		cua_buf_printf(&b, "\nFixed parameters:");
		for (int i = 0; i < t->n_params; i++)
			cua_buf_printf(&b, " %s = %.17g%s", t->params[i].name, t->params[i].value,
			          i + 1 < t->n_params ? "," : "\n");
	}
	cua_buf_printf(&b, "\n## Shape sets (your kernel must be correct for every one)\n");
	for (int s = 0; s < t->n_shapes; s++) {
		const struct cua_shape_set *ss = &t->shapes[s];
		cua_buf_printf(&b, "- %s%s:", ss->name, ss->timed ? " (timed)" : " (checked)");
		for (int d = 0; d < ss->n_dims; d++)
			cua_buf_printf(&b, " %s=%lld", ss->dims[d].name, (long long)ss->dims[d].value);
		cua_buf_printf(&b, "\n");
		for (int i = 0; i < t->n_inputs; i++)
			tensor_line(&b, t, s, &t->inputs[i]);
		for (int i = 0; i < t->n_outputs; i++)
			tensor_line(&b, t, s, &t->outputs[i]);
	}
	cua_buf_printf(&b, "\n## Precision and correctness\n"
	              "Precision policy: %s. %s\n"
	              "Each output element must satisfy |out - ref| <= atol + rtol*|ref| "
	              "with atol = %g, rtol = %g, where ref is computed in float64, on "
	              "several random seeds (one secret) for every shape set, and again "
	              "after timing. Inputs are read-only; every output element must be "
	              "written.\n",
	          cua_precision_name(t->precision),
	          t->precision == CUA_PREC_FP32_STRICT
	              ? "Compute with float32 accuracy. Precision is judged by value, whatever "
	                "runs: every output's error is compared with the error that rounding "
	                "the inputs to TF32 causes, and TF32, fp16 or bf16 arithmetic fails on "
	                "any path (tensor cores, half conversions, code loaded at run time) - "
	                "as forbidden_instruction when the machine code shows the tensor-core "
	                "or half instruction, else wrong_output. Methods as accurate as fp32 "
	                "pass: split-precision tensor-core products (e.g. 3xTF32) and "
	                "compensated sums."
	          : t->precision == CUA_PREC_TF32_ALLOWED
	              ? "TF32 tensor-core math is allowed; fp16, bf16 and 8-bit tensor cores "
	                "and half-precision math are not (checked in the machine code, and "
	                "bf16-level error fails by value)."
	              : "Half-precision (fp16, bf16) math is allowed; 8-bit tensor cores are "
	                "not.",
	          t->atol, t->rtol);
	cua_buf_printf(&b, "Libraries you may call: %s.\n",
	          t->n_libraries == 0 ? "none (CUDA runtime only)" : "");
	for (int i = 0; i < t->n_libraries; i++)
		cua_buf_printf(&b, "  - %s\n", t->libraries[i]);

	cua_buf_printf(&b, "\n## Interface (include/cuarena.h)\n```c\n");
	snprintf(path, sizeof(path), "%s/include/cuarena.h", root);
	if (cua_read_file(path, 1 << 20, &src, NULL, NULL, 0) == CUA_OK)
		cua_buf_printf(&b, "%s", src);
	free(src);
	src = NULL;
	cua_buf_printf(&b, "```\n\nWrite one CUDA source file that includes \"cuarena.h\" and "
	              "defines cua_solve. It is built with nvcc -O3 for sm_90a as a "
	              "shared object and timed against the reference below and the "
	              "library baselines.\n");
	cua_buf_printf(&b, "\nWhat the harness promises on every call: each tensor's data "
	              "pointer is aligned to %d bytes (float4 access from the start of a "
	              "tensor is safe); outputs arrive filled with a NaN poison pattern, not "
	              "zeros, so write every element; you may allocate scratch with "
	              "cudaMallocAsync/cudaFreeAsync on `stream` (free it before returning or "
	              "keep it in a static for reuse); CUB, Thrust and cooperative groups may "
	              "be used.\n", CUA_TENSOR_ALIGN);
	cua_buf_printf(&b, "\n## Reference implementation (the nvcc baseline)\n```cuda\n");
	snprintf(path, sizeof(path), "%s/reference.cu", t->dir);
	if (cua_read_file(path, 1 << 20, &src, NULL, NULL, 0) == CUA_OK)
		cua_buf_printf(&b, "%s", src);
	free(src);
	cua_buf_printf(&b, "```\n");
	return b.s;
}
