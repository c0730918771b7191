/* channel.c — HMAC-sealed lines of the report channel (see channel.h). */
#include "judge/channel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

enum { MAC_HEX = 64 };

enum cua_status cua_channel_key_new(struct cua_channel_key *key, char *err, size_t errlen)
{
	size_t got = 0;
	while (got < sizeof(key->k)) {
		ssize_t r = getrandom(key->k + got, sizeof(key->k) - got, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			cua_errf(err, errlen, "report channel key: getrandom: %s", strerror(errno));
			return CUA_E_SYSTEM;
		}
		got += (size_t)r;
	}
	return CUA_OK;
}

void cua_channel_key_hex(const struct cua_channel_key *key, char out[65])
{
	cua_hex(key->k, sizeof(key->k), out);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool cua_channel_key_parse(const char *hex, struct cua_channel_key *key)
{
	if (!hex || strlen(hex) != 2 * sizeof(key->k))
		return false;
	for (size_t i = 0; i < sizeof(key->k); i++) {
		int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		key->k[i] = (unsigned char)(hi << 4 | lo);
	}
	return true;
}

/* HMAC-SHA256(key, seq as 8 little-endian bytes || json), hex. */
static void mac_hex(const struct cua_channel_key *key, uint64_t seq, const char *json,
                    size_t n, char out[MAC_HEX + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	unsigned char *msg = malloc(8 + n);
	CUA_ASSERT(msg);
	for (int i = 0; i < 8; i++)
		msg[i] = (unsigned char)(seq >> (8 * i));
	memcpy(msg + 8, json, n);
	CUA_ASSERT(HMAC(EVP_sha256(), key->k, (int)sizeof(key->k), msg, 8 + n, md, &mdlen) &&
	           mdlen == 32);
	free(msg);
	cua_hex(md, 32, out);
}

char *cua_channel_seal(const struct cua_channel_key *key, uint64_t seq, const char *json,
                       size_t n, size_t *len)
{
	char *line = malloc(MAC_HEX + 1 + n + 2);
	CUA_ASSERT(line);
	char mac[MAC_HEX + 1];
	mac_hex(key, seq, json, n, mac);
	memcpy(line, mac, MAC_HEX);
	line[MAC_HEX] = ' ';
	memcpy(line + MAC_HEX + 1, json, n);
	line[MAC_HEX + 1 + n] = '\n';
	line[MAC_HEX + 1 + n + 1] = '\0';   /* not counted: a string for who wants one */
	*len = MAC_HEX + 1 + n + 1;
	return line;
}

bool cua_channel_verify(const struct cua_channel_key *key, uint64_t seq, const char *line,
                        size_t n, const char **json, size_t *json_len)
{
	if (n < MAC_HEX + 1 || line[MAC_HEX] != ' ')
		return false;
	char mac[MAC_HEX + 1];
	mac_hex(key, seq, line + MAC_HEX + 1, n - MAC_HEX - 1, mac);
	if (CRYPTO_memcmp(mac, line, MAC_HEX) != 0)
		return false;
	*json = line + MAC_HEX + 1;
	*json_len = n - MAC_HEX - 1;
	return true;
}
