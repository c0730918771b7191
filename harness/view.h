/* view.h — a process's whole file system replaced by a listed few entries: a fresh
 * tmpfs root holding only them, pivoted into, the old root detached. The build's
 * jail (compile.c: nvcc sees the toolkit, the system headers and the compiler)
 * and the kernel's process (cand/main.cu: its device nodes, /proc, a tmp and its
 * object) use it. Linux only; libc alone, no other file of ours, so that
 * build/cuarena-cand links it too. */
#ifndef CUA_VIEW_H
#define CUA_VIEW_H

#include <stdbool.h>

/* Entry flags. */
#define CUA_VIEW_RW 1u        /* writable (the default is read-only) */
#define CUA_VIEW_OPTIONAL 2u  /* absent on the host: skipped, not an error */
#define CUA_VIEW_TMPFS 4u     /* an empty private writable tmpfs at `at` (host unused,
                               * may be NULL): CUA_VIEW_TMPFS_SIZE bytes, mode 1777 */

#define CUA_VIEW_TMPFS_SIZE "64m"

struct cua_view_entry {
	const char *host;   /* absolute path to expose: a file, a folder or a device node.
	                     * Symbolic links in it, the last component's included, are
	                     * followed inside the host's root: the view holds what they
	                     * point at, under `at` (no link is recreated) */
	const char *at;     /* where it appears inside (NULL: the same path). Absolute, no
	                     * "." or ".." components; folders on the way are made in the
	                     * view's own root, never inside an entry already mounted (a
	                     * mount point beneath an entry must exist there) */
	unsigned flags;     /* CUA_VIEW_* */
};

/* Replaces the calling process's file-system view with exactly these entries,
 * in order (a folder before what is mounted beneath it), plus a fresh /proc when
 * proc is true (in a user namespace that needs a PID namespace of its own).
 * Every entry is its own bind mount, read-only unless CUA_VIEW_RW, nosuid, and
 * nodev unless it is a device node; a mount beneath a host folder is not carried
 * (list it as an entry of its own). The view's root is read-only: what can be
 * written is the RW and TMPFS entries alone. Afterwards the cwd is "/".
 *
 * Call it in a process that has a mount namespace of its own (cloned with
 * CLONE_NEWNS, or unshare(CLONE_NEWNS) by a single-threaded process: the
 * caller's job, since every thread of the namespace is moved into the view) and
 * the right to mount in it (root, or a user namespace's owner), before dropping
 * privileges. Descriptors and mappings it holds stay. Async-signal-safe: no
 * malloc, no stdio (the callers are children of multi-threaded parents). It uses
 * the caller's /tmp as a mount point while it builds the view (hidden from the
 * result, and from every other namespace).
 *
 * Returns 0, or -1 with errno set and *stage (when stage is not NULL) naming the
 * step and the entry, e.g. "binding /usr/include" (a static buffer, valid until
 * the next call). On failure the process's view is undefined: end it. */
int cua_view_enter(const struct cua_view_entry *e, int n, bool proc, const char **stage);

#endif /* CUA_VIEW_H */
