/* test-prompts.c — the prompt helpers (harness/catalogue/prompts.c): filling
 * placeholders, the hash of a root's data/prompts/ templates that a run records,
 * and the shipped templates. */
#include <criterion/criterion.h>
#include <string.h>

#include "catalogue/prompts.h"
#include "cuarena-test.h"

TestSuite(prompts, .fini = tmp_remove);

Test(prompts, placeholders_are_filled_once_and_unknown_ones_kept)
{
	const char *keys[] = { "observation", "turn" };
	const char *vals[] = { "obs with {{turn}} inside", "3" };
	char *s = cua_prompts_fill("T{{turn}}: {{observation}} {{other}} {{turn}}{{", keys, vals, 2);
	cr_assert_not_null(s);
	cr_expect_str_eq(s, "T3: obs with {{turn}} inside {{other}} 3{{");
	free(s);
	s = cua_prompts_fill("", keys, vals, 2);
	cr_expect_str_eq(s, "");
	free(s);
}

Test(prompts, the_hash_covers_names_and_contents_of_the_md_files_in_order)
{
	char h0[65], h1[65], want[65];
	char e[CUA_ERR_LEN], from[4200], to[4200];
	tmp_make();
	const char *dir = tmp;
	cr_expect_eq(cua_prompts_hash(dir, h0, e, sizeof e), CUA_E_NOT_FOUND);
	cr_expect_str_eq(h0, "");
	tmp_write("data/prompts/notes.txt", "ignored");
	cr_expect_eq(cua_prompts_hash(dir, h0, e, sizeof e), CUA_E_NOT_FOUND, "no .md yet");
	tmp_write("data/prompts/turn.md", "T");
	tmp_write("data/prompts/system.md", "S!");
	cr_assert_eq(cua_prompts_hash(dir, h0, e, sizeof e), CUA_OK, "%s", e);

	/* The documented scheme: name NUL size NUL contents, names sorted. */
	struct cua_sha256 *h = cua_sha256_new();
	cua_sha256_update(h, "system.md\0" "2\0" "S!", 10 + 2 + 2);
	cua_sha256_update(h, "turn.md\0" "1\0" "T", 8 + 2 + 1);
	cua_sha256_final(h, want);
	cr_expect_str_eq(h0, want);

	cr_assert_eq(cua_prompts_hash(dir, h1, e, sizeof e), CUA_OK);
	cr_expect_str_eq(h0, h1, "stable");
	tmp_write("data/prompts/notes.txt", "changed");
	cr_assert_eq(cua_prompts_hash(dir, h1, e, sizeof e), CUA_OK);
	cr_expect_str_eq(h0, h1, "other files do not count");
	tmp_write("data/prompts/turn.md", "U");
	cr_assert_eq(cua_prompts_hash(dir, h1, e, sizeof e), CUA_OK);
	cr_expect_str_neq(h0, h1, "an edit changes it");
	tmp_write("data/prompts/turn.md", "T");
	snprintf(from, sizeof from, "%s/data/prompts/turn.md", dir);
	snprintf(to, sizeof to, "%s/data/prompts/turn2.md", dir);
	cr_assert_eq(rename(from, to), 0);
	cr_assert_eq(cua_prompts_hash(dir, h1, e, sizeof e), CUA_OK);
	cr_expect_str_neq(h0, h1, "a rename changes it");
}

Test(prompts, a_root_laid_out_before_data_has_its_templates_in_docs_prompts)
{
	char h0[65], h1[65], e[CUA_ERR_LEN], dir[4200];
	tmp_make();
	tmp_write("docs/prompts/turn.md", "T");
	tmp_write("docs/prompts/system.md", "S!");
	cr_assert_eq(cua_prompts_hash(tmp, h0, e, sizeof e), CUA_OK, "%s", e);
	cua_prompts_dir(tmp, dir, sizeof dir);
	cr_expect(strstr(dir, "/docs/prompts") != NULL, "%s", dir);
	/* data/prompts, once there, is the one read */
	tmp_write("data/prompts/turn.md", "U");
	tmp_write("data/prompts/system.md", "S!");
	cr_assert_eq(cua_prompts_hash(tmp, h1, e, sizeof e), CUA_OK, "%s", e);
	cr_expect_str_neq(h0, h1);
	cua_prompts_dir(tmp, dir, sizeof dir);
	cr_expect(strstr(dir, "/data/prompts") != NULL, "%s", dir);
}

Test(prompts, the_shipped_templates_hash_and_have_their_placeholders)
{
	char h[65], e[CUA_ERR_LEN], path[4200], *turn = NULL;
	const char *r = root();
	cr_assert_eq(cua_prompts_hash(r, h, e, sizeof e), CUA_OK, "%s", e);
	cr_expect_eq(strlen(h), 64);
	snprintf(path, sizeof path, "%s/data/prompts/turn.md", r);
	cr_assert_eq(cua_read_file(path, 1 << 20, &turn, NULL, e, sizeof e), CUA_OK, "%s", e);
	cr_expect(strstr(turn, "{{observation}}") && strstr(turn, "{{turn}}") &&
	          strstr(turn, "{{max_turns}}"), "%s", turn);
	free(turn);
}
