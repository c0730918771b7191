/* test-sol.c — speed of light, device ceilings and speedups (harness/judge/device.c,
 * harness/eval/report.c).
 * Fixtures: tests/data/sol/ (three tasks and some broken ceilings files). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "eval/report.h"
#include "cuarena-test.h"

/* Root of the fixture tree, in a static buffer. */
static const char *sol_root(void)
{
	static char path[4096];
	snprintf(path, sizeof(path), "%s/tests/data/sol", root());
	return path;
}

static struct cua_task *load(const char *folder)
{
	char dir[4200], err[CUA_ERR_LEN] = "";
	struct cua_task *t = NULL;
	snprintf(dir, sizeof(dir), "%s/tasks/L1/%s", sol_root(), folder);
	cr_assert_eq(cua_task_load(dir, &t, err, sizeof(err)), CUA_OK, "%s", err);
	return t;
}

/* The ceilings of the brief: copy 4000 GB/s, FFMA 60 TFLOP/s, TF32 400. */
static struct cua_ceilings ceilings(void)
{
	struct cua_ceilings c;
	memset(&c, 0, sizeof(c));
	c.known = true;
	snprintf(c.gpu, sizeof(c.gpu), "Test GPU");
	c.copy_gbs = 4000;
	c.ffma_tflops = 60;
	c.sgemm_tf32_tflops = 400;
	return c;
}

#define REL 1e-12
#define expect_ms(got, want)                                                        \
	cr_expect(fabs((got) - (want)) <= REL * (want), "%.15g ms, want %.15g ms",     \
	          (double)(got), (double)(want))

/* ---- cua_sol_ms ------------------------------------------------------------- */

Test(sol, a_memory_bound_task_is_timed_at_the_copy_rate)
{
	/* timed B=1024, D=2^20: bytes 8·2^30 = 8589934592 → /4000e9 = 2.147483648 ms;
	 * flops 2^30 → /60e12 = 0.0179 ms, far below. */
	struct cua_task *t = load("001-copy");
	struct cua_ceilings c = ceilings();
	expect_ms(cua_sol_ms(t, &c), 2.147483648);
	cua_task_free(t);
}

Test(sol, a_compute_bound_strict_task_is_timed_at_the_ffma_rate)
{
	/* timed M=N=K=8192: flops 2·2^39 = 1099511627776 → /60e12 = 18.3251937962667 ms;
	 * bytes 12·2^26 = 805306368 → /4000e9 = 0.201 ms, far below. */
	struct cua_task *t = load("002-gemm");
	struct cua_ceilings c = ceilings();
	expect_ms(cua_sol_ms(t, &c), 18.325193796266667);
	cua_task_free(t);
}

Test(sol, a_tf32_task_is_timed_at_the_tf32_rate)
{
	/* the same flops /400e12 = 2.74877906944 ms */
	struct cua_task *t = load("003-gemm-tf32");
	struct cua_ceilings c = ceilings();
	cr_assert_eq(t->precision, CUA_PREC_TF32_ALLOWED);
	expect_ms(cua_sol_ms(t, &c), 2.74877906944);
	cua_task_free(t);
}

Test(sol, a_half_task_is_timed_at_the_bf16_rate)
{
	/* /800e12 = 1.37438953472 ms */
	struct cua_task *t = load("002-gemm");
	struct cua_ceilings c = ceilings();
	c.gemm_bf16_tflops = 800;
	t->precision = CUA_PREC_HALF_ALLOWED;
	expect_ms(cua_sol_ms(t, &c), 1.37438953472);
	cua_task_free(t);
}

Test(sol, the_strict_rate_ignores_faster_tensor_core_ceilings)
{
	struct cua_task *t = load("002-gemm");
	struct cua_ceilings c = ceilings();
	c.sgemm_tf32_tflops = 4000;
	c.gemm_bf16_tflops = 8000;
	expect_ms(cua_sol_ms(t, &c), 18.325193796266667);
	cua_task_free(t);
}

Test(sol, a_slow_copy_rate_turns_a_gemm_memory_bound)
{
	/* 805306368 bytes at 1 GB/s = 805.306368 ms > 18.3 ms of flops */
	struct cua_task *t = load("002-gemm");
	struct cua_ceilings c = ceilings();
	c.copy_gbs = 1;
	expect_ms(cua_sol_ms(t, &c), 805.306368);
	cua_task_free(t);
}

Test(sol, unknown_ceilings_give_zero)
{
	struct cua_task *t = load("001-copy");
	struct cua_ceilings c = ceilings();
	cr_expect_eq(cua_sol_ms(t, NULL), 0);
	c.known = false;
	cr_expect_eq(cua_sol_ms(t, &c), 0);
	struct cua_ceilings none;
	memset(&none, 0, sizeof(none));
	cr_expect_eq(cua_sol_ms(t, &none), 0);
	cua_task_free(t);
}

/* Regression: with the policy's rate unmeasured the memory time alone came
 * back, understating %SOL instead of saying "unknown". */
Test(sol, an_unmeasured_rate_for_the_policy_gives_zero)
{
	struct cua_task *t = load("002-gemm");
	struct cua_ceilings c = ceilings();
	c.gemm_bf16_tflops = 0;
	t->precision = CUA_PREC_HALF_ALLOWED;
	cr_expect_eq(cua_sol_ms(t, &c), 0);
	c = ceilings();
	c.copy_gbs = 0;
	t->precision = CUA_PREC_FP32_STRICT;
	cr_expect_eq(cua_sol_ms(t, &c), 0);
	cua_task_free(t);
}

Test(sol, a_bytes_only_task_ignores_the_flops)
{
	/* The gemm at 4000 GB/s: 805306368 B -> 0.201326592 ms, whatever the flops. */
	struct cua_task *t = load("002-gemm");
	struct cua_ceilings c = ceilings();
	t->sol_bytes_only = true;
	expect_ms(cua_sol_ms(t, &c), 0.201326592);
	cua_task_free(t);
}

/* ---- ceilings files ---------------------------------------------------------- */

Test(sol, ceilings_path_sanitises_the_gpu_name)
{
	char buf[4200];
	cua_ceilings_path("/r", "NVIDIA H200", buf, sizeof(buf));
	cr_expect_str_eq(buf, "/r/data/devices/NVIDIA-H200.json");
	cua_ceilings_path("/r", "NVIDIA GeForce RTX 4090 (rev_a1.2)", buf, sizeof(buf));
	cr_expect_str_eq(buf, "/r/data/devices/NVIDIA-GeForce-RTX-4090--rev_a1.2-.json");
	/* a name cannot climb out of data/devices/ */
	cua_ceilings_path("/r", "../../etc/passwd", buf, sizeof(buf));
	cr_expect_str_eq(buf, "/r/data/devices/..-..-etc-passwd.json");
}

Test(sol, ceilings_load_reads_the_h200_file_of_the_repo)
{
	char err[CUA_ERR_LEN] = "", path[4200], *text = NULL;
	struct cua_ceilings c;
	cr_assert_eq(cua_ceilings_load(root(), "NVIDIA H200", &c, err, sizeof(err)),
	             CUA_OK, "%s", err);
	cr_expect(c.known);
	cr_expect_str_eq(c.gpu, "NVIDIA H200");

	/* Same numbers as the file holds (read here independently). */
	cua_ceilings_path(root(), "NVIDIA H200", path, sizeof(path));
	cr_assert_eq(cua_read_file(path, 1 << 20, &text, NULL, err, sizeof(err)), CUA_OK,
	             "%s", err);
	cJSON *j = cJSON_Parse(text);
	const cJSON *m = cJSON_GetObjectItem(j, "ceilings");
	cr_assert(cJSON_IsObject(m), "%s has no ceilings object", path);
	cr_expect_eq(c.copy_gbs, cJSON_GetObjectItem(m, "copy_gbs")->valuedouble);
	cr_expect_eq(c.ffma_tflops, cJSON_GetObjectItem(m, "ffma_peak_tflops")->valuedouble);
	cr_expect_eq(c.sgemm_fp32_tflops,
	             cJSON_GetObjectItem(m, "sgemm_fp32_tflops")->valuedouble);
	cr_expect_eq(c.sgemm_tf32_tflops,
	             cJSON_GetObjectItem(m, "sgemm_tf32_tflops")->valuedouble);
	cr_expect_eq(c.gemm_bf16_tflops, cJSON_GetObjectItem(m, "gemm_bf16_tflops")->valuedouble);
	/* And they are an H200's: HBM3e ~4.8 TB/s peak, FP32 ~67 TFLOP/s. */
	cr_expect(c.copy_gbs > 2000 && c.copy_gbs < 5000, "copy %g GB/s", c.copy_gbs);
	cr_expect(c.ffma_tflops > 40 && c.ffma_tflops < 80, "ffma %g", c.ffma_tflops);
	cr_expect(c.sgemm_fp32_tflops < c.ffma_tflops, "SGEMM above the FFMA peak");
	cr_expect(c.sgemm_tf32_tflops > c.sgemm_fp32_tflops);
	cJSON_Delete(j);
	free(text);
}

Test(sol, ceilings_load_rejects_a_file_without_ceilings_naming_the_path)
{
	char err[CUA_ERR_LEN] = "", want[4200];
	struct cua_ceilings c;
	cua_ceilings_path(sol_root(), "No Ceilings", want, sizeof(want));
	cr_expect_eq(cua_ceilings_load(sol_root(), "No Ceilings", &c, err, sizeof(err)),
	             CUA_E_PARSE);
	cr_expect(!c.known);
	cr_expect_not_null(strstr(err, want), "'%s' does not name %s", err, want);
	cr_expect_not_null(strstr(err, "\"ceilings\""), "%s", err);
	cr_expect_not_null(strstr(err, "No-Ceilings.json"), "%s", err);
}

Test(sol, ceilings_load_rejects_invalid_json_naming_the_path)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_ceilings c;
	cr_expect_eq(cua_ceilings_load(sol_root(), "Broken", &c, err, sizeof(err)),
	             CUA_E_PARSE);
	cr_expect(!c.known);
	cr_expect_not_null(strstr(err, "data/devices/Broken.json"), "%s", err);
}

Test(sol, ceilings_load_rejects_non_positive_ceilings)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_ceilings c;
	cr_expect_eq(cua_ceilings_load(sol_root(), "Zero Ceilings", &c, err, sizeof(err)),
	             CUA_E_PARSE);
	cr_expect(!c.known);
	cr_expect_not_null(strstr(err, "Zero-Ceilings.json"), "%s", err);
	cr_expect_not_null(strstr(err, "not positive"), "%s", err);
}

Test(sol, ceilings_load_of_an_unmeasured_gpu_is_an_io_error)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_ceilings c;
	cr_expect_eq(cua_ceilings_load(sol_root(), "NVIDIA B200", &c, err, sizeof(err)),
	             CUA_E_IO);
	cr_expect(!c.known);
	cr_expect_not_null(strstr(err, "NVIDIA-B200.json"), "%s", err);
}

Test(sol, ceilings_of_a_root_laid_out_before_data_are_read_from_results_device)
{
	char dir[] = "/tmp/cuarena-sol-legacy-XXXXXX", path[4200], err[CUA_ERR_LEN] = "";
	struct cua_ceilings c;
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/results/device/Old-GPU.json", dir);
	const char *j = "{\"ceilings\": {\"copy_gbs\": 100, \"ffma_peak_tflops\": 2}}";
	cr_assert_eq(cua_write_file(path, j, strlen(j), err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(cua_ceilings_load(dir, "Old GPU", &c, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect(c.known && c.copy_gbs == 100);
	/* data/devices/, once there, is the one read */
	snprintf(path, sizeof(path), "%s/data/devices/Old-GPU.json", dir);
	j = "{\"ceilings\": {\"copy_gbs\": 200, \"ffma_peak_tflops\": 2}}";
	cr_assert_eq(cua_write_file(path, j, strlen(j), err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(cua_ceilings_load(dir, "Old GPU", &c, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect(c.copy_gbs == 200);
	char cmd[4300];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

/* ---- speedups ----------------------------------------------------------------- */

static struct cua_eval timed(const char *subject, double median_ms)
{
	struct cua_eval e;
	cua_eval_init(&e, subject);
	e.timing.done = true;
	e.timing.event_ms.n = 10;
	e.timing.event_ms.median = median_ms;
	return e;
}

Test(sol, speedup_is_baseline_time_over_candidate_time)
{
	struct cua_eval base = timed("nvcc", 2.0), cand = timed("candidate", 0.5);
	cr_expect_float_eq(cua_speedup(&base, &cand), 4.0, 1e-15);
	cr_expect_float_eq(cua_speedup(&cand, &base), 0.25, 1e-15);
	cand.timing.event_ms.median = 3.0;
	cr_expect_float_eq(cua_speedup(&base, &cand), 2.0 / 3.0, 1e-15);
	/* the median, not the mean or the minimum */
	cand.timing.event_ms.mean = 100;
	cand.timing.event_ms.min = 0.001;
	cr_expect_float_eq(cua_speedup(&base, &cand), 2.0 / 3.0, 1e-15);
}

Test(sol, speedup_is_zero_when_either_side_failed)
{
	struct cua_eval base = timed("nvcc", 2.0), cand = timed("candidate", 0.5);
	cua_eval_fail(&cand, CUA_VERDICT_WRONG_OUTPUT, "wrong");
	cr_expect_eq(cua_speedup(&base, &cand), 0);
	cand = timed("candidate", 0.5);
	cua_eval_fail(&base, CUA_VERDICT_TIMEOUT, "slow");
	cr_expect_eq(cua_speedup(&base, &cand), 0);
	base = timed("nvcc", 2.0);
	cua_eval_fail(&cand, CUA_VERDICT_TIMING_ANOMALY, "faster than light");
	cr_expect_eq(cua_speedup(&base, &cand), 0);
}

Test(sol, speedup_is_zero_when_either_side_was_not_timed)
{
	struct cua_eval base = timed("nvcc", 2.0), cand = timed("candidate", 0.5);
	cand.timing.done = false;
	cr_expect_eq(cua_speedup(&base, &cand), 0);
	cand.timing.done = true;
	base.timing.done = false;
	cr_expect_eq(cua_speedup(&base, &cand), 0);
	base.timing.done = true;
	cand.timing.event_ms.median = 0;
	cr_expect_eq(cua_speedup(&base, &cand), 0, "a zero median is no time at all");
}

/* ---- imported torch baselines ---------------------------------------------- */

Test(sol, torch_figures_are_imported_as_marked_baselines)
{
	struct cua_task *t = load("001-copy");
	struct cua_report r;
	memset(&r, 0, sizeof(r));
	r.task = t;
	r.n_base = 1;
	cua_eval_init(&r.base[0], "nvcc");
	cua_report_import_torch(sol_root(), "Test GPU", &r);
	cr_assert_eq(r.n_base, 3);
	cr_expect_str_eq(r.base[1].subject, "torch-eager");
	cr_expect_str_eq(r.base[2].subject, "torch-compile");
	cr_expect(r.base[1].imported && r.base[2].imported);
	cr_expect_eq(r.base[2].timing.event_ms.median, 1.25);
	cr_expect(strstr(r.base[1].message, "2.11.0+cu130"), "%s", r.base[1].message);

	/* a candidate at 0.5 ms is 2.5x faster than torch.compile */
	struct cua_eval c;
	cua_eval_init(&c, "candidate");
	c.timing.done = true;
	c.timing.event_ms.median = 0.5;
	cr_expect_eq(cua_speedup(&r.base[2], &c), 2.5);
	cJSON *j = cua_eval_to_json(&r.base[1]);
	cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(j, "imported")));
	cJSON_Delete(j);
	cua_task_free(t);
}

Test(sol, only_the_figures_a_task_has_are_imported)
{
	struct cua_task *t = load("002-gemm");
	struct cua_report r;
	memset(&r, 0, sizeof(r));
	r.task = t;
	cua_report_import_torch(sol_root(), "Test GPU", &r);
	cr_expect_eq(r.n_base, 1);
	cr_expect_str_eq(r.base[0].subject, "torch-eager");
	memset(&r, 0, sizeof(r));
	r.task = t;
	cua_report_import_torch(sol_root(), "Other GPU", &r);
	cr_expect_eq(r.n_base, 0, "no file for this GPU: nothing imported");
	cua_task_free(t);
}

Test(sol, a_device_survives_its_codec_and_one_without_a_name_is_unknown)
{
	/* The judge's device event and run.json's "device" are this one record. */
	struct cua_device d = {0}, back;
	d.known = true;
	snprintf(d.name, sizeof(d.name), "NVIDIA H200");
	snprintf(d.driver_version, sizeof(d.driver_version), "580.159.04");
	d.cc_major = 9;
	d.cc_minor = 0;
	d.sms = 132;
	d.driver = 13000;
	d.runtime = 13000;
	d.l2_bytes = 50331648;
	d.mem_bytes = 150e9;
	cJSON *o = cua_device_to_json(&d);
	cua_device_from_json(o, &back);
	cr_expect(back.known);
	cr_expect_str_eq(back.name, "NVIDIA H200");
	cr_expect_str_eq(back.driver_version, "580.159.04");
	cr_expect_eq(back.cc_major, 9);
	cr_expect_eq(back.sms, 132);
	cr_expect_eq(back.driver, 13000);
	cr_expect_eq(back.runtime, 13000);
	cr_expect_eq(back.l2_bytes, 50331648);
	cr_expect_eq(back.mem_bytes, 150e9);
	cJSON_Delete(o);
	o = cJSON_Parse("{\"sms\": 132, \"name\": \"\"}");
	cua_device_from_json(o, &back);
	cr_expect(!back.known);
	cr_expect_eq(back.sms, 0, "an unknown device carries nothing");
	cJSON_Delete(o);
}
