/* extract.c — the kernel in a model's reply: fenced code blocks (extract.h). */
#include "episode/extract.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

struct block {
	const char *begin, *end;     /* raw content: first content line .. closing fence */
	int indent;                  /* the opening fence's indentation */
	char lang[16];               /* first word of the info string, maybe cut */
};

/* Languages whose blocks are taken for the kernel when none defines cua_solve. */
static const char *const c_family[] = {
	"", "c", "c++", "cc", "cpp", "cu", "cuda", "cuh", "cxx", "h", "hpp",
};

static bool is_ident(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Skips whitespace and C/C++ comments from p (bounded by end). */
static const char *skip_space(const char *p, const char *end)
{
	while (p < end) {
		if (isspace((unsigned char)*p)) {
			p++;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *q = p + 2;
			while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
				q++;
			p = q + 1 < end ? q + 2 : end;
		} else {
			break;
		}
	}
	return p;
}

bool cua_extract_defines_solve(const char *src, size_t len)
{
	static const char name[] = "cua_solve";
	const size_t nl = sizeof(name) - 1;
	const char *end = src + len;

	for (const char *p = src; p && p + nl <= end; p++) {
		p = memmem(p, (size_t)(end - p), name, nl);
		if (!p)
			break;
		if ((p > src && is_ident(p[-1])) || (p + nl < end && is_ident(p[nl])))
			continue;
		const char *q = skip_space(p + nl, end);
		if (q >= end || *q != '(')
			continue;
		int depth = 0;
		for (; q < end; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')' && --depth == 0)
				break;
		}
		if (q >= end)
			return false;
		q = skip_space(q + 1, end);
		if (q < end && *q == '{')
			return true;
	}
	return false;
}

/* End of the line starting at p: the '\n' or the terminating NUL. */
static const char *line_end(const char *p)
{
	const char *nl = strchr(p, '\n');
	return nl ? nl : p + strlen(p);
}

/* A fence line: up to 3 spaces, then 3+ of '`' or '~'. Fills ch, count and
 * indent; *info points after the run. */
static bool fence_run(const char *p, const char *le, char *ch, int *count, int *indent,
                      const char **info)
{
	int sp = 0, n = 0;

	while (p < le && *p == ' ' && sp < 4) {
		p++;
		sp++;
	}
	if (sp > 3 || p >= le || (*p != '`' && *p != '~'))
		return false;
	char c = *p;
	while (p < le && *p == c) {
		p++;
		n++;
	}
	if (n < 3)
		return false;
	*ch = c;
	*count = n;
	*indent = sp;
	*info = p;
	return true;
}

/* True when [p, le) holds only spaces, tabs and CRs. */
static bool blank(const char *p, const char *le)
{
	for (; p < le; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return false;
	return true;
}

/* The block's content with the fence indentation removed and CRLF made LF. */
static char *block_text(const struct block *b)
{
	size_t cap = (size_t)(b->end - b->begin) + 1;
	char *out = malloc(cap), *o = out;

	if (!out)
		return NULL;
	for (const char *p = b->begin; p < b->end;) {
		const char *le = memchr(p, '\n', (size_t)(b->end - p));
		const char *stop = le ? le : b->end;
		for (int i = 0; i < b->indent && p < stop && *p == ' '; i++)
			p++;
		const char *cut = stop;
		if (cut > p && cut[-1] == '\r')
			cut--;
		memcpy(o, p, (size_t)(cut - p));
		o += cut - p;
		if (le)
			*o++ = '\n';
		p = le ? le + 1 : b->end;
	}
	*o = '\0';
	return out;
}

static bool is_c_family(const char *lang)
{
	for (size_t i = 0; i < CUA_ARRAY_LEN(c_family); i++)
		if (!strcasecmp(lang, c_family[i]))
			return true;
	return false;
}

char *cua_extract_code(const char *reply, char *note, size_t notelen)
{
	struct block *blocks = NULL, *chosen = NULL;
	size_t n = 0, cap = 0;
	bool open = false, cut_off = false;
	struct block cur = {0};
	char fch = 0;
	int fcount = 0;
	char *code = NULL;

	if (note && notelen)
		note[0] = '\0';
	if (!reply)
		reply = "";
	for (const char *p = reply; *p;) {
		const char *le = line_end(p), *info;
		char ch;
		int count, indent;

		if (!open) {
			if (fence_run(p, le, &ch, &count, &indent, &info) &&
			    !(ch == '`' && memchr(info, '`', (size_t)(le - info)))) {
				open = true;
				fch = ch;
				fcount = count;
				cur = (struct block){ .indent = indent };
				while (info < le && (*info == ' ' || *info == '\t' || *info == '{' ||
				                     *info == '.'))
					info++;
				size_t k = 0;
				while (info < le && !isspace((unsigned char)*info) && *info != '}' &&
				       k + 1 < sizeof(cur.lang))
					cur.lang[k++] = *info++;
				cur.lang[k] = '\0';
				cur.begin = *le ? le + 1 : le;
			}
		} else if (fence_run(p, le, &ch, &count, &indent, &info) && ch == fch &&
		           count >= fcount && blank(info, le)) {
			open = false;
			cur.end = p;
			if (n == cap) {
				size_t ncap = cap ? cap * 2 : 8;
				struct block *nb = realloc(blocks, ncap * sizeof(*nb));
				if (!nb) {
					cua_errf(note, notelen, "out of memory extracting the code");
					goto out;
				}
				blocks = nb;
				cap = ncap;
			}
			blocks[n++] = cur;
		}
		p = *le ? le + 1 : le;
	}
	cut_off = open;

	for (size_t i = n; i-- > 0 && !chosen;)
		if (cua_extract_defines_solve(blocks[i].begin, (size_t)(blocks[i].end - blocks[i].begin)))
			chosen = &blocks[i];
	for (size_t i = n; i-- > 0 && !chosen;)
		if (is_c_family(blocks[i].lang))
			chosen = &blocks[i];
	if (!chosen && n > 0)
		chosen = &blocks[n - 1];
	if (!chosen) {
		cua_errf(note, notelen, "%s",
		         cut_off ? "the reply's code block is not closed (the reply may have "
		                   "been cut off)"
		                 : "the reply had no fenced code block");
		goto out;
	}
	code = block_text(chosen);
	if (!code)
		cua_errf(note, notelen, "out of memory extracting the code");
out:
	free(blocks);
	return code;
}
