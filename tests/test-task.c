/* test-task.c — task.json loading and validation, and the catalogue (harness/task.c).
 * Fixtures: tests/data/tasks/ (regenerate with tests/data/tasks/make-fixtures.py). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "task.h"

/* Path of a fixture under tests/data/tasks/, in a static buffer. */
static const char *fixture(const char *rel)
{
	static char path[4096];
	const char *root = getenv("CUARENA_ROOT");
	cr_assert_not_null(root, "CUARENA_ROOT must name the repository root");
	snprintf(path, sizeof(path), "%s/tests/data/tasks/%s", root, rel);
	return path;
}

/* A fresh private directory, removed by the caller with cua_rmtree. */
static char *temp_dir(void)
{
	char *dir = strdup("/tmp/cuarena-test-task-XXXXXX");
	cr_assert_not_null(dir);
	cr_assert_not_null(mkdtemp(dir));
	return dir;
}

static void write_text(const char *dir, const char *rel, const char *text)
{
	char path[4096], err[CUA_ERR_LEN];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	cr_assert_eq(cua_write_file(path, text, strlen(text), err, sizeof(err)), CUA_OK, "%s", err);
}

static char *read_text(const char *path)
{
	char *buf = NULL, err[CUA_ERR_LEN];
	size_t len;
	cr_assert_eq(cua_read_file(path, 1 << 20, &buf, &len, err, sizeof(err)), CUA_OK, "%s", err);
	return buf;
}

/* ---- one task ------------------------------------------------------------- */

Test(task, loads_every_field_of_a_valid_task)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_task *t = NULL;
	const char *dir = fixture("good/tasks/L1/001-thing");
	cr_assert_eq(cua_task_load(dir, &t, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_not_null(t);

	cr_expect_str_eq(t->id, "L1/001-thing");
	cr_expect_str_eq(t->dir, dir);
	cr_expect_eq(t->level, 1);
	cr_expect_str_eq(t->title, "Thing");
	cr_expect_str_eq(t->description,
	                 "y = alpha * (A @ B) + x: a made-up op that uses every field.");
	cr_expect_str_eq(t->torch, "alpha * (A @ B.float())");

	cr_assert_eq(t->n_params, 2);
	cr_expect_str_eq(t->params[0].name, "alpha");
	cr_expect_float_eq(t->params[0].value, 0.5, 1e-15);
	cr_expect(!t->params[0].is_int);
	cr_expect_str_eq(t->params[1].name, "K_pad");
	cr_expect_float_eq(t->params[1].value, 4, 1e-15);
	cr_expect(t->params[1].is_int);

	cr_assert_eq(t->n_inputs, 4);
	cr_expect_str_eq(t->inputs[0].name, "A");
	cr_expect_eq(t->inputs[0].dtype, CUA_F32);
	cr_assert_eq(t->inputs[0].ndim, 2);
	cr_expect_str_eq(t->inputs[0].shape[0], "M");
	cr_expect_str_eq(t->inputs[0].shape[1], "K + K_pad");
	cr_expect_eq(t->inputs[0].init.dist, CUA_DIST_UNIFORM);
	cr_expect_float_eq(t->inputs[0].init.a, -1, 1e-15);
	cr_expect_float_eq(t->inputs[0].init.b, 1, 1e-15);
	cr_expect_eq(t->inputs[1].dtype, CUA_BF16);
	cr_expect_eq(t->inputs[1].init.dist, CUA_DIST_NORMAL);
	cr_expect_float_eq(t->inputs[1].init.a, 0.25, 1e-15);
	cr_expect_float_eq(t->inputs[1].init.b, 0.5, 1e-15);
	cr_expect_eq(t->inputs[2].dtype, CUA_I32);
	cr_expect_eq(t->inputs[2].init.dist, CUA_DIST_INT);
	cr_expect_float_eq(t->inputs[2].init.a, 0, 1e-15);
	cr_expect_float_eq(t->inputs[2].init.b, 9, 1e-15);
	cr_expect_eq(t->inputs[3].dtype, CUA_U8);
	cr_expect_eq(t->inputs[3].init.dist, CUA_DIST_BERNOULLI);
	cr_expect_float_eq(t->inputs[3].init.a, 0.25, 1e-15);
	cr_expect_str_eq(t->inputs[3].shape[1], "3", "an integer dim becomes a literal");

	cr_assert_eq(t->n_outputs, 1);
	cr_expect_str_eq(t->outputs[0].name, "y");
	cr_expect_eq(t->outputs[0].ndim, 2);

	cr_assert_eq(t->n_shapes, 3);
	cr_expect_str_eq(t->shapes[0].name, "odd");
	cr_expect(!t->shapes[0].timed);
	cr_assert_eq(t->shapes[0].n_dims, 3);
	cr_expect_str_eq(t->shapes[0].dims[1].name, "K");
	cr_expect_eq(t->shapes[0].dims[1].value, 13);
	cr_expect(t->shapes[1].timed);
	cr_expect(!t->shapes[2].timed, "\"timed\": false is allowed");
	cr_expect_eq(cua_task_timed_shape(t), 1);

	cr_expect_eq(t->precision, CUA_PREC_TF32_ALLOWED);
	cr_expect_float_eq(t->atol, 1e-4, 1e-18);
	cr_expect_float_eq(t->rtol, 2e-3, 1e-18);
	cr_expect_str_eq(t->flops, "2*M*N*(K+K_pad)");
	cr_assert_eq(t->n_baselines, 1);
	cr_expect_str_eq(t->baselines[0], "cublas/thing");
	cr_assert_eq(t->n_libraries, 1);
	cr_expect_str_eq(t->libraries[0], "cublas");
	cua_task_free(t);
}

Test(task, evaluates_expressions_and_shapes_per_shape_set)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_task *t = NULL;
	int64_t v, dims[CUA_MAX_DIMS];
	cr_assert_eq(cua_task_load(fixture("good/tasks/L1/001-thing"), &t, err, sizeof(err)),
	             CUA_OK, "%s", err);

	cr_assert_eq(cua_task_eval(t, 1, t->flops, &v, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(v, 2LL * 4096 * 4096 * 4096, "timed flops = 2*M*N*(K+K_pad)");
	cr_assert_eq(cua_task_eval(t, 0, t->flops, &v, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(v, 2LL * 37 * 101 * 17);
	cr_assert_eq(cua_task_eval(t, 0, t->bytes, &v, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_eq(v, 4LL * 37 * 17 + 2 * 17 * 101 + 4 * 37 + 3 * 37 + 4 * 37 * 101);

	cr_assert_eq(cua_task_tensor_shape(t, 0, &t->inputs[0], dims, err, sizeof(err)), CUA_OK);
	cr_expect_eq(dims[0], 37);
	cr_expect_eq(dims[1], 17);
	cr_expect_eq(dims[2], 0, "dims past ndim are zero");
	cr_assert_eq(cua_task_tensor_shape(t, 2, &t->inputs[3], dims, err, sizeof(err)), CUA_OK);
	cr_expect_eq(dims[0], 1);
	cr_expect_eq(dims[1], 3);

	cr_expect_eq(cua_task_eval(t, 0, "alpha*M", &v, err, sizeof(err)), CUA_E_PARSE,
	             "non-integer params are not bound");
	cr_expect_str_eq(err, "column 1: unknown name 'alpha'");
	cr_expect_eq(cua_task_eval(t, 3, "M", &v, err, sizeof(err)), CUA_E_INVALID);
	cr_expect_str_eq(err, "no shape set 3 (the task has 3)");
	cr_expect_eq(cua_task_eval(t, -1, "M", &v, err, sizeof(err)), CUA_E_INVALID);
	cua_task_free(t);
}

Test(task, the_control_task_of_the_malformed_set_loads)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_task *t = NULL;
	cr_assert_eq(cua_task_load(fixture("bad/tasks/L1/control"), &t, err, sizeof(err)), CUA_OK,
	             "every malformed case differs from this one by one change: %s", err);
	cr_expect_str_eq(t->id, "L1/control");
	cr_expect_eq(t->precision, CUA_PREC_FP32_STRICT);
	cr_expect_null(t->torch);
	cr_expect_eq(t->n_libraries, 0);
	cua_task_free(t);
}

/* Criterion hands parameters to a separate worker process: strings are
 * arrays, since pointers into this one would not be valid there. */
struct bad_case {
	char folder[32];              /* under bad/tasks/L1/ */
	char msg[96];                 /* expected after "<folder>/task.json: " */
};

ParameterizedTestParameters(task, rejects_malformed_task_json_naming_file_and_field)
{
	static struct bad_case cases[] = {
		{"invalid-json", "line 4, column 3: invalid JSON"},
		{"not-object", "line 1, column 1: the document must be a JSON object"},
		{"duplicate-key", "title: duplicate field"},
		{"missing-field", "flops: required field is missing"},
		{"wrong-type", "level: must be an integer"},
		{"wrong-type-shape", "inputs[0].shape: must be an array of expressions"},
		{"empty-title", "title: must not be empty"},
		{"unknown-field", "flop: unknown field"},
		{"nested-unknown-field", "inputs[0].dtyp: unknown field"},
		{"output-with-init", "outputs[0].init: unknown field"},
		{"unknown-dim", "outputs[0].shape[1]: column 1: unknown name 'Q' (shape set 'timed')"},
		{"bad-dtype", "inputs[0].dtype: unknown dtype 'f33'"},
		{"bad-name", "inputs[0].name: '1x' is not a C identifier"},
		{"duplicate-names", "outputs[0].name: 'x' is already used by inputs[0]"},
		{"too-many-dims", "inputs[0].shape: must have 1 to 8 dims (has 9)"},
		{"too-many-inputs", "inputs: must have 1 to 8 entries (has 9)"},
		{"no-outputs", "outputs: must have 1 to 8 entries (has 0)"},
		{"two-timed", "shapes: 2 shape sets are timed (shapes[0], shapes[1]); "
		              "exactly one must be"},
		{"no-timed", "shapes: no shape set is timed"},
		{"no-check-shape", "shapes: needs at least one check shape set besides the timed one"},
		{"duplicate-shape-name", "shapes[1].name: 'timed' is already used by shapes[0]"},
		{"negative-dim", "shapes[1].dims.D: must be a positive integer"},
		{"fractional-dim", "shapes[1].dims.D: must be a positive integer"},
		{"dim-param-clash", "shapes[0].dims.pad: 'pad' is also a param"},
		{"zero-size-dim", "outputs[0].shape[1]: is 0 in shape set 'odd' (must be >= 1)"},
		{"init-normal-std", "inputs[0].init.std: must be > 0 (is 0)"},
		{"init-uniform-high", "inputs[0].init.high: must be > low (1 <= 1)"},
		{"init-int-high", "inputs[0].init.high: must be >= low (4 < 5)"},
		{"init-bernoulli-p", "inputs[0].init.p: must be strictly between 0 and 1 (is 1)"},
		{"init-unknown-dist", "inputs[0].init.dist: unknown distribution 'poisson'"},
		{"init-extra-key", "inputs[0].init.low: unknown field"},
		{"init-missing", "inputs[0].init: required field is missing"},
		{"level-mismatch", "level: is 2 but the task folder is in 'L1' (expected 'L2')"},
		{"level-out-of-range", "level: must be 1 to 9 (is 10)"},
		{"non-int-param", "flops: column 1: param 'slope' is not an integer (0.01)"},
		{"division-by-zero", "bytes: column 6: division by zero (shape set 'odd')"},
		{"overflow", "flops: column 8: overflow in '*' (shape set 'timed')"},
		{"expr-syntax", "inputs[0].shape[1]: column 3: expected ')', found end of expression"},
		{"empty-expr", "inputs[0].shape[1]: column 1: empty expression"},
		{"missing-baseline", "baselines[0]: no file baselines/cublas/absent.cu"},
		{"bad-baseline-format", "baselines[0]: 'cublas' is not \"<library>/<slug>\""},
		{"bad-library", "libraries[0]: unknown library 'mkl' (cublas, cudnn)"},
		{"negative-atol", "tolerance.atol: must be >= 0 (is -1e-05)"},
		{"infinite-atol", "tolerance.atol: must be a finite number"},
		{"missing-rtol", "tolerance.rtol: required field is missing"},
		{"bad-precision", "precision: unknown precision 'fp16'"},
	};
	return cr_make_param_array(struct bad_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct bad_case *c, task, rejects_malformed_task_json_naming_file_and_field)
{
	char err[CUA_ERR_LEN] = "", rel[256], want[CUA_ERR_LEN];
	struct cua_task *t = (struct cua_task *)1;
	snprintf(rel, sizeof(rel), "bad/tasks/L1/%s", c->folder);
	const char *dir = fixture(rel);
	enum cua_status rc = cua_task_load(dir, &t, err, sizeof(err));
	cr_assert_eq(rc, CUA_E_PARSE, "%s: status %d: %s", c->folder, rc, err);
	cr_assert_null(t, "%s: *out is NULL on failure", c->folder);
	snprintf(want, sizeof(want), "%s/task.json: %s", dir, c->msg);
	cr_assert(strncmp(err, want, strlen(want)) == 0, "%s:\n got  %s\n want %s...", c->folder,
	          err, want);
	cr_assert_null(strchr(err, '\n'), "one line");
}

Test(task, rejects_a_file_over_one_mebibyte)
{
	char err[CUA_ERR_LEN] = "", *dir = temp_dir(), path[4096];
	struct cua_task *t = NULL;
	size_t n = (1 << 20) + 1;
	char *big = malloc(n + 1);
	memset(big, ' ', n);
	big[0] = '{';
	big[n - 1] = '}';
	big[n] = '\0';
	write_text(dir, "tasks/L1/001-big/task.json", big);
	snprintf(path, sizeof(path), "%s/tasks/L1/001-big", dir);
	cr_expect_eq(cua_task_load(path, &t, err, sizeof(err)), CUA_E_INVALID);
	cr_expect_null(t);
	cr_expect(strstr(err, "001-big/task.json: file is larger than 1 MiB") != NULL, "%s", err);
	free(big);
	cua_rmtree(dir);
	free(dir);
}

Test(task, reports_a_missing_task_json_as_not_found)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_task *t = NULL;
	const char *dir = fixture("good/tasks/L1/099-draft");
	cr_assert_eq(cua_task_load(dir, &t, err, sizeof(err)), CUA_E_NOT_FOUND);
	cr_assert_null(t);
	cr_assert(strstr(err, "099-draft/task.json: cannot read") != NULL, "%s", err);
}

Test(task, accepts_a_folder_given_with_a_trailing_slash)
{
	char err[CUA_ERR_LEN] = "", dir[4096];
	struct cua_task *t = NULL;
	snprintf(dir, sizeof(dir), "%s/", fixture("bad/tasks/L1/wrong-type"));
	cr_assert_eq(cua_task_load(dir, &t, err, sizeof(err)), CUA_E_PARSE);
	cr_assert(strstr(err, "L1/wrong-type/task.json: level:") != NULL, "no '//': %s", err);
	snprintf(dir, sizeof(dir), "%s/", fixture("good/tasks/L2/007-relu"));
	cr_assert_eq(cua_task_load(dir, &t, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_str_eq(t->id, "L2/007-relu");
	cua_task_free(t);
}

Test(task, free_of_null_is_a_no_op)
{
	cua_task_free(NULL);
	cua_catalogue_free(NULL);
}

struct dtype_case {
	enum cua_dtype dtype;
	char name[8];
	size_t size;
};

ParameterizedTestParameters(task, names_and_sizes_every_dtype)
{
	static struct dtype_case cases[] = {
		{CUA_F32, "f32", 4}, {CUA_F64, "f64", 8}, {CUA_F16, "f16", 2},
		{CUA_BF16, "bf16", 2}, {CUA_I32, "i32", 4}, {CUA_I64, "i64", 8},
		{CUA_U8, "u8", 1},
	};
	return cr_make_param_array(struct dtype_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct dtype_case *c, task, names_and_sizes_every_dtype)
{
	cr_assert_str_eq(cua_dtype_name(c->dtype), c->name);
	cr_assert_eq(cua_dtype_size(c->dtype), c->size);
}

Test(task, names_precisions_and_flags_unknown_enum_values)
{
	cr_expect_str_eq(cua_precision_name(CUA_PREC_FP32_STRICT), "fp32-strict");
	cr_expect_str_eq(cua_precision_name(CUA_PREC_TF32_ALLOWED), "tf32-allowed");
	cr_expect_str_eq(cua_precision_name(CUA_PREC_HALF_ALLOWED), "half-allowed");
	cr_expect_str_eq(cua_precision_name((enum cua_precision)7), "?");
	cr_expect_str_eq(cua_dtype_name((enum cua_dtype)99), "?");
	cr_expect_eq(cua_dtype_size((enum cua_dtype)99), 0);
}

/* ---- the catalogue -------------------------------------------------------- */

Test(catalogue, loads_every_task_sorted_by_id_and_ignores_common)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_catalogue cat;
	static const char *const ids[] = {"L1/001-thing", "L1/020-relu", "L2/001-thing",
	                                  "L2/007-relu"};
	cr_assert_eq(cua_catalogue_load(fixture("good"), &cat, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_eq(cat.n, 4, "099-draft has no task.json; common/ is not a level");
	for (int i = 0; i < 4; i++)
		cr_expect_str_eq(cat.tasks[i]->id, ids[i]);
	cr_expect_eq(cat.n_bad, 0);
	cr_expect_null(cat.errors);
	cr_expect_eq(strlen(cat.hash), 64);
	cr_expect_eq(strspn(cat.hash, "0123456789abcdef"), 64);
	cua_catalogue_free(&cat);
	cr_expect_eq(cat.n, 0);
	cr_expect_null(cat.tasks);
}

Test(catalogue, loads_the_good_tasks_and_reports_every_bad_one)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_catalogue cat;
	const char *root = fixture("cat");
	cr_assert_eq(cua_catalogue_load(root, &cat, err, sizeof(err)), CUA_E_PARSE, "%s", err);
	cr_assert_eq(cat.n, 2);
	cr_expect_str_eq(cat.tasks[0]->id, "L1/001-relu");
	cr_expect_str_eq(cat.tasks[1]->id, "L2/001-softmax");
	cr_expect_str_eq(cat.tasks[1]->title, "Softmax");
	cr_assert_eq(cat.n_bad, 2);
	cr_assert_not_null(cat.errors);

	/* one line per bad task, in scan order */
	char *first = strdup(cat.errors), *second = strchr(first, '\n');
	cr_assert_not_null(second, "%s", cat.errors);
	*second++ = '\0';
	cr_expect(strstr(first, "/tasks/L1/002-broken/task.json: line ") != NULL, "%s", first);
	cr_expect(strstr(first, ": invalid JSON") != NULL, "%s", first);
	cr_expect(strstr(second, "/tasks/L2/003-missing/task.json: flops: required field is "
	                         "missing\n") != NULL, "%s", second);
	cr_expect_eq(strchr(second, '\n')[1], '\0', "exactly two lines: %s", cat.errors);
	free(first);
	cr_expect(strncmp(err, "2 tasks failed to load; the first: ", 35) == 0, "%s", err);
	cua_catalogue_free(&cat);
}

Test(catalogue, fails_cleanly_when_there_is_no_tasks_folder)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_catalogue cat;
	cr_assert_eq(cua_catalogue_load(fixture("no-such-root"), &cat, err, sizeof(err)),
	             CUA_E_NOT_FOUND);
	cr_assert_eq(cat.n, 0);
	cr_assert_null(cat.tasks);
	cr_assert(strstr(err, "no-such-root/tasks: cannot open") != NULL, "%s", err);
}

Test(catalogue, hashes_each_file_as_path_nul_contents_in_path_order)
{
	char err[CUA_ERR_LEN] = "", want[65], *dir = temp_dir();
	struct cua_catalogue cat;
	static const char stream[] = "a.txt\0x" "sub/b.txt\0yz";
	write_text(dir, "tasks/sub/b.txt", "yz");
	write_text(dir, "tasks/a.txt", "x");
	cr_assert_eq(cua_catalogue_load(dir, &cat, err, sizeof(err)), CUA_OK, "%s", err);
	cua_sha256_hex(stream, sizeof(stream) - 1, want);
	cr_expect_str_eq(cat.hash, want);
	cr_expect_eq(cat.n, 0);
	cua_catalogue_free(&cat);
	cua_rmtree(dir);
	free(dir);
}

Test(catalogue, hash_changes_when_any_file_under_tasks_changes)
{
	char err[CUA_ERR_LEN] = "", h0[65], *dir = temp_dir();
	struct cua_catalogue cat;
	char *task = read_text(fixture("good/tasks/L1/020-relu/task.json"));
	write_text(dir, "tasks/L1/020-relu/task.json", task);
	write_text(dir, "tasks/common/naive.cuh", "// v1\n");

	cr_assert_eq(cua_catalogue_load(dir, &cat, err, sizeof(err)), CUA_OK, "%s", err);
	cr_assert_eq(cat.n, 1);
	strcpy(h0, cat.hash);
	cua_catalogue_free(&cat);

	cr_assert_eq(cua_catalogue_load(dir, &cat, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_str_eq(cat.hash, h0, "same files, same hash");
	cua_catalogue_free(&cat);

	write_text(dir, "tasks/common/naive.cuh", "// v2\n");
	cr_assert_eq(cua_catalogue_load(dir, &cat, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_str_neq(cat.hash, h0, "a shared file changed");
	cua_catalogue_free(&cat);

	write_text(dir, "tasks/common/naive.cuh", "// v1\n");
	write_text(dir, "tasks/L1/020-relu/reference.cu", "// new\n");
	cr_assert_eq(cua_catalogue_load(dir, &cat, err, sizeof(err)), CUA_OK, "%s", err);
	cr_expect_str_neq(cat.hash, h0, "a file was added");
	cua_catalogue_free(&cat);

	free(task);
	cua_rmtree(dir);
	free(dir);
}

struct find_case {
	char name[16];
	char id[16];                   /* "": not found or ambiguous */
	char msg[72];                  /* the error when id is "" */
};

ParameterizedTestParameters(catalogue, finds_a_task_by_id_folder_slug_or_number)
{
	static struct find_case cases[] = {
		{"L1/020-relu", "L1/020-relu", ""},
		{"L2/001-thing", "L2/001-thing", ""},
		{"020-relu", "L1/020-relu", ""},
		{"007-relu", "L2/007-relu", ""},
		{"20", "L1/020-relu", ""},
		{"020", "L1/020-relu", ""},
		{"7", "L2/007-relu", ""},
		{"0007", "L2/007-relu", ""},
		{"001-thing", "", "task '001-thing' is ambiguous: L1/001-thing, L2/001-thing"},
		{"thing", "", "task 'thing' is ambiguous: L1/001-thing, L2/001-thing"},
		{"relu", "", "task 'relu' is ambiguous: L1/020-relu, L2/007-relu"},
		/* numbers repeat across levels: a bare one is the lowest level's */
		{"1", "L1/001-thing", ""},
		{"L2/1", "L2/001-thing", ""},
		{"L2/001", "L2/001-thing", ""},
		{"L1/7", "", "no task 'L1/7'"},
		{"21", "", "no task '21'"},
		{"L3/001-thing", "", "no task 'L3/001-thing'"},
		{"rel", "", "no task 'rel'"},
		{"", "", "no task name given"},
	};
	return cr_make_param_array(struct find_case, cases, CUA_ARRAY_LEN(cases));
}

ParameterizedTest(struct find_case *c, catalogue, finds_a_task_by_id_folder_slug_or_number)
{
	char err[CUA_ERR_LEN] = "";
	struct cua_catalogue cat;
	cr_assert_eq(cua_catalogue_load(fixture("good"), &cat, err, sizeof(err)), CUA_OK, "%s", err);
	const struct cua_task *t = cua_catalogue_find(&cat, c->name, err, sizeof(err));
	if (c->id[0]) {
		cr_expect_not_null(t, "'%s': %s", c->name, err);
		if (t)
			cr_expect_str_eq(t->id, c->id, "'%s'", c->name);
	} else {
		cr_expect_null(t, "'%s' found %s", c->name, t ? t->id : "");
		cr_expect_str_eq(err, c->msg);
	}
	cua_catalogue_free(&cat);
}
