/* test-extract.c — finding the code in an agent's reply (harness/episode/extract.c):
 * which fenced block is the kernel, the fence rules, the note when there is none,
 * and what counts as defining cua_solve. Table-driven. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <string.h>

#include "episode/extract.h"

struct extract_case {
	char name[64];
	char reply[240];
	char code[96];               /* expected code; "" with a note means NULL */
	char note[48];               /* expected note (prefix), "" when code is found */
};

static struct extract_case extract_cases[] = {
	{ "one cuda block", "Text.\n```cuda\nint cua_solve(int a) { return 0; }\n```\nMore.",
	  "int cua_solve(int a) { return 0; }\n", "" },
	{ "the block defining cua_solve wins over a later one",
	  "```cuda\nint cua_solve(int a) {}\n```\nBuild it:\n```bash\nnvcc -O3 k.cu\n```\n",
	  "int cua_solve(int a) {}\n", "" },
	{ "the last block defining cua_solve",
	  "```cuda\nint cua_solve(int a) { v1 }\n```\n```cuda\nint cua_solve(int a) { v2 }\n```",
	  "int cua_solve(int a) { v2 }\n", "" },
	{ "a declaration does not count",
	  "```c\nint cua_solve(int a);\n```\n```cpp\n__global__ void k() {}\n```",
	  "__global__ void k() {}\n", "" },
	{ "a c-family block over a later other one",
	  "```cpp\nhelper();\n```\n```python\nprint(1)\n```", "helper();\n", "" },
	{ "an untagged block is c-family", "```python\nx\n```\n```\nplain\n```\n", "plain\n", "" },
	{ "else the last block", "```python\nprint(1)\n```\n", "print(1)\n", "" },
	{ "tags are case-insensitive, c++", "```C++\na\n```\n```CUDA\nb\n```\n```text\nc\n```",
	  "b\n", "" },
	{ "no fence", "Use shared memory and a grid-stride loop.", "",
	  "the reply had no fenced code block" },
	{ "an empty reply", "", "", "the reply had no fenced code block" },
	{ "inline triple backticks are not a fence", "Write ```cuda``` blocks please.", "",
	  "the reply had no fenced code block" },
	{ "unterminated fence", "```cuda\nint cua_solve(int a) {\n  return", "",
	  "the reply's code block is not closed" },
	{ "crlf line ends become lf", "Hi\r\n```cuda\r\nint x;\r\nint y;\r\n```\r\n",
	  "int x;\nint y;\n", "" },
	{ "tilde fences", "~~~c\nint t;\n~~~\n", "int t;\n", "" },
	{ "a longer fence holds a shorter one",
	  "````markdown\n```cuda\nin\n```\n````\n", "```cuda\nin\n```\n", "" },
	{ "a closing fence may be longer", "```cuda\nx\n`````\n", "x\n", "" },
	{ "a tilde line does not close backticks", "```cuda\nx\n~~~\ny\n```\n", "x\n~~~\ny\n", "" },
	{ "text after a fence is not a close", "```cuda\nx\n``` not yet\ny\n```", "x\n``` not yet\ny\n",
	  "" },
	{ "indented fences lose their indentation", "1. Code:\n  ```cuda\n  int z;\n    w;\n  ```\n",
	  "int z;\n  w;\n", "" },
	{ "four spaces is not a fence", "    ```cuda\n    int q;\n    ```\n", "",
	  "the reply had no fenced code block" },
	{ "a space before the tag", "``` cuda\nint s;\n```", "int s;\n", "" },
	{ "an empty block is a block", "```cuda\n```\n", "", "" },
	{ "the last line without a newline", "```cuda\nint e;\n```", "int e;\n", "" },
};

ParameterizedTestParameters(extract, code_blocks_are_found_by_the_rules)
{
	return cr_make_param_array(struct extract_case, extract_cases,
	                           CUA_ARRAY_LEN(extract_cases));
}

ParameterizedTest(struct extract_case *c, extract, code_blocks_are_found_by_the_rules)
{
	char note[256] = "junk";
	char *code = cua_extract_code(c->reply, note, sizeof note);
	if (c->code[0] || !c->note[0]) {
		cr_assert_not_null(code, "%s: no code (%s)", c->name, note);
		cr_expect_str_eq(code, c->code, "%s", c->name);
		cr_expect_str_eq(note, "", "%s", c->name);
	} else {
		cr_expect_null(code, "%s: got %s", c->name, code ? code : "");
		cr_expect(!strncmp(note, c->note, strlen(c->note)), "%s: note %s", c->name, note);
	}
	free(code);
}

Test(extract, a_null_reply_and_a_null_note_are_fine)
{
	cr_expect_null(cua_extract_code(NULL, NULL, 0));
}

struct solve_case {
	char src[96];
	bool defines;
};

static struct solve_case solve_cases[] = {
	{ "int cua_solve(const struct cua_tensor *in, int n) {", true },
	{ "int cua_solve(const struct cua_tensor *in, int n);", false },
	{ "return cua_solve(in, n, out, m, s);", false },
	{ "int my_cua_solve(int x) { }", false },
	{ "int cua_solve_v2(int x) { }", false },
	{ "int cua_solve /* c */ (int (*f)(int)) // c\n {", true },
	{ "extern \"C\" int cua_solve(\n  int a,\n  int b)\n{\n}", true },
	{ "int cua_solve(int a", false },
};

ParameterizedTestParameters(extract, defining_cua_solve_is_recognised)
{
	return cr_make_param_array(struct solve_case, solve_cases, CUA_ARRAY_LEN(solve_cases));
}

ParameterizedTest(struct solve_case *c, extract, defining_cua_solve_is_recognised)
{
	cr_expect_eq(cua_extract_defines_solve(c->src, strlen(c->src)), c->defines, "%s", c->src);
}
