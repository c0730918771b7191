/* wire.c — judge ⇄ candidate-process records over SOCK_SEQPACKET (wire.h).
 * Self-contained (libc alone): the candidate's program links it. */
#include "judge/wire.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

double cua_wire_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int cua_wire_send(int sock, const struct cua_wire_msg *m, const int *fds, int n_fds)
{
	struct iovec iov = { (void *)m, sizeof(*m) };
	union {
		char buf[CMSG_SPACE(sizeof(int) * CUA_WIRE_MAX_T)];
		struct cmsghdr align;
	} u;
	struct msghdr mh;
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (n_fds > CUA_WIRE_MAX_T) {
		errno = EINVAL;
		return -1;
	}
	if (n_fds > 0) {
		memset(u.buf, 0, sizeof(u.buf));
		mh.msg_control = u.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n_fds);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n_fds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)n_fds);
	}
	for (;;) {
		ssize_t r = sendmsg(sock, &mh, MSG_NOSIGNAL);
		if (r == (ssize_t)sizeof(*m))
			return 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r >= 0)
			errno = EMSGSIZE;
		return -1;
	}
}

int cua_wire_recv(int sock, struct cua_wire_msg *m, int *fds, int max_fds, int *n_fds,
                  double spin_until, double deadline, bool *bad)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * CUA_WIRE_MAX_T)];
		struct cmsghdr align;
	} u;
	if (n_fds)
		*n_fds = 0;
	if (bad)
		*bad = false;
	for (;;) {
		struct iovec iov = { m, sizeof(*m) };
		struct msghdr mh;
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof(u.buf);
		ssize_t r = recvmsg(sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
			double t = cua_wire_now();
			if (deadline > 0 && t >= deadline) {
				errno = ETIMEDOUT;
				return -1;
			}
			if (t < spin_until) {
#if defined(__x86_64__)
				__builtin_ia32_pause();
#endif
				continue;
			}
			struct pollfd p = { sock, POLLIN, 0 };
			int ms = deadline > 0 ? (int)((deadline - t) * 1e3) + 1 : -1;
			if (ms > 1000 || ms < 0)
				ms = 1000;   /* a deadline is re-read at least every second */
			if (poll(&p, 1, ms) < 0 && errno != EINTR)
				return -1;
			continue;
		}
		if (r < 0)
			return errno == ECONNRESET ? 0 : -1;
		/* descriptors first, so none leaks whatever the record says */
		int got = 0;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
				continue;
			int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			int *p = (int *)CMSG_DATA(c);
			for (int i = 0; i < k; i++) {
				if (fds && got < max_fds)
					fds[got++] = p[i];
				else
					close(p[i]);
			}
		}
		if (n_fds)
			*n_fds = got;
		if (r == 0)
			return 0;
		if (r != (ssize_t)sizeof(*m) || m->magic != CUA_WIRE_MAGIC ||
		    (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
			for (int i = 0; i < got; i++)
				close(fds[i]);
			if (n_fds)
				*n_fds = 0;
			if (bad)
				*bad = true;
			return 0;
		}
		return 1;
	}
}
