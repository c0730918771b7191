#!/usr/bin/env bash
# slurm-carry.sh — Debian's Slurm (slurmctld, slurmd, slurmstepd, sbatch ...) and the
# libraries it links beyond glibc, extracted from their .debs (nothing installed)
# into .carry/slurm, for a machine with no Slurm and no network (the H200:
# tools/dev/gpu-session.sh slurm, which runs it with tools/slurm-local.sh).
#
#   tools/dev/slurm-carry.sh [DIR]     (default .carry/slurm; needs apt-get and the network)
#
# About 14 MiB (2 of it a static busybox, for its ip). The daemons run with
# auth/none, so munge is not carried.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEST=${1:-$ROOT/.carry/slurm}
# busybox-static: its `ip` where the machine has no iproute2 (tools/slurm-local.sh)
PKGS="slurmctld slurmd slurm-client slurm-wlm-basic-plugins libhwloc15 libnuma1 liblz4-1
      libpam0g libaudit1 libcap-ng0 libudev1 busybox-static"
TMP=$(mktemp -d /tmp/slurm-carry-XXXXXX)
id _apt >/dev/null 2>&1 && chown _apt "$TMP"   # apt-get downloads as _apt where it can
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && apt-get download $PKGS >/dev/null) || {
	echo "slurm-carry: apt-get download failed (run apt-get update?)" >&2; exit 1; }
rm -rf "$DEST"
mkdir -p "$DEST"
for d in "$TMP"/*.deb; do
	dpkg-deb -x "$d" "$DEST"
done
# the libraries the packages put under /lib (usrmerge) go where LD_LIBRARY_PATH looks
if [ -d "$DEST/lib/x86_64-linux-gnu" ]; then
	mkdir -p "$DEST/usr/lib/x86_64-linux-gnu"
	cp -a "$DEST"/lib/x86_64-linux-gnu/. "$DEST/usr/lib/x86_64-linux-gnu/"
	rm -rf "$DEST/lib"
fi
# busybox itself, not its links (/bin/sh and the rest stay the machine's)
find "$DEST/bin" "$DEST/usr/bin" "$DEST/usr/sbin" "$DEST/sbin" -type l -lname '*busybox*' -delete 2>/dev/null || true
rm -rf "$DEST"/usr/share "$DEST"/etc "$DEST"/usr/lib/systemd "$DEST"/lib/systemd \
	"$DEST"/usr/lib/x86_64-linux-gnu/security
# what the binaries and plugins need that neither the tree nor glibc gives
LIB=$DEST/usr/lib/x86_64-linux-gnu
missing=$(LD_LIBRARY_PATH=$LIB/slurm-wlm:$LIB ldd "$DEST"/usr/sbin/* "$DEST"/usr/bin/sbatch \
	"$LIB"/slurm-wlm/{auth_none,cred_none,select_cons_tres,gres_gpu,gpu_generic}.so 2>/dev/null |
	awk '/=>/ && $3 !~ "^'"$DEST"'" {print $1}' | sort -u |
	grep -v -E '^(libc|libm|libdl|libpthread|librt|libresolv|ld-linux-x86-64|linux-vdso)\.so' || true)
echo "slurm-carry: $(du -sh "$DEST" | cut -f1) in $DEST ($(ls "$TMP" | wc -l) packages)"
[ -z "$missing" ] || echo "slurm-carry: from the system, not carried: $(echo $missing)"
