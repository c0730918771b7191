/* util.c — error buffers, whole-file I/O, directories, clocks and SHA-256. */
#include "common.h"

#include <dirent.h>
#include <sched.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include <openssl/evp.h>

void cua_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

enum cua_status cua_read_file(const char *path, size_t max_bytes, char **out,
                              size_t *len, char *err, size_t errlen)
{
	enum cua_status result = CUA_E_IO;
	char *buf = NULL;
	size_t cap = 0, n = 0;
	FILE *f;

	*out = NULL;
	if (len)
		*len = 0;
	f = fopen(path, "rb");
	if (!f) {
		cua_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return CUA_E_IO;
	}
	for (;;) {
		if (n + 4096 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 8192;
			buf = cua_xrealloc(buf, ncap);
			cap = ncap;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (n > max_bytes) {
			result = CUA_E_INVALID;
			cua_errf(err, errlen, "%s: larger than the limit of %zu bytes", path,
			         max_bytes);
			goto out;
		}
		if (got == 0) {
			if (ferror(f)) {
				cua_errf(err, errlen, "%s: read error: %s", path, strerror(errno));
				goto out;
			}
			break;
		}
	}
	buf[n] = '\0';
	*out = buf;
	buf = NULL;
	if (len)
		*len = n;
	result = CUA_OK;
out:
	free(buf);
	fclose(f);
	return result;
}

enum cua_status cua_mkdirs(const char *path, char *err, size_t errlen)
{
	char tmp[CUA_PATH_LEN];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(tmp)) {
		cua_errf(err, errlen, "%s: bad directory path", path);
		return CUA_E_INVALID;
	}
	memcpy(tmp, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (tmp[i] != '/' && tmp[i] != '\0')
			continue;
		char c = tmp[i];
		tmp[i] = '\0';
		if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
			cua_errf(err, errlen, "%s: cannot create directory: %s", tmp,
			         strerror(errno));
			return CUA_E_IO;
		}
		tmp[i] = c;
	}
	return CUA_OK;
}

enum cua_status cua_write_file(const char *path, const void *buf, size_t len,
                               char *err, size_t errlen)
{
	char dir[CUA_PATH_LEN], tmp[CUA_PATH_BUF];
	const char *slash = strrchr(path, '/');
	int fd;

	if (slash && slash != path) {
		size_t dn = (size_t)(slash - path);
		if (dn >= sizeof(dir)) {
			cua_errf(err, errlen, "%s: path too long", path);
			return CUA_E_INVALID;
		}
		memcpy(dir, path, dn);
		dir[dn] = '\0';
		enum cua_status st = cua_mkdirs(dir, err, errlen);
		if (st != CUA_OK)
			return st;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		cua_errf(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
		return CUA_E_IO;
	}
	const char *p = buf;
	size_t left = len;
	while (left > 0) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			cua_errf(err, errlen, "%s: write failed: %s", tmp, strerror(errno));
			close(fd);
			unlink(tmp);
			return CUA_E_IO;
		}
		p += w;
		left -= (size_t)w;
	}
	if (fsync(fd) != 0 || close(fd) != 0 || rename(tmp, path) != 0) {
		cua_errf(err, errlen, "%s: cannot finish writing: %s", path,
		         strerror(errno));
		unlink(tmp);
		return CUA_E_IO;
	}
	return CUA_OK;
}

void cua_rmtree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		unlink(path);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char sub[CUA_PATH_LEN];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			cua_rmtree(sub);
		else
			unlink(sub);
	}
	closedir(d);
	rmdir(path);
}

void cua_buf_printf(struct cua_buf *b, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n > 0) {
		if (b->len + (size_t)n + 1 > b->cap) {
			size_t cap = b->cap ? b->cap : 1024;
			while (cap < b->len + (size_t)n + 1)
				cap *= 2;
			char *ns = realloc(b->s, cap);
			CUA_ASSERT(ns);
			b->s = ns;
			b->cap = cap;
		}
		vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap2);
		b->len += (size_t)n;
	}
	va_end(ap2);
}

void cua_driver_version(char *buf, size_t len)
{
	FILE *f = fopen("/sys/module/nvidia/version", "r");
	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

int cua_cpus(void)
{
	cpu_set_t set;

	/* the cores this process may run on (taskset, a container's cpuset), not
	 * the machine's: more compile jobs than those only queue */
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

double cua_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct cua_sha256 {
	EVP_MD_CTX *ctx;
};

struct cua_sha256 *cua_sha256_new(void)
{
	struct cua_sha256 *h = calloc(1, sizeof(*h));

	CUA_ASSERT(h);
	h->ctx = EVP_MD_CTX_new();
	CUA_ASSERT(h->ctx && EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) == 1);
	return h;
}

void cua_sha256_update(struct cua_sha256 *h, const void *buf, size_t len)
{
	CUA_ASSERT(EVP_DigestUpdate(h->ctx, buf, len) == 1);
}

void cua_hex(const void *bytes, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = bytes;
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

void cua_sha256_final(struct cua_sha256 *h, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	CUA_ASSERT(EVP_DigestFinal_ex(h->ctx, md, &n) == 1 && n == 32);
	cua_hex(md, n, out);
	EVP_MD_CTX_free(h->ctx);
	free(h);
}

void cua_sha256_hex(const void *buf, size_t len, char out[65])
{
	struct cua_sha256 *h = cua_sha256_new();

	cua_sha256_update(h, buf, len);
	cua_sha256_final(h, out);
}

bool cua_have_gpu(void)
{
	return access("/dev/nvidiactl", F_OK) == 0 || access("/dev/nvidia0", F_OK) == 0;
}

double cua_json_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

const char *cua_json_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static void *alloc_check(void *p, size_t n, const char *file, int line)
{
	if (!p) {
		fprintf(stderr, "cuarena: out of memory (%zu bytes) at %s:%d\n", n, file, line);
		abort();
	}
	return p;
}

void *cua_xcheck_at(void *p, const char *file, int line)
{
	if (!p) {
		fprintf(stderr, "cuarena: out of memory at %s:%d\n", file, line);
		abort();
	}
	return p;
}

void *cua_xmalloc_at(size_t n, const char *file, int line)
{
	return alloc_check(malloc(n ? n : 1), n, file, line);
}

void *cua_xcalloc_at(size_t n, size_t size, const char *file, int line)
{
	return alloc_check(calloc(n ? n : 1, size ? size : 1), n * size, file, line);
}

void *cua_xrealloc_at(void *p, size_t n, const char *file, int line)
{
	return alloc_check(realloc(p, n ? n : 1), n, file, line);
}

char *cua_xstrdup_at(const char *s, const char *file, int line)
{
	return alloc_check(strdup(s), strlen(s) + 1, file, line);
}

enum cua_status cua_vpathf(char *buf, size_t len, char *err, size_t errlen,
                           const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, len, fmt, ap);
	if (n >= 0 && (size_t)n < len)
		return CUA_OK;
	cua_errf(err, errlen, "%.60s...: a path longer than %zu bytes", buf, len - 1);
	buf[0] = '\0';
	return CUA_E_INVALID;
}

enum cua_status cua_pathf(char *buf, size_t len, char *err, size_t errlen,
                          const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enum cua_status r = cua_vpathf(buf, len, err, errlen, fmt, ap);
	va_end(ap);
	return r;
}

char *cua_env_pair(const char *k, const char *v)
{
	size_t kl = strlen(k), vl = strlen(v);
	char *s = cua_xmalloc(kl + vl + 2);

	memcpy(s, k, kl);
	s[kl] = '=';
	memcpy(s + kl + 1, v, vl + 1);
	return s;
}

/* Length of the well-formed UTF-8 sequence at s (n bytes left), or 0 when the
 * bytes there are not one (RFC 3629 table 3-7). */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	if (c == 0)
		return 0;
	if (c < 0x80)
		return 1;
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;   /* no overlong forms */
		else if (c == 0xed)
			hi = 0x9f;   /* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;   /* nothing above U+10FFFF */
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

bool cua_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		size_t k = utf8_seq(p + i, len - i);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

char *cua_utf8_clean(const char *s, size_t len, size_t *out_len)
{
	const unsigned char *p = (const unsigned char *)s;
	/* worst case: every byte becomes the three bytes of U+FFFD */
	char *out = cua_xmalloc(3 * len + 1), *o = out;
	for (size_t i = 0; i < len;) {
		size_t k = utf8_seq(p + i, len - i);
		if (k) {
			memcpy(o, p + i, k);
			o += k;
			i += k;
		} else {
			if (p[i])
				o += sprintf(o, "\xef\xbf\xbd");
			i++;
		}
	}
	*o = '\0';
	if (out_len)
		*out_len = (size_t)(o - out);
	return out;
}

char *cua_term_text(const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	char *clean = cua_utf8_clean(s ? s : "", s ? strlen(s) : 0, &n);
	/* worst case: each byte of a control becomes the four of "\x1b" */
	char *out = cua_xmalloc(4 * n + 1), *o = out;
	const unsigned char *p = (const unsigned char *)clean;
	for (size_t i = 0; i < n;) {
		unsigned c = p[i];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
			*o++ = '\\';
			*o++ = 'x';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
			i++;
			continue;
		}
		unsigned cp = 0;
		size_t k = 0;
		if (c == 0xc2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f) {
			cp = p[i + 1];   /* U+0080..U+009F */
			k = 2;
		} else if (c == 0xe2 && i + 2 < n &&
		           ((p[i + 1] == 0x80 && p[i + 2] >= 0xaa && p[i + 2] <= 0xae) ||
		            (p[i + 1] == 0x81 && p[i + 2] >= 0xa6 && p[i + 2] <= 0xa9))) {
			cp = 0x2000u | ((p[i + 1] & 0x3fu) << 6) | (p[i + 2] & 0x3fu);
			k = 3;
		}
		if (k) {
			o += sprintf(o, "\\u%04x", cp);
			i += k;
		} else {
			*o++ = (char)c;
			i++;
		}
	}
	*o = '\0';
	free(clean);
	return out;
}

void cua_fput_term(FILE *f, const char *s)
{
	char *t = cua_term_text(s);
	fputs(t, f);
	free(t);
}

void cua_json_add_text(cJSON *o, const char *k, const char *s)
{
	size_t n = strlen(s);
	if (cua_utf8_valid(s, n)) {
		cJSON_AddStringToObject(o, k, s);
		return;
	}
	char *clean = cua_utf8_clean(s, n, NULL);
	cJSON_AddStringToObject(o, k, clean);
	free(clean);
}

char *cua_trim_text(const char *s, size_t len, size_t max)
{
	static const char mark[] = "\n[... %zu bytes cut ...]\n";
	char *out;

	if (!s)
		return NULL;
	if (len <= max) {
		out = malloc(len + 1);
		CUA_ASSERT(out);
		memcpy(out, s, len);
		out[len] = '\0';
		return out;
	}
	/* both cuts on a character's boundary: never half of a UTF-8 sequence (a
	 * continuation byte is 10xxxxxx), so valid text stays valid */
	size_t head = max / 2, from = len - (max - head);
	while (head > 0 && ((unsigned char)s[head] & 0xc0) == 0x80)
		head--;
	while (from < len && ((unsigned char)s[from] & 0xc0) == 0x80)
		from++;
	size_t tail = len - from;
	out = malloc(max + sizeof(mark) + 32);
	CUA_ASSERT(out);
	memcpy(out, s, head);
	int m = sprintf(out + head, mark, from - head);
	memcpy(out + head + m, s + from, tail);
	out[head + m + tail] = '\0';
	return out;
}
