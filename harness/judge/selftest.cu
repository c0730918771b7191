/* selftest.cu — the judge on a task with no kernel: `__judge --degeneracy`
 * proves from the oracle that a lazy kernel cannot pass (`cuarena selftest
 * --degeneracy`, cli/cmd-selftest.c), `__judge --dump DIR` writes the check
 * shapes' inputs and oracle outputs for tools/torch_check.py. No kernel's
 * process is started. Built with the judge (nvcc, sm_90a; judge.cuh). */
#include <stdlib.h>
#include <string.h>

#include "judge/judge.cuh"

/* Runs the oracle into b->ref with input i generated from the public seed
 * seeds[i] (no kernel runs here: the oracle reads b->in itself). */
static void oracle_with(struct cua_judge *J, struct shape_bufs *b, const uint64_t *seeds,
                        cudaStream_t s)
{
	const struct cua_task *t = J->task;
	for (int i = 0; i < t->n_inputs; i++) {
		struct cua_rng_key k;
		cua_rng_public(seeds[i], &k);
		generate(&J->mem, J->task, &b->in[i], &k, s);
	}
	cua_judge_oracle(J, b->in, b->ref, "selftest", s);
}

/* Elements of `a` (f64 or integer, as the oracle writes) outside the task's
 * tolerance of `want`. */
static unsigned long long differing(struct cua_judge *J, const struct dev_tensor *a,
                                    const struct dev_tensor *want, cudaStream_t s)
{
	cmp_acc h;
	memset(&h, 0, sizeof(h));
	h.first_bad = ULLONG_MAX;
	HARNESS_TRY(J, cudaMemcpyAsync(J->d_acc, &h, sizeof(h), cudaMemcpyHostToDevice, s));
	if (a->t.dtype == CUA_F64)
		compare_float_kernel<double><<<grid_for(a->n), 256, 0, s>>>(
		    (const double *)a->t.data, (const double *)want->t.data, a->n,
		    J->task->atol, J->task->rtol, J->d_acc);
	else
		DISPATCH_TYPES(J, a->t.dtype,
		               compare_int_kernel<T><<<grid_for(a->n), 256, 0, s>>>(
		                   (const T *)a->t.data, (const T *)want->t.data, a->n,
		                   J->d_acc));
	HARNESS_TRY(J, cudaGetLastError());
	HARNESS_TRY(J, cudaMemcpyAsync(&h, J->d_acc, sizeof(h), cudaMemcpyDeviceToHost, s));
	HARNESS_TRY(J, cudaStreamSynchronize(s));
	return h.n_bad + h.n_nan + h.n_unwritten;
}

static void emit_degeneracy(struct cua_judge *J, const char *shape, const char *check,
                            const char *output,
                            unsigned long long differ, unsigned long long n, bool ok)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "event", "degeneracy");
	cJSON_AddStringToObject(o, "shape", shape);
	cJSON_AddStringToObject(o, "check", check);
	cJSON_AddStringToObject(o, "output", output);
	cJSON_AddNumberToObject(o, "differ", (double)differ);
	cJSON_AddNumberToObject(o, "n", (double)n);
	cJSON_AddBoolToObject(o, "ok", ok);
	cua_judge_emit(J, o);
}

/* Proves, from the oracle, that the task cannot be passed by a lazy kernel: at
 * every shape set, all-zero output fails, a constant output fails (outputs of
 * two or more elements), outputs differ across seeds, and regenerating any one
 * input changes the output (or, for an input the task declares ignored, changes
 * nothing). A check holds when at least one element of some
 * output leaves the tolerance. A seed check that fails is drawn once more with a
 * third seed: a scalar such as a mean over 10^5 rows moves between seeds by about
 * 100 times its tolerance, so one pair in a few hundred lands inside it by chance
 * (L1/095's timed cross-entropy, whose public pair did); an output that does not
 * depend on the seed fails both draws. */
void cua_selftest_degeneracy(struct cua_judge *J, const struct job *job, cudaStream_t s)
{
	const struct cua_task *t = J->task;
	char failed[CUA_MSG_LEN] = "";
	uint64_t a = job->seeds[0], bseed = job->n_seeds > 1 ? job->seeds[1] : a + 1;
	uint64_t cseed = job->n_seeds > 2 ? job->seeds[2] : bseed + 1;

	for (int sh = 0; sh < t->n_shapes; sh++) {
		const char *shape = t->shapes[sh].name;
		struct shape_bufs base, other;
		uint64_t seeds[CUA_MAX_TENSORS];
		cua_judge_phase(J, "degeneracy %s", shape);
		cua_judge_shape_alloc(J, &base, sh, true, false);
		cua_judge_shape_alloc(J, &other, sh, true, false);
		for (int i = 0; i < t->n_inputs; i++)
			seeds[i] = a;
		oracle_with(J, &base, seeds, s);

		/* zero and constant: computed into other.ref from base.ref */
		for (int o = 0; o < t->n_outputs; o++) {
			struct dev_tensor *r = &base.ref[o], *x = &other.ref[o];
			unsigned long long d;
			HARNESS_TRY(J, cudaMemsetAsync(x->t.data, 0, x->bytes, s));
			d = differing(J, x, r, s);
			emit_degeneracy(J, shape, "zero", t->outputs[o].name, d, r->n, d > 0);
			if (!d && !failed[0])
				snprintf(failed, sizeof(failed), "output '%s' at shape %s is within "
				         "tolerance of all zeros", t->outputs[o].name, shape);
			if (r->n >= 2) {
				DISPATCH_TYPES(J, x->t.dtype,
				               broadcast_kernel<T><<<grid_for(x->n), 256, 0, s>>>(
				                   (T *)x->t.data, x->n, (const T *)r->t.data));
				HARNESS_TRY(J, cudaGetLastError());
				d = differing(J, x, r, s);
				emit_degeneracy(J, shape, "constant", t->outputs[o].name, d, r->n, d > 0);
				if (!d && !failed[0])
					snprintf(failed, sizeof(failed), "output '%s' at shape %s is "
					         "within tolerance of a constant", t->outputs[o].name,
					         shape);
			}
		}
		/* another seed for every input, then for each input alone */
		for (int v = -1; v < t->n_inputs; v++) {
			char check[64];
			if (v < 0)
				snprintf(check, sizeof(check), "seeds");
			else
				snprintf(check, sizeof(check), "input:%s", t->inputs[v].name);
			unsigned long long total = 0;
			for (int draw = 0; draw < 2 && total == 0; draw++) {
				for (int i = 0; i < t->n_inputs; i++)
					seeds[i] = (v < 0 || i == v) ? (draw ? cseed : bseed) : a;
				oracle_with(J, &other, seeds, s);
				for (int o = 0; o < t->n_outputs; o++)
					total += differing(J, &other.ref[o], &base.ref[o], s);
			}
			/* an input the task declares ignored ("ignored": its reason) must
			 * change nothing: the declaration is checked, not trusted */
			const bool ignored = v >= 0 && t->inputs[v].ignored;
			emit_degeneracy(J, shape, check,
			                ignored ? "none (declared ignored)" : "*", total, 0,
			                ignored ? total == 0 : total > 0);
			if (ignored) {
				if (total && !failed[0])
					snprintf(failed, sizeof(failed), "at shape %s input '%s' is "
					         "declared ignored, but regenerating it changes %llu "
					         "output elements beyond the tolerance", shape,
					         t->inputs[v].name, total);
			} else if (!total && !failed[0] && v < 0)
				snprintf(failed, sizeof(failed), "at shape %s the outputs do not "
				         "change with the seed", shape);
			else if (!total && !failed[0])
				snprintf(failed, sizeof(failed), "at shape %s the outputs do not "
				         "change when input '%s' is regenerated", shape,
				         t->inputs[v].name);
		}
		cua_judge_shape_free(J, &base);
		cua_judge_shape_free(J, &other);
	}
	if (failed[0])
		cua_judge_finish(J, CUA_VERDICT_WRONG_OUTPUT, "degenerate task: %s", failed);
}

/* Writes every check shape's inputs (public seed 1) and oracle outputs as raw
 * little-endian files plus a manifest, for tools/torch_check.py; the timed
 * shape's too when they total at most CUA_DUMP_TIMED_MAX. */
void cua_selftest_dump(struct cua_judge *J, const struct job *job, cudaStream_t s)
{
	const struct cua_task *t = J->task;
	char path[CUA_PATH_BUF], err[CUA_ERR_LEN];
	cJSON *man = cJSON_CreateObject();
	cJSON_AddStringToObject(man, "task", t->id);
	cJSON_AddNumberToObject(man, "seed", (double)job->seeds[0]);
	cJSON *shapes = cJSON_AddArrayToObject(man, "shapes");
	if (cua_mkdirs(job->dump_dir, err, sizeof(err)) != CUA_OK)
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "%s", err);
	int timed = cua_task_timed_shape(t);
	for (int sh = 0; sh < t->n_shapes; sh++) {
		if (!cua_task_dumps_shape(t, sh))
			continue;
		struct shape_bufs b;
		uint64_t seeds[CUA_MAX_TENSORS];
		cua_judge_shape_alloc(J, &b, sh, true, false);
		for (int i = 0; i < t->n_inputs; i++)
			seeds[i] = job->seeds[0];
		oracle_with(J, &b, seeds, s);
		cJSON *js = cJSON_CreateObject();
		cJSON_AddStringToObject(js, "name", t->shapes[sh].name);
		cJSON *files = cJSON_AddArrayToObject(js, "tensors");
		for (int k = 0; k < t->n_inputs + t->n_outputs; k++) {
			bool is_in = k < t->n_inputs;
			struct dev_tensor *d = is_in ? &b.in[k] : &b.ref[k - t->n_inputs];
			const char *name = is_in ? t->inputs[k].name : t->outputs[k - t->n_inputs].name;
			void *h = malloc(d->bytes ? d->bytes : 1);
			CUA_ASSERT(h);
			HARNESS_TRY(J, cudaMemcpy(h, d->t.data, d->bytes, cudaMemcpyDeviceToHost));
			cua_judge_pathf(J, path, sizeof(path), "%s/%s.%s.%s.bin", job->dump_dir,
			         t->shapes[sh].name, is_in ? "in" : "oracle", name);
			if (cua_write_file(path, h, d->bytes, err, sizeof(err)) != CUA_OK)
				cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "%s", err);
			free(h);
			cJSON *f = cJSON_CreateObject();
			cJSON_AddStringToObject(f, "name", name);
			cJSON_AddStringToObject(f, "role", is_in ? "input" : "oracle");
			cJSON_AddStringToObject(f, "dtype", cua_dtype_name(d->t.dtype));
			cJSON *shp = cJSON_AddArrayToObject(f, "shape");
			for (int q = 0; q < d->t.ndim; q++)
				cJSON_AddItemToArray(shp, cJSON_CreateNumber((double)d->t.shape[q]));
			snprintf(path, sizeof(path), "%s.%s.%s.bin", t->shapes[sh].name,
			         is_in ? "in" : "oracle", name);
			cJSON_AddStringToObject(f, "file", path);
			cJSON_AddItemToArray(files, f);
		}
		cJSON_AddItemToArray(shapes, js);
		cua_judge_shape_free(J, &b);
	}
	char *txt = cJSON_Print(man);
	cua_judge_pathf(J, path, sizeof(path), "%s/manifest.json", job->dump_dir);
	if (cua_write_file(path, txt, strlen(txt), err, sizeof(err)) != CUA_OK)
		cua_judge_finish(J, CUA_VERDICT_HARNESS_ERROR, "%s", err);
	free(txt);
	cJSON_Delete(man);
}

/* ---- one job, and a judge that serves many ------------------------------------- */
