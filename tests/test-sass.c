/* test-sass.c — the SASS precision check (harness/compile/sass.c): listings that cuobjdump
 * 13.2 printed for kernels built here with nvcc 13.0 for sm_90a (tests/data/sass/:
 * sgemm-tiled = tests/gpu/candidates/sgemm-tiled.cu, the tf32 and fp16 cheats, a
 * split-bf16 wmma GEMM, half2-and-mma-sync.cu.txt's and wgmma.cu.txt's kernels), and the policy
 * table by opcode. Needs neither cuobjdump nor a GPU. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <string.h>

#include "compile/sass.h"
#include "cuarena-test.h"

static struct cua_sass_scan scan;
static char msg[1024];

TestSuite(sass, .timeout = 20);

static void parse_fixture(const char *name)
{
	char path[4200], *buf = NULL, err[CUA_ERR_LEN];
	size_t len = 0;

	snprintf(path, sizeof path, "%s/tests/data/sass/%s", root(), name);
	cr_assert_eq(cua_read_file(path, 4 << 20, &buf, &len, err, sizeof err), CUA_OK, "%s", err);
	cua_sass_parse(buf, len, &scan);
	free(buf);
}

static bool found(const char *opcode)
{
	int kept = scan.n < CUA_SASS_MAX ? scan.n : CUA_SASS_MAX;
	for (int i = 0; i < kept; i++)
		if (!strcmp(scan.v[i].opcode, opcode))
			return true;
	return false;
}

Test(sass, a_plain_fp32_sgemm_passes_every_policy_despite_its_hfma2_constant_loads)
{
	parse_fixture("sgemm-tiled.txt");
	cr_expect_eq(scan.kernels, 1);
	cr_expect_gt(scan.instructions, 1000, "read %ld instructions", scan.instructions);
	/* HFMA2.MMA R46, -RZ, RZ, 0, 0 is ptxas loading a constant */
	cr_expect_eq(scan.n, 0, "kept %s", scan.n ? scan.v[0].opcode : "");
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_FP32_STRICT, msg, sizeof msg), -1, "%s", msg);
}

Test(sass, wmma_tf32_is_forbidden_when_strict_and_allowed_when_tf32_is)
{
	parse_fixture("tf32-wmma-in-strict.txt");
	cr_expect_eq(scan.kernels, 2);
	cr_assert(found("HMMA.1684.F32.TF32"));
	cr_assert_eq(cua_sass_check(&scan, CUA_PREC_FP32_STRICT, msg, sizeof msg), 0);
	cr_expect(strstr(msg, "HMMA.1684.F32.TF32 in kernel sgemm_tf32_kernel(float const*"),
	          "the message names the instruction and the demangled kernel: %s", msg);
	cr_expect(strstr(msg, "TF32 tensor-core math is not allowed in an fp32-strict task"),
	          "%s", msg);
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_TF32_ALLOWED, msg, sizeof msg), -1, "%s", msg);
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_HALF_ALLOWED, msg, sizeof msg), -1, "%s", msg);
}

Test(sass, scalar_half_math_is_packed_half_hmul2_and_only_half_allowed_takes_it)
{
	parse_fixture("fp16-in-strict.txt");
	cr_assert(found("HMUL2"));
	/* HADD2.F32 Rd, -RZ, Rs.H0_H0 widens a half exactly: not kept */
	cr_expect_not(found("HADD2.F32"));
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_FP32_STRICT, msg, sizeof msg), 0);
	cr_expect(strstr(msg, "packed half-precision math"), "%s", msg);
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_TF32_ALLOWED, msg, sizeof msg), 0);
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_HALF_ALLOWED, msg, sizeof msg), -1, "%s", msg);
}

Test(sass, split_bf16_tensor_cores_are_forbidden_when_strict_and_when_only_tf32_is_allowed)
{
	parse_fixture("split-bf16-wmma.txt");
	cr_assert(found("HMMA.16816.F32.BF16"));
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_FP32_STRICT, msg, sizeof msg), 0);
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_TF32_ALLOWED, msg, sizeof msg), 0);
	cr_expect(strstr(msg, "bf16 tensor-core math is not allowed in a tf32-allowed task"),
	          "%s", msg);
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_HALF_ALLOWED, msg, sizeof msg), -1, "%s", msg);
}

Test(sass, mma_sync_and_half2_intrinsics_are_each_seen_in_their_kernel)
{
	parse_fixture("half2-and-mma-sync.txt");
	cr_expect_eq(scan.kernels, 2);
	cr_expect(found("HMMA.1688.F32.BF16"));
	cr_expect(found("HMMA.1688.F32.TF32"));
	cr_expect(found("IMMA.16816.S8.S8"));
	cr_expect(found("HMUL2"));
	cr_expect(found("HFMA2.MMA"), "__hfma2/__hadd2 on real operands are half math");
	/* int8 tensor cores are below every policy */
	cr_expect_geq(cua_sass_check(&scan, CUA_PREC_HALF_ALLOWED, msg, sizeof msg), 0);
	cr_expect(strstr(msg, "IMMA.16816.S8.S8 in kernel kmma(float const*, float*)"), "%s", msg);
}

Test(sass, wgmma_is_hgmma_by_operand_type_and_fp8_wgmma_is_qgmma)
{
	/* wgmma.cu.txt: m64n8k8 tf32, m64n8k16 bf16, m64n8k32 e4m3 (a cubin's listing) */
	parse_fixture("wgmma.txt");
	cr_expect_eq(scan.kernels, 3);
	cr_assert(found("HGMMA.64x8x8.F32.TF32"));
	cr_assert(found("HGMMA.64x8x16.F32.BF16"));
	cr_assert(found("QGMMA.64x8x32.F32.E4M3.E4M3"));
	cr_expect_null(cua_sass_judge("HGMMA.64x8x8.F32.TF32", CUA_PREC_TF32_ALLOWED));
	cr_expect_not_null(cua_sass_judge("HGMMA.64x8x16.F32.BF16", CUA_PREC_TF32_ALLOWED));
	cr_expect_null(cua_sass_judge("HGMMA.64x8x16.F32.BF16", CUA_PREC_HALF_ALLOWED));
	cr_expect_not_null(cua_sass_judge("QGMMA.64x8x32.F32.E4M3.E4M3", CUA_PREC_HALF_ALLOWED));
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_FP32_STRICT, msg, sizeof msg), 0);
}

Test(sass, predicated_instructions_and_odd_lines_are_read_safely)
{
	static const char text[] =
		"\n\tcode for sm_90a\n\t\tFunction : _Z1kv\n"
		"        /*0010*/              @!P0 HMMA.16816.F32 R4, R8, R12, R4 ;  /* 0x0 */\n"
		"        /*0020*/              @P1 HFMA2 R2, -RZ, RZ, 1.5, 0 ;        /* 0x0 */\n"
		"        /*0030*/                   HADD2 R2, R3, -RZ ;              /* 0x0 */\n"
		"        /*0040*/                   DMMA.884 R0, R2, R4, R0 ;        /* 0x0 */\n"
		"        /**/ HMMA.1684.F32.TF32\n"               /* no address: not an instruction */
		"        /*zz*/ HMMA.1684.F32.TF32 R0, R0, R0, R0 ;\n"
		"        /*0050*/\n"                              /* nothing after the address */
		"HMMA.1684.F32.TF32 R0, R0, R0, R0 ;\n";          /* no address */
	cua_sass_parse(text, sizeof text - 1, &scan);
	cr_expect_eq(scan.kernels, 1);
	cr_expect_eq(scan.instructions, 4);
	cr_assert_eq(scan.n, 1, "only the fp16 HMMA: the constant load, the exact add and "
	                        "fp64 DMMA are not kept (kept %d)", scan.n);
	cr_expect_str_eq(scan.v[0].opcode, "HMMA.16816.F32");
	cr_expect_str_eq(scan.v[0].kernel, "_Z1kv");
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_FP32_STRICT, msg, sizeof msg), 0);
	cr_expect(strstr(msg, "fp16 tensor-core math"), "%s", msg);
}

Test(sass, a_listing_with_more_findings_than_kept_counts_them_all)
{
	struct cua_buf b = {0};
	cua_buf_printf(&b, "Function : _Z1kv\n");
	for (int i = 0; i < 3 * CUA_SASS_MAX; i++)
		cua_buf_printf(&b, "  /*%04x*/ HMMA.16816.F32.BF16 R%d, R0, R0, R0 ;\n"
		                   "Function : _Z2k%dv\n", i * 16, i, i);
	cua_sass_parse(b.s, strlen(b.s), &scan);
	free(b.s);
	cr_expect_eq(scan.n, 3 * CUA_SASS_MAX);
	cr_expect_eq(cua_sass_check(&scan, CUA_PREC_FP32_STRICT, msg, sizeof msg), 0);
}

struct judge_case {
	char opcode[40];
	enum cua_precision policy;
	bool allowed;
};

ParameterizedTestParameters(sass, policy_table_by_opcode)
{
	static struct judge_case cases[] = {
		{"FFMA", CUA_PREC_FP32_STRICT, true},
		{"DMMA.884", CUA_PREC_FP32_STRICT, true},
		{"HMMA.1684.F32.TF32", CUA_PREC_FP32_STRICT, false},
		{"HMMA.1684.F32.TF32", CUA_PREC_TF32_ALLOWED, true},
		{"HGMMA.64x128x8.F32.TF32", CUA_PREC_TF32_ALLOWED, true},
		{"HGMMA.64x128x8.F32.TF32", CUA_PREC_FP32_STRICT, false},
		{"HGMMA.64x128x16.F32.BF16", CUA_PREC_TF32_ALLOWED, false},
		{"HGMMA.64x128x16.F32.BF16", CUA_PREC_HALF_ALLOWED, true},
		{"HMMA.16816.F32", CUA_PREC_TF32_ALLOWED, false},
		{"HMMA.16816.F16", CUA_PREC_HALF_ALLOWED, true},
		{"HMMA.16816.F32.BF16", CUA_PREC_HALF_ALLOWED, true},
		{"QGMMA.64x128x32.F32.E4M3.E4M3", CUA_PREC_HALF_ALLOWED, false},
		{"IMMA.16816.S8.S8", CUA_PREC_HALF_ALLOWED, false},
		{"IGMMA.64x128x32.S32.S8.S8", CUA_PREC_TF32_ALLOWED, false},
		{"BMMA.88128.AND.POPC", CUA_PREC_HALF_ALLOWED, false},
		{"HFMA2.MMA", CUA_PREC_FP32_STRICT, false},
		{"HFMA2.BF16_V2", CUA_PREC_TF32_ALLOWED, false},
		{"HADD2", CUA_PREC_HALF_ALLOWED, true},
		{"HMUL2", CUA_PREC_FP32_STRICT, false},
		{"HMNMX2", CUA_PREC_FP32_STRICT, true},      /* exact: min/max of what is given */
		{"HMMAX", CUA_PREC_FP32_STRICT, true},       /* not an HMMA */
	};
	return cr_make_param_array(struct judge_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct judge_case *c, sass, policy_table_by_opcode)
{
	const char *why = cua_sass_judge(c->opcode, c->policy);
	if (c->allowed)
		cr_expect_null(why, "%s under %s: %s", c->opcode, cua_precision_name(c->policy), why);
	else
		cr_expect_not_null(why, "%s under %s should be forbidden", c->opcode,
		                   cua_precision_name(c->policy));
}

Test(sass, without_cuobjdump_the_scan_is_an_environment_error_not_a_pass)
{
	char err[CUA_ERR_LEN] = "";
	enum cua_status st = cua_sass_scan_file("/nonexistent.so", NULL, NULL, &scan, err,
	                                        sizeof err);
	cr_expect_eq(st, CUA_E_NOT_FOUND);
	cr_expect(strstr(err, "cuobjdump"), "%s", err);
}
