/* cmd-doctor.c — `cuarena doctor [--measure]`: GPU, driver, nvcc, libraries, the
 * isolation a build and a kernel's process get here, and the device's measured
 * ceilings (cached per GPU model in data/devices/). */
#include "cli/cli.h"
#include "compile/compile.h"
#include "judge/jail.h"
#include "sandbox.h"
#include "compile/sass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>

/* Runs `cuarena __probe|__measure` in a child; returns its JSON (or NULL). */
static cJSON *run_child(struct cua_cli *cli, const char *what, double timeout_s,
                        char *err, size_t errlen)
{
	const char *argv[] = {cli->self, what, NULL};
	char ld[CUA_PATH_BUF];
	const char *env[4] = {"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C", NULL, NULL};
	const char *v = getenv("LD_LIBRARY_PATH");
	if (v) {
		snprintf(ld, sizeof(ld), "LD_LIBRARY_PATH=%s", v);
		env[2] = ld;
	}
	struct cua_sandbox_opts o;
	struct cua_child_result r;
	cua_sandbox_opts_init(&o);
	o.timeout_s = timeout_s;
	o.capture_max = 1 << 20;
	o.env = env;
	if (cua_sandbox_run(argv, &o, &r, err, errlen) != CUA_OK)
		return NULL;
	cJSON *j = r.out ? cJSON_Parse(r.out) : NULL;
	if (!j)
		cua_errf(err, errlen, "%s %s", what,
		         r.how == CUA_CHILD_TIMEOUT ? "timed out" : "printed no JSON");
	cua_child_result_clear(&r);
	return j;
}

/* Starts /bin/true the way the judge starts a kernel's process and says what
 * isolation it got (jail.h). */
static bool jail_probe(char *line, size_t len, cJSON *j, char *err, size_t errlen)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		return false;
	}
	const char *argv[] = { "true", NULL };
	const char *env[] = { "PATH=/usr/bin:/bin", NULL };
	struct cua_jail_opts jo;
	memset(&jo, 0, sizeof(jo));
	jo.exe = access("/bin/true", X_OK) == 0 ? "/bin/true" : "/usr/bin/true";
	jo.argv = argv;
	jo.env = env;
	jo.dir = "/";
	jo.sock_fd = sv[1];
	jo.out_fd = -1;
	pid_t pid;
	struct cua_jail_info info;
	bool ok = cua_jail_spawn(&jo, &pid, &info, err, errlen) == CUA_OK;
	close(sv[0]);
	close(sv[1]);
	if (ok) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
		if (!ok)
			snprintf(err, errlen, "the jailed /bin/true did not exit 0 (status %d)", st);
		cua_jail_describe(&info, line, len);
		cJSON_AddStringToObject(j, "what", line);
		cJSON_AddBoolToObject(j, "pid_ns", info.pid_ns);
		cJSON_AddBoolToObject(j, "net_ns", info.net_ns);
		cJSON_AddBoolToObject(j, "unprivileged", info.user_dropped);
	}
	return ok;
}

static bool lib_present(const char *name)
{
	char p[512];
	const char *home = getenv("CUDA_HOME") ? getenv("CUDA_HOME") : "/usr/local/cuda";
	snprintf(p, sizeof(p), "%s/lib64/%s", home, name);
	if (access(p, R_OK) == 0)
		return true;
	snprintf(p, sizeof(p), "/usr/lib/x86_64-linux-gnu/%s", name);
	return access(p, R_OK) == 0;
}

int cmd_doctor(struct cua_cli *cli, int argc, char **argv)
{
	bool measure = false;
	char err[CUA_ERR_LEN] = "";
	int rc = CUA_EXIT_OK;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--measure"))
			measure = true;
		else
			return cua_cli_usage("doctor");
	}
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "root", cli->root);
	cJSON_AddStringToObject(o, "cache", cli->cache);
	const char *nvcc = cua_find_nvcc();
	const char *ver = cua_nvcc_version(nvcc);
	cJSON_AddStringToObject(o, "nvcc", nvcc ? nvcc : "");
	cJSON_AddStringToObject(o, "nvcc_version", ver ? ver : "");
	/* the SASS precision check lists machine code with it */
	const char *objdump = cua_find_cuobjdump(nvcc);
	cJSON_AddStringToObject(o, "cuobjdump", objdump ? objdump : "");
	cJSON *libs = cJSON_AddObjectToObject(o, "libraries");
	cJSON_AddBoolToObject(libs, "cudart", lib_present("libcudart.so.13") || lib_present("libcudart.so"));
	cJSON_AddBoolToObject(libs, "cublas", lib_present("libcublas.so.13") || lib_present("libcublas.so"));
	cJSON_AddBoolToObject(libs, "cudnn", lib_present("libcudnn.so.9") || lib_present("libcudnn.so"));
	if (!nvcc || !ver || !objdump)
		rc = CUA_EXIT_ENV;
	/* The isolation a kernel's process gets here: the jail, tried with /bin/true */
	cJSON *jail = cJSON_AddObjectToObject(o, "jail");
	char jail_line[160], jerr[CUA_ERR_LEN] = "";
	bool jail_ok = jail_probe(jail_line, sizeof(jail_line), jail, jerr, sizeof(jerr));
	cJSON_AddBoolToObject(jail, "ok", jail_ok);
	if (!jail_ok) {
		cJSON_AddStringToObject(jail, "problem", jerr);
		rc = CUA_EXIT_ENV;
	}
	/* nvcc's own jail: without it `serve` refuses to start, eval and run warn */
	cJSON *bj = cJSON_AddObjectToObject(o, "build_jail");
	char build_line[320], berr[CUA_ERR_LEN];
	bool build_ok = cua_build_jail_available(berr, sizeof(berr));
	cua_build_jail_describe(build_line, sizeof(build_line));
	cJSON_AddBoolToObject(bj, "ok", build_ok);
	cJSON_AddStringToObject(bj, build_ok ? "what" : "problem", build_ok ? build_line : berr);
	if (!build_ok)
		rc = CUA_EXIT_ENV;

	cJSON *dev = NULL;
	if (!cua_have_gpu()) {
		snprintf(err, sizeof(err), "no NVIDIA GPU on this machine (no /dev/nvidia*)");
		rc = CUA_EXIT_ENV;
	} else {
		dev = run_child(cli, measure ? "__measure" : "__probe", 300, err, sizeof(err));
		if (!dev || cJSON_GetObjectItem(dev, "error")) {
			if (dev)
				snprintf(err, sizeof(err), "%s",
				         cJSON_GetObjectItem(dev, "error")->valuestring);
			rc = CUA_EXIT_ENV;
		}
	}
	const cJSON *name = dev ? cJSON_GetObjectItem(dev, "name") : NULL;
	char path[CUA_PATH_BUF] = "";
	if (cJSON_IsString(name)) {
		cua_ceilings_path(cli->root, name->valuestring, path, sizeof(path));
		if (measure && cJSON_GetObjectItem(dev, "ceilings")) {
			char *s = cJSON_Print(dev);
			char werr[CUA_ERR_LEN];
			if (cua_write_file(path, s, strlen(s), werr, sizeof(werr)) != CUA_OK) {
				fprintf(stderr, "cuarena doctor: %s\n", werr);
				rc = CUA_EXIT_ENV;
			}
			free(s);
		}
		struct cua_ceilings c;
		if (cua_ceilings_load(cli->root, name->valuestring, &c, NULL, 0) == CUA_OK) {
			cJSON *cj = cJSON_AddObjectToObject(o, "ceilings");
			cJSON_AddStringToObject(cj, "file", path);
			cJSON_AddNumberToObject(cj, "copy_gbs", c.copy_gbs);
			cJSON_AddNumberToObject(cj, "ffma_peak_tflops", c.ffma_tflops);
			cJSON_AddNumberToObject(cj, "sgemm_fp32_tflops", c.sgemm_fp32_tflops);
			cJSON_AddNumberToObject(cj, "sgemm_tf32_tflops", c.sgemm_tf32_tflops);
			cJSON_AddNumberToObject(cj, "gemm_bf16_tflops", c.gemm_bf16_tflops);
		}
	}
	if (dev)
		cJSON_AddItemToObject(o, "device", dev);
	if (err[0])
		cJSON_AddStringToObject(o, "problem", err);

	if (cli->json) {
		cua_cli_print_json(o);
		return rc;
	}
	printf("root      %s\ncache     %s\n", cli->root, cli->cache);
	printf("nvcc      %s (%s)\n", nvcc ? nvcc : "not found", ver ? ver : "does not run");
	printf("cuobjdump %s\n", objdump ? objdump
	                                 : "not found (the SASS check needs it: make deps)");
	if (jail_ok)
		printf("jail      %s (the kernel's process)\n", jail_line);
	else
		printf("jail      cannot start the kernel's process: %s\n", jerr);
	if (build_ok)
		printf("build     %s (nvcc)\n", build_line);
	else
		printf("build     NOT JAILED: %s: nvcc would see the whole file system, so `serve` "
		       "refuses to start; eval and run go on with a warning (docs/SECURITY.md)\n",
		       berr);
	printf("libraries cudart %s, cuBLAS %s, cuDNN %s\n",
	       cJSON_IsTrue(cJSON_GetObjectItem(libs, "cudart")) ? "yes" : "NO",
	       cJSON_IsTrue(cJSON_GetObjectItem(libs, "cublas")) ? "yes" : "NO",
	       cJSON_IsTrue(cJSON_GetObjectItem(libs, "cudnn")) ? "yes" : "NO");
	if (cJSON_IsString(name)) {
		const cJSON *d = dev;
		const cJSON *dv = cJSON_GetObjectItem(d, "driver_version");
		printf("gpu       %s, sm_%d%d, %d SMs, L2 %.0f MiB, %.0f GiB, driver %s (CUDA %d)\n",
		       name->valuestring, (int)cJSON_GetObjectItem(d, "cc_major")->valuedouble,
		       (int)cJSON_GetObjectItem(d, "cc_minor")->valuedouble,
		       (int)cJSON_GetObjectItem(d, "sms")->valuedouble,
		       cJSON_GetObjectItem(d, "l2_bytes")->valuedouble / (1 << 20),
		       cJSON_GetObjectItem(d, "mem_bytes")->valuedouble / (1 << 30),
		       cJSON_IsString(dv) ? dv->valuestring : "?",
		       (int)cJSON_GetObjectItem(d, "driver")->valuedouble);
	}
	const cJSON *cj = cJSON_GetObjectItem(o, "ceilings");
	if (cj)
		printf("ceilings  copy %.0f GB/s, FFMA peak %.1f TFLOP/s, SGEMM %.1f, TF32 %.1f, "
		       "BF16 %.1f TFLOP/s (%s)\n",
		       cJSON_GetObjectItem(cj, "copy_gbs")->valuedouble,
		       cJSON_GetObjectItem(cj, "ffma_peak_tflops")->valuedouble,
		       cJSON_GetObjectItem(cj, "sgemm_fp32_tflops")->valuedouble,
		       cJSON_GetObjectItem(cj, "sgemm_tf32_tflops")->valuedouble,
		       cJSON_GetObjectItem(cj, "gemm_bf16_tflops")->valuedouble,
		       path);
	else if (cJSON_IsString(name))
		printf("ceilings  not measured for this GPU: run `cuarena doctor --measure`\n");
	if (err[0])
		printf("problem   %s\n", err);
	cJSON_Delete(o);
	return rc;
}
