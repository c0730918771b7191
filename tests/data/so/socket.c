/* socket.c — a candidate that opens a network socket. */
#include <sys/socket.h>

int cua_solve(const void *in, int n_in, void *out, int n_out, void *stream)
{
	return socket(AF_INET, SOCK_STREAM, 0) < 0;
}
