/* view.c — a process's file system replaced by listed entries (view.h).
 *
 * Built the way bubblewrap builds its root: a tmpfs mounted on /tmp becomes the
 * root for a moment, with the old root beneath it at /oldroot, so that every
 * host path (those under /tmp too) is still in reach as /oldroot/PATH; the
 * entries are bound from there into a second tmpfs, /newroot; the old root is
 * detached, and a last pivot makes /newroot the root. Only async-signal-safe
 * calls: the build's child is forked from a multi-threaded harness. */
#include "view.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>   /* the ST_* flags statfs reports */
#include <sys/syscall.h>
#include <unistd.h>

#define OLD "/oldroot"
#define NEW "/newroot"
#define PATH_LEN 4096
#define MAX_LINKS 40

/* *stage's text: what failed and on which path. */
static char stage_buf[64 + PATH_LEN];

static int fail(const char **stage, const char *what, const char *path)
{
	int e = errno;
	size_t w = strlen(what), p = path ? strlen(path) : 0;
	if (w > 63)
		w = 63;
	if (p > PATH_LEN - 1)
		p = PATH_LEN - 1;
	memcpy(stage_buf, what, w);
	if (p) {
		stage_buf[w++] = ' ';
		memcpy(stage_buf + w, path, p);
	}
	stage_buf[w + p] = '\0';
	if (stage)
		*stage = stage_buf;
	errno = e;
	return -1;
}

/* a + b into out (PATH_LEN bytes), or -1 with ENAMETOOLONG. */
static int join(char *out, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la + lb >= PATH_LEN) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(out, a, la);
	memcpy(out + la, b, lb + 1);
	return 0;
}

/* The host path as the host's root resolves it, every link followed without
 * leaving that root, written under OLD into out ("/oldroot/usr/lib/..."). A
 * missing component is ENOENT. */
static int resolve(const char *host, char *out)
{
	char rest[PATH_LEN], link[PATH_LEN];
	const size_t base = sizeof(OLD) - 1;
	size_t len = base;
	int links = 0;

	if (host[0] != '/') {
		errno = EINVAL;
		return -1;
	}
	if (strlen(host) >= sizeof(rest)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(rest, host, strlen(host) + 1);
	memcpy(out, OLD, base + 1);
	for (char *p = rest;;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		char *end = strchr(p, '/');
		size_t cl = end ? (size_t)(end - p) : strlen(p);
		if (cl == 1 && p[0] == '.') {
			p += cl;
			continue;
		}
		if (cl == 2 && p[0] == '.' && p[1] == '.') {
			while (len > base && out[len - 1] != '/')
				len--;
			if (len > base)
				len--;
			out[len] = '\0';
			p += cl;
			continue;
		}
		if (len + 1 + cl >= PATH_LEN) {
			errno = ENAMETOOLONG;
			return -1;
		}
		size_t prev = len;
		out[len] = '/';
		memcpy(out + len + 1, p, cl);
		len += 1 + cl;
		out[len] = '\0';
		p += cl;
		struct stat st;
		if (lstat(out, &st) < 0)
			return -1;
		if (S_ISLNK(st.st_mode)) {
			if (++links > MAX_LINKS) {
				errno = ELOOP;
				return -1;
			}
			ssize_t k = readlink(out, link, sizeof(link) - 1);
			if (k < 0)
				return -1;
			size_t rl = strlen(p);
			if ((size_t)k + 1 + rl >= sizeof(link)) {
				errno = ENAMETOOLONG;
				return -1;
			}
			/* link's text, then what was left of the path */
			link[k] = '/';
			memcpy(link + k + 1, p, rl + 1);
			memcpy(rest, link, (size_t)k + 1 + rl + 1);
			p = rest;
			len = link[0] == '/' ? base : prev;
			out[len] = '\0';
		} else if (p[strspn(p, "/")] && !S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			return -1;
		}
	}
	return 0;
}

/* An entry's place in the view: absolute, below the root, no "." or ".."
 * component. */
static bool place_ok(const char *at)
{
	int n = 0;
	if (at[0] != '/')
		return false;
	for (const char *p = at; *p;) {
		while (*p == '/')
			p++;
		size_t cl = strcspn(p, "/");
		if ((cl == 1 && p[0] == '.') || (cl == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		n += cl > 0;
		p += cl;
	}
	return n > 0;   /* not the root itself */
}

/* Makes path (NEW + an entry's place) a mount point of the given kind: the
 * folders on the way and the point itself are made on the view's own root (the
 * file system of root_dev) alone, so that nothing is ever created on a host
 * folder already bound there; one beneath such a folder must exist already. */
static int make_point(char *path, bool dir, dev_t root_dev)
{
	dev_t parent = root_dev;
	for (char *s = path + sizeof(NEW);; s++) {
		char *slash = strchr(s, '/');
		bool last = !slash;
		if (slash)
			*slash = '\0';
		struct stat st;
		int r = lstat(path, &st);
		if (r < 0 && errno == ENOENT) {
			if (parent != root_dev) {
				errno = EROFS;
				return -1;
			}
			if (!last || dir) {
				r = mkdir(path, 0755);
			} else {
				int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				              0444);
				r = fd < 0 ? -1 : close(fd);
			}
			if (r == 0)
				r = lstat(path, &st);
		}
		if (r < 0)
			return -1;
		if (S_ISLNK(st.st_mode)) {
			errno = ELOOP;
			return -1;
		}
		if ((!last || dir) && !S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			return -1;
		}
		if (last && !dir && S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		parent = st.st_dev;
		if (last)
			return 0;
		*slash = '/';
		s = slash;
	}
}

/* The flags a remount of the bind at path must keep: in a user namespace the
 * kernel refuses to clear those it locked (read-only, nosuid, nodev, noexec,
 * the atime mode) on a mount it copied from a more privileged namespace. */
static unsigned long kept_flags(const char *path)
{
	struct statfs sf;
	unsigned long fl = 0;
	if (statfs(path, &sf) < 0)
		return 0;
	if (sf.f_flags & ST_RDONLY)
		fl |= MS_RDONLY;
	if (sf.f_flags & ST_NOSUID)
		fl |= MS_NOSUID;
	if (sf.f_flags & ST_NODEV)
		fl |= MS_NODEV;
	if (sf.f_flags & ST_NOEXEC)
		fl |= MS_NOEXEC;
	if (sf.f_flags & ST_NOATIME)
		fl |= MS_NOATIME;
	if (sf.f_flags & ST_NODIRATIME)
		fl |= MS_NODIRATIME;
	if (sf.f_flags & ST_RELATIME)
		fl |= MS_RELATIME;
	else if (!(sf.f_flags & ST_NOATIME))
		fl |= MS_STRICTATIME;
	return fl;
}

static int add_entry(const struct cua_view_entry *e, dev_t root_dev, const char **stage)
{
	char src[PATH_LEN], dst[PATH_LEN];
	const char *at = e->at ? e->at : e->host;

	if (!at || !place_ok(at)) {
		errno = EINVAL;
		return fail(stage, "placing", at ? at : "(no path)");
	}
	if (join(dst, NEW, at) < 0)
		return fail(stage, "placing", at);
	if (e->flags & CUA_VIEW_TMPFS) {
		if (make_point(dst, true, root_dev) < 0)
			return fail(stage, "making the mount point", at);
		if (mount("tmpfs", dst, "tmpfs", MS_NOSUID | MS_NODEV,
		          "mode=1777,size=" CUA_VIEW_TMPFS_SIZE) < 0)
			return fail(stage, "mounting a tmpfs at", at);
		return 0;
	}
	if (!e->host || resolve(e->host, src) < 0) {
		if (e->host && errno == ENOENT && (e->flags & CUA_VIEW_OPTIONAL))
			return 0;
		return fail(stage, "finding", e->host ? e->host : "(no host path)");
	}
	struct stat st;
	if (stat(src, &st) < 0)
		return fail(stage, "finding", e->host);
	bool dev = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
	if (make_point(dst, S_ISDIR(st.st_mode), root_dev) < 0)
		return fail(stage, "making the mount point", at);
	if (mount(src, dst, NULL, MS_BIND, NULL) < 0)
		return fail(stage, "binding", e->host);
	unsigned long fl = MS_BIND | MS_REMOUNT | MS_NOSUID | kept_flags(dst);
	if (!(e->flags & CUA_VIEW_RW))
		fl |= MS_RDONLY;
	if (!dev)
		fl |= MS_NODEV;
	if (mount(NULL, dst, NULL, fl, NULL) < 0)
		return fail(stage, "remounting", at);
	return 0;
}

int cua_view_enter(const struct cua_view_entry *e, int n, bool proc, const char **stage)
{
	/* nothing we mount may propagate back to the namespace we were copied from */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return fail(stage, "making every mount private", NULL);
	if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700,size=1m") < 0)
		return fail(stage, "mounting the staging tmpfs on", "/tmp");
	if (chdir("/tmp") < 0 || mkdir("newroot", 0755) < 0 || mkdir("oldroot", 0755) < 0)
		return fail(stage, "making the staging folders in", "/tmp");
	if (mount("tmpfs", "newroot", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m") < 0)
		return fail(stage, "mounting the view's root", NULL);
	if (syscall(SYS_pivot_root, ".", "oldroot") < 0 || chdir("/") < 0)
		return fail(stage, "pivoting into the staging root", NULL);
	struct stat rs;
	if (lstat(NEW, &rs) < 0)
		return fail(stage, "finding the view's root", NULL);
	for (int i = 0; i < n; i++)
		if (add_entry(&e[i], rs.st_dev, stage) < 0)
			return -1;
	if (proc) {
		char p[] = NEW "/proc";
		if (make_point(p, true, rs.st_dev) < 0 ||
		    mount("proc", p, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
			return fail(stage, "mounting a fresh", "/proc");
	}
	if (mount(NULL, NEW, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV,
	          NULL) < 0)
		return fail(stage, "making the view's root read-only", NULL);
	if (umount2(OLD, MNT_DETACH) < 0)
		return fail(stage, "detaching the old root", NULL);
	/* pivot_root(2)'s own recipe: the staging root ends stacked on the view's
	 * and is detached from it */
	if (chdir(NEW) < 0 || syscall(SYS_pivot_root, ".", ".") < 0 ||
	    umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
		return fail(stage, "pivoting into the view", NULL);
	return 0;
}
