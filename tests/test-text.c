/* test-text.c — text from outside as data: UTF-8 validation and cleaning
 * (harness/util.c, cua_utf8_valid / cua_utf8_clean). */
#include <criterion/criterion.h>
#include <string.h>

#include "common.h"

static bool valid(const char *s) { return cua_utf8_valid(s, strlen(s)); }

Test(text, well_formed_utf8_is_valid)
{
	cr_expect(valid(""));
	cr_expect(valid("plain ascii, tabs\tand\nnewlines"));
	cr_expect(valid("\xc3\xa9t\xc3\xa9"));                 /* été */
	cr_expect(valid("\xe2\x88\x91 \xe2\x86\x92"));         /* ∑ → */
	cr_expect(valid("\xf0\x9f\x98\x80"));                 /* U+1F600 */
	cr_expect(valid("\xf4\x8f\xbf\xbf"));                 /* U+10FFFF */
	cr_expect(valid("\xed\x9f\xbf"));                     /* U+D7FF, below the surrogates */
}

Test(text, ill_formed_utf8_is_refused)
{
	cr_expect_not(valid("\xff"));                 /* never a UTF-8 byte */
	cr_expect_not(valid("\xc0\xaf"));             /* overlong '/' */
	cr_expect_not(valid("\xe0\x80\xaf"));         /* overlong, three bytes */
	cr_expect_not(valid("\xed\xa0\x80"));         /* a surrogate, U+D800 */
	cr_expect_not(valid("\xf4\x90\x80\x80"));     /* above U+10FFFF */
	cr_expect_not(valid("\xc3"));                 /* cut short at the end */
	cr_expect_not(valid("\xe2\x88"));
	cr_expect_not(valid("a\x80z"));               /* a lone continuation byte */
	cr_expect_not(cua_utf8_valid("a\0b", 3));     /* NUL inside */
}

Test(text, cleaning_replaces_each_bad_byte_and_keeps_the_rest)
{
	size_t n = 0;
	char *c = cua_utf8_clean("ok \xff \xc3\xa9 \xed\xa0\x80!", 13, &n);
	/* \xff -> U+FFFD; é kept; each of the surrogate's three bytes -> U+FFFD */
	const char *want = "ok \xef\xbf\xbd \xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd!";
	cr_expect_str_eq(c, want);
	cr_expect_eq(n, strlen(want));
	cr_expect(cua_utf8_valid(c, n));
	free(c);
}

Test(text, cleaning_drops_nul_bytes_and_keeps_valid_text_byte_for_byte)
{
	char *c = cua_utf8_clean("a\0b", 3, NULL);
	cr_expect_str_eq(c, "ab");
	free(c);
	const char *good = "\xe2\x88\x91 x \xf0\x9f\x98\x80\n";
	c = cua_utf8_clean(good, strlen(good), NULL);
	cr_expect_str_eq(c, good);
	free(c);
}

Test(text, a_sequence_cut_by_the_end_of_the_buffer_is_replaced)
{
	char *c = cua_utf8_clean("x\xe2\x88", 3, NULL);
	cr_expect_str_eq(c, "x\xef\xbf\xbd\xef\xbf\xbd");
	free(c);
}
