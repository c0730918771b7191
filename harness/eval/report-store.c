/* report-store.c — a task's baselines through the baseline store (report.h,
 * bstore.h): each baseline's key made from what determines its time, the device
 * asked for once per invocation (`cuarena __probe`, so a run's first task can be
 * reused too), and the measurements cua_report_run would make, one at a time. */
#include "eval/report.h"
#include "judge/runner.h"
#include "sandbox.h"
#include "eval/precheck.h"
#include "catalogue/catalogue.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <cjson/cJSON.h>

/* ---- what the key is made of ------------------------------------------------------------ */

/* The version of the library a baseline's folder names, as this process would
 * load it (a judge's child finds the same one: it gets this LD_LIBRARY_PATH);
 * "absent" when it cannot be loaded. Read once: dlopen of a library the process
 * already links (cuBLAS) or its small dispatcher (cuDNN's), no CUDA call. */
static char cublas_ver[64], cudnn_ver[64];
static pthread_once_t libs_once = PTHREAD_ONCE_INIT;

static void *open_first(const char *const *names)
{
	for (; *names; names++) {
		void *h = dlopen(*names, RTLD_NOW | RTLD_LOCAL);
		if (h)
			return h;
	}
	return NULL;
}

static void read_libs(void)
{
	static const char *const cublas[] = {"libcublas.so", "libcublas.so.13", "libcublas.so.12",
	                                     NULL};
	static const char *const cudnn[] = {"libcudnn.so", "libcudnn.so.9", "libcudnn.so.8", NULL};
	snprintf(cublas_ver, sizeof(cublas_ver), "absent");
	snprintf(cudnn_ver, sizeof(cudnn_ver), "absent");
	void *h = open_first(cublas);
	int (*prop)(int, int *) = h ? (int (*)(int, int *))dlsym(h, "cublasGetProperty") : NULL;
	int v[3] = {0, 0, 0};
	if (prop && prop(0, &v[0]) == 0 && prop(1, &v[1]) == 0 && prop(2, &v[2]) == 0)
		snprintf(cublas_ver, sizeof(cublas_ver), "%d.%d.%d", v[0], v[1], v[2]);
	h = open_first(cudnn);
	size_t (*ver)(void) = h ? (size_t (*)(void))dlsym(h, "cudnnGetVersion") : NULL;
	if (ver)
		snprintf(cudnn_ver, sizeof(cudnn_ver), "%zu", ver());
	/* the handles stay open: the versions describe what is loaded */
}

/* The device as `cuarena __probe` sees it with the children's environment
 * (dev->known false when it cannot say: no GPU, no driver). */
static void probe(const struct cua_eval_opts *o, struct cua_device *dev)
{
	const char *argv[] = {o->self_exe, "__probe", NULL};
	struct cua_child_env ce;
	struct cua_sandbox_opts so;
	struct cua_child_result r;
	char err[CUA_ERR_LEN];

	memset(dev, 0, sizeof(*dev));
	cua_child_env(o, &ce);
	cua_sandbox_opts_init(&so);
	so.timeout_s = 60;
	so.capture_max = 1 << 16;
	so.env = ce.env;
	if (cua_sandbox_run(argv, &so, &r, err, sizeof(err)) != CUA_OK)
		return;
	cJSON *j = r.how == CUA_CHILD_NORMAL && r.code == 0 && r.out ? cJSON_Parse(r.out) : NULL;
	if (j && !cJSON_GetObjectItemCaseSensitive(j, "error"))
		cua_device_from_json(j, dev);
	cJSON_Delete(j);
	cua_child_result_clear(&r);
}

/* The device's part of a key. Two records give the same fields exactly when
 * the device would time a kernel alike, as far as its record says. */
static void key_device(struct cua_bstore_key *k, const struct cua_device *d)
{
	cua_bstore_key_set(k, "gpu_name", "%s", d->name);
	cua_bstore_key_set(k, "gpu_cc", "%d.%d", d->cc_major, d->cc_minor);
	cua_bstore_key_set(k, "gpu_sms", "%d", d->sms);
	cua_bstore_key_set(k, "gpu_mem_bytes", "%.0f", d->mem_bytes);
	cua_bstore_key_set(k, "gpu_l2_bytes", "%.0f", d->l2_bytes);
	cua_bstore_key_set(k, "gpu_sm_clock_peak_mhz", "%.0f", d->sm_clock_peak_mhz);
	cua_bstore_key_set(k, "gpu_mem_clock_peak_mhz", "%.0f", d->mem_clock_peak_mhz);
	cua_bstore_key_set(k, "driver_version", "%s", d->driver_version);
	cua_bstore_key_set(k, "cuda_driver", "%d", d->driver);
	cua_bstore_key_set(k, "cuda_runtime", "%d", d->runtime);
}

static bool same_device(const struct cua_device *a, const struct cua_device *b)
{
	struct cua_bstore_key ka = {0}, kb = {0};
	char sa[65], sb[65];
	key_device(&ka, a);
	key_device(&kb, b);
	cua_bstore_key_sha256(&ka, sa);
	cua_bstore_key_sha256(&kb, sb);
	return !strcmp(sa, sb);
}

/* Item i's key: n == 0 (no key: measured, not stored) when its object cannot be
 * built or its source read (the measurement then says why). The build is a cache
 * hit after cua_prebuild_baselines (run and serve build before the GPU lock). */
static void make_key(const struct cua_task *t, const struct cua_eval_opts *o,
                     const char *task_sha, const struct cua_device *dev, int i,
                     struct cua_bstore_key *k)
{
	char path[CUA_PATH_BUF], src_sha[65], *src = NULL;
	size_t len = 0;
	const char *subject = i == 0 ? "nvcc" : t->baselines[i - 1];
	struct cua_build_opts bo = o->build;
	struct cua_symcheck_policy pol;
	struct cua_build b;

	memset(k, 0, sizeof(*k));
	if (i == 0)
		snprintf(path, sizeof(path), "%s/reference.cu", t->dir);
	else {
		cua_baseline_path(o->root, subject, path, sizeof(path));
		cua_subject_libs(t, CUA_SUBJECT_BASELINE, subject, &bo, &pol);
	}
	if (cua_read_file(path, 16 << 20, &src, &len, NULL, 0) != CUA_OK)
		return;
	cua_sha256_hex(src, len, src_sha);
	free(src);
	if (cua_build_so(path, &bo, &b, NULL, 0) != CUA_OK)
		return;
	if (!b.ok) {
		cua_build_clear(&b);
		return;
	}
	cua_bstore_key_set(k, "store_format", "%d", CUA_BSTORE_FORMAT);
	cua_bstore_key_set(k, "timing_method", "%d", CUA_TIMING_METHOD_VERSION);
	cua_bstore_key_set(k, "task", "%s", t->id);
	cua_bstore_key_set(k, "task_sha256", "%s", task_sha);
	cua_bstore_key_set(k, "subject", "%s", subject);
	cua_bstore_key_set(k, "source_sha256", "%s", src_sha);
	/* the build's key (source, flags, nvcc version, every header it can include:
	 * compile.h), not the object's bytes: nvcc names its temporaries after its pid
	 * (tmpxft_<pid>_…) inside the object, so two builds of one source never share a
	 * digest, and a baseline would miss on every machine whose cache is new. The
	 * object's digest is in the stored evaluation (compile.so_sha256). */
	cua_bstore_key_set(k, "build_sha256", "%s", b.key);
	cua_build_clear(&b);
	key_device(k, dev);
	if (!strncmp(subject, "cublas/", 7))
		cua_bstore_key_set(k, "library", "cublas %s", cublas_ver);
	else if (!strncmp(subject, "cudnn/", 6))
		cua_bstore_key_set(k, "library", "cudnn %s", cudnn_ver);
	else
		cua_bstore_key_set(k, "library", "none");
	/* the options that change a time */
	cua_bstore_key_set(k, "max_time_s", "%.17g", o->max_time_s);
	cua_bstore_key_set(k, "min_samples", "%d", o->min_samples);
	cua_bstore_key_set(k, "seeds", "%llu,%llu,%llu", (unsigned long long)o->seeds[0],
	                   (unsigned long long)o->seeds[1], (unsigned long long)o->seeds[2]);
}

/* ---- measuring ------------------------------------------------------------------------ */

struct measure_ctx {
	const struct cua_task *t;
	struct cua_eval_opts o;          /* with the ceilings once the device is known */
	struct cua_ceilings ceil;
	struct cua_report *r;
	const struct cua_device *probed;
	struct cua_bstore *s;
};

static void load_ceilings(struct measure_ctx *c, const char *gpu)
{
	if (!c->o.ceilings && cua_ceilings_load(c->o.root, gpu, &c->ceil, NULL, 0) == CUA_OK)
		c->o.ceilings = &c->ceil;
}

static enum cua_status measure(void *ctx, int i, struct cua_bstore_item *it, char *err,
                               size_t errlen)
{
	struct measure_ctx *c = ctx;
	char path[CUA_PATH_BUF];
	struct cua_device dev;
	enum cua_status st;

	memset(&dev, 0, sizeof(dev));
	if (i == 0)
		st = cua_eval_source(c->t, NULL, CUA_SUBJECT_REFERENCE, "nvcc", &c->o, it->e, &dev,
		                     err, errlen);
	else {
		cua_baseline_path(c->o.root, it->subject, path, sizeof(path));
		st = cua_eval_source(c->t, path, CUA_SUBJECT_BASELINE, it->subject, &c->o, it->e,
		                     &dev, err, errlen);
	}
	if (st != CUA_OK)
		return st;
	if (dev.known && !c->r->device.known)
		c->r->device = dev;
	if (dev.known)
		load_ceilings(c, dev.name);
	/* stored under the key of the device that measured it, or not at all (a
	 * failed measurement, with or without a device, is never stored) */
	if (dev.known && c->probed->known && !same_device(&dev, c->probed)) {
		it->no_store = true;
		if (c->s->log)
			fprintf(c->s->log, "cuarena: baseline store: %s %s: the judge's device record "
			        "differs from the probe's: not stored, nothing more reused on it\n",
			        c->t->id, it->subject);
	} else if (!dev.known && it->e->verdict == CUA_VERDICT_OK)
		it->no_store = true;
	return CUA_OK;
}

enum cua_status cua_report_run_stored(const struct cua_task *t, const struct cua_eval_opts *o,
                                      struct cua_report *r, char *err, size_t errlen)
{
	struct cua_bstore *s = o->bstore;
	struct cua_bstore_item items[CUA_MAX_BASELINES + 1];
	struct cua_eval evals[CUA_MAX_BASELINES + 1];
	char task_sha[65] = "";
	int n = 1 + t->n_baselines;
	enum cua_status st;

	memset(r, 0, sizeof(*r));
	r->task = t;
	pthread_once(&libs_once, read_libs);
	struct cua_bstore_device *d = cua_bstore_device(s, o->gpu);
	pthread_mutex_lock(&d->lock);
	if (!d->probed) {
		probe(o, &d->dev);
		d->probed = true;
		if (!d->dev.known && cua_have_gpu() && s->log)
			fprintf(s->log, "cuarena: baseline store: `%s __probe` named no device%s%s: "
			        "every baseline is measured\n", o->self_exe, d->gpu[0] ? " for GPU " : "",
			        d->gpu);
	}
	pthread_mutex_unlock(&d->lock);
	bool keyed = d->dev.known &&
	             cua_catalogue_task_hash(t, task_sha, NULL, 0) == CUA_OK;

	struct measure_ctx c = {.t = t, .o = *o, .r = r, .probed = &d->dev, .s = s};
	c.o.bstore = NULL;
	if (d->dev.known)
		load_ceilings(&c, d->dev.name);
	memset(items, 0, sizeof(items));
	for (int i = 0; i < n; i++) {
		items[i].subject = i == 0 ? "nvcc" : t->baselines[i - 1];
		cua_eval_init(&evals[i], items[i].subject);
		items[i].e = &evals[i];
		if (keyed)
			make_key(t, o, task_sha, &d->dev, i, &items[i].key);
	}
	st = cua_bstore_obtain(s, d, o->bstore_fresh, t->id, items, n, measure, &c, err, errlen);
	/* a time is its own; a speed of light is today's ceilings' (cua_sol_apply
	 * after the fact, as cua_report_run does for the reference) */
	for (int i = 0; i < n; i++) {
		r->base[i] = evals[i];
		r->origin[i] = items[i].origin;
		if (c.o.ceilings && r->base[i].verdict == CUA_VERDICT_OK) {
			r->base[i].sol_ms = r->base[i].pct_sol = 0;
			cua_sol_apply(t, c.o.ceilings, &r->base[i]);
		}
	}
	r->n_base = n;
	if (!r->device.known && d->dev.known)
		r->device = d->dev;   /* all reused: the device they were measured on */
	if (st == CUA_OK && r->device.known)
		cua_report_import_torch(o->root, r->device.name, r);
	return st;
}
