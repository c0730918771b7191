/* test-wire.c — judge ⇄ kernel-process records (harness/judge/wire.c): round trips,
 * descriptors passed along, and what a malformed or missing peer looks like. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "judge/wire.h"

TestSuite(wire);

static void pair(int sv[2])
{
	cr_assert_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
}

Test(wire, a_record_and_its_descriptors_arrive_whole)
{
	int sv[2], p[2];
	pair(sv);
	cr_assert_eq(pipe(p), 0);
	struct cua_wire_msg m, r;
	memset(&m, 0, sizeof(m));
	m.magic = CUA_WIRE_MAGIC;
	m.op = CUA_WIRE_MAP;
	m.n_in = 1;
	m.n_out = 1;
	m.t[1].shape[0] = 12345;
	snprintf(m.text, sizeof(m.text), "hello");
	int fds[2] = { p[0], p[1] };
	cr_assert_eq(cua_wire_send(sv[0], &m, fds, 2), 0);
	int got[4], n = -1;
	bool bad = true;
	cr_assert_eq(cua_wire_recv(sv[1], &r, got, 4, &n, 0, cua_wire_now() + 5, &bad), 1);
	cr_expect_not(bad);
	cr_expect_eq(r.op, CUA_WIRE_MAP);
	cr_expect_eq(r.t[1].shape[0], 12345);
	cr_expect_str_eq(r.text, "hello");
	cr_assert_eq(n, 2);
	/* the received write end feeds the original read end */
	cr_expect_eq(write(got[1], "x", 1), 1);
	char c = 0;
	cr_expect_eq(read(p[0], &c, 1), 1);
	cr_expect_eq(c, 'x');
	for (int i = 0; i < n; i++)
		close(got[i]);
}

Test(wire, a_record_of_another_size_or_magic_is_malformed)
{
	int sv[2];
	pair(sv);
	struct cua_wire_msg r;
	bool bad = false;
	cr_assert_eq(write(sv[0], "{\"event\":\"result\"}\n", 19), 19);
	cr_expect_eq(cua_wire_recv(sv[1], &r, NULL, 0, NULL, 0, cua_wire_now() + 5, &bad), 0);
	cr_expect(bad, "a JSON line is not a record");
	struct cua_wire_msg m;
	memset(&m, 0, sizeof(m));
	m.magic = 0xdeadbeef;
	cr_assert_eq(write(sv[0], &m, sizeof(m)), (ssize_t)sizeof(m));
	bad = false;
	cr_expect_eq(cua_wire_recv(sv[1], &r, NULL, 0, NULL, 0, cua_wire_now() + 5, &bad), 0);
	cr_expect(bad, "wrong magic");
}

Test(wire, extra_descriptors_are_closed_not_leaked)
{
	int sv[2], p[2];
	pair(sv);
	cr_assert_eq(pipe(p), 0);
	struct cua_wire_msg m, r;
	memset(&m, 0, sizeof(m));
	m.magic = CUA_WIRE_MAGIC;
	m.op = CUA_WIRE_READY;
	int fds[1] = { p[1] };
	cr_assert_eq(cua_wire_send(sv[0], &m, fds, 1), 0);
	close(p[1]);
	cr_assert_eq(cua_wire_recv(sv[1], &r, NULL, 0, NULL, 0, cua_wire_now() + 5, NULL), 1);
	/* every write end is gone: the read end sees end of file */
	char c;
	cr_expect_eq(read(p[0], &c, 1), 0);
}

Test(wire, a_silent_peer_times_out_and_a_gone_one_is_end_of_file)
{
	int sv[2];
	pair(sv);
	struct cua_wire_msg r;
	double t0 = cua_wire_now();
	errno = 0;
	cr_expect_eq(cua_wire_recv(sv[1], &r, NULL, 0, NULL, t0 + 0.05, t0 + 0.2, NULL), -1);
	cr_expect_eq(errno, ETIMEDOUT);
	double dt = cua_wire_now() - t0;
	cr_expect(dt >= 0.19 && dt < 2, "waited %.3f s", dt);
	close(sv[0]);
	cr_expect_eq(cua_wire_recv(sv[1], &r, NULL, 0, NULL, 0, cua_wire_now() + 5, NULL), 0);
}

/* tests/cheats/forged-done.cu pastes the record (a candidate's build sees no
 * header of ours): its copy must stay the record, or the forgery is malformed
 * and proves nothing. */
#include <stddef.h>
#include "cheats/forged-wire.h"

Test(wire, the_forged_done_cheats_copy_of_the_record_is_the_record)
{
	cr_expect_eq(FORGED_WIRE_MAGIC, CUA_WIRE_MAGIC);
	cr_expect_eq(FORGED_WIRE_DONE, CUA_WIRE_DONE);
	cr_expect_eq(sizeof(struct forged_wire_msg), sizeof(struct cua_wire_msg));
	cr_expect_eq(sizeof(struct forged_wire_tensor), sizeof(struct cua_wire_tensor));
#define SAME(f) cr_expect_eq(offsetof(struct forged_wire_msg, f), offsetof(struct cua_wire_msg, f), #f)
	SAME(op);
	SAME(seq);
	SAME(rc);
	SAME(cuda_err);
	SAME(where);
	SAME(event_ms);
	SAME(host_ms);
	SAME(t);
	SAME(text);
#undef SAME
	cr_expect_eq(sizeof(((struct forged_wire_msg *)0)->t) / sizeof(struct forged_wire_tensor),
	             CUA_WIRE_MAX_T);
}
