// task: relu
// expect: forbidden_symbol
// expect-message: network
// Opens a socket to phone home.
#include "cuarena.h"
#include <sys/socket.h>

int cua_solve(const struct cua_tensor *in, int n_in, struct cua_tensor *out, int n_out,
              cudaStream_t stream)
{
	return socket(AF_INET, SOCK_STREAM, 0) < 0;
}
