/* device.h — the GPU a judge saw (its device event, run.json's "device"), the
 * ceilings `cuarena doctor --measure` recorded for its model, and a task's speed
 * of light (SOL) on it. */
#ifndef CUA_DEVICE_H
#define CUA_DEVICE_H

#include "common.h"
#include "catalogue/task.h"
#include "judge/verdict.h"

struct cJSON;

/* The GPU as the judge saw it. */
struct cua_device {
	bool known;
	char name[128];
	char driver_version[64];    /* kernel module, "580.159.04" ("" if unknown) */
	int cc_major, cc_minor, sms;
	int driver, runtime;        /* CUDA versions: driver API supported, runtime (13000) */
	double l2_bytes, mem_bytes;
	double sm_clock_peak_mhz;   /* the device's peak SM and memory clocks (0 = not */
	double mem_clock_peak_mhz;  /* reported: records before 2026-12-02) */
};

/* Ceilings measured by `cuarena doctor --measure` (0 = unknown). */
struct cua_ceilings {
	bool known;
	char gpu[128];
	double copy_gbs;            /* device copy, read + write */
	double ffma_tflops;         /* plain fp32 peak at the loaded clock */
	double sgemm_fp32_tflops, sgemm_tf32_tflops, gemm_bf16_tflops;
};

/* The device record's one codec: the judge's device event, run.json's and each
 * report's "device". from_json is known only when the object has a name. */
struct cJSON *cua_device_to_json(const struct cua_device *d);
void cua_device_from_json(const struct cJSON *o, struct cua_device *d);

/* File name of a GPU model's records ("NVIDIA H200" → "NVIDIA-H200"). */
void cua_gpu_file_name(const char *gpu, char *name, size_t len);

/* Loads ceilings for a GPU model from root/data/devices/<model>.json. */
enum cua_status cua_ceilings_load(const char *root, const char *gpu,
                                  struct cua_ceilings *c, char *err, size_t errlen);
/* File name used for a GPU model ("NVIDIA H200" → "NVIDIA-H200.json"). */
void cua_ceilings_path(const char *root, const char *gpu, char *buf, size_t len);

/* Speed-of-light time of a task's timed shape in ms under its precision
 * policy, or 0 when unknown. */
double cua_sol_ms(const struct cua_task *t, const struct cua_ceilings *c);

/* Speed of light: faster than the ceilings allow is an anomaly, not a win. Sets
 * e's sol_ms and pct_sol (a correct, timed e only) and fails it with
 * timing_anomaly above 110 % of SOL. */
void cua_sol_apply(const struct cua_task *t, const struct cua_ceilings *c,
                   struct cua_eval *e);

#endif /* CUA_DEVICE_H */
