#!/usr/bin/env bash
# slurm-local.sh — a real single-node Slurm cluster for tests: slurmctld and slurmd
# (Debian's slurm-wlm 22.05, auth/none, no munge, no systemd) in a network
# namespace of their own with loopback only, state under STATE_DIR; runs COMMAND
# there with sbatch/squeue/scontrol on PATH and SLURM_CONF set, then stops both.
#
#   tools/slurm-local.sh STATE_DIR COMMAND [ARG...]      exit: COMMAND's, or 3/4 below
#
# Environment:
#   CUARENA_SLURM_PREFIX   a tree of extracted .debs (PREFIX/usr/sbin/slurmd-wlm ...), as
#                  tools/dev/gpu-session.sh carries; unset: the installed packages
#   CUARENA_SLURM_GPUS     "/dev/nvidia0" etc.: the node gets Gres=gpu:N with those files
#                  (gres.conf File=, no NVML: Debian has no gpu_nvml plugin)
#   CUARENA_SLURM_CPUS     CPUs of the node (default: nproc)
# Exit 3: no root, no unshare or ip, or no Slurm binaries (the caller says
# SKIPPED); 4: the cluster did not come up (the logs are printed).
set -u

P=${CUARENA_SLURM_PREFIX:-}
# ip(8) from iproute2, else the static busybox a carried tree brings (slurm-carry.sh)
if [ -x "$(command -v ip)" ]; then IP=(ip)
elif [ -x "$P/bin/busybox" ]; then IP=("$P/bin/busybox" ip)
else IP=()
fi
if [ "${CUARENA_SLURM_NETNS:-}" != 1 ]; then
	if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || [ ${#IP[@]} = 0 ]; then
		echo "slurm-local: needs root, unshare and ip (a network namespace)" >&2
		exit 3
	fi
	CUARENA_SLURM_NETNS=1 exec unshare -n -- "$0" "$@"
	echo "slurm-local: unshare -n failed" >&2
	exit 3
fi
[ $# -ge 2 ] || { echo "usage: $0 STATE_DIR COMMAND [ARG...]" >&2; exit 2; }
T=$1
shift
mkdir -p "$T" && T=$(cd "$T" && pwd) || exit 3

LIBDIR=$P/usr/lib/x86_64-linux-gnu
PLUGINS=$LIBDIR/slurm-wlm
# Debian names the daemons *-wlm (its alternatives give the plain names). They
# must run under the plain names: Slurm reads a node's Gres= only in a process
# named slurmctld or slurmd (run_in_daemon), so slurmctld-wlm has no GPUs.
mkdir -p "$T/sbin"
pick() {
	for f in "$P/usr/sbin/$1-wlm" "$P/usr/sbin/$1"; do
		if [ -x "$f" ]; then
			ln -sfn "$f" "$T/sbin/$1" && echo "$T/sbin/$1"
			return 0
		fi
	done
	return 1
}
CTLD=$(pick slurmctld) && SLURMD=$(pick slurmd) && STEPD=$(pick slurmstepd) &&
	[ -x "$P/usr/bin/sbatch" ] && [ -d "$PLUGINS" ] || {
	echo "slurm-local: no Slurm under '${P:-/}' (slurmctld, slurmd, slurmstepd, sbatch, $PLUGINS)" >&2
	exit 3
}
export PATH=$P/usr/bin:$PATH
if [ -n "$P" ]; then
	# the extracted libraries first (they hold only Slurm's and what it links)
	export LD_LIBRARY_PATH=$PLUGINS:$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi

# loopback only; slurmctld's getaddrinfo (AI_ADDRCONFIG) wants one address that
# is not 127.0.0.1 before it resolves anything
"${IP[@]}" link set lo up && "${IP[@]}" addr add 10.251.0.1/32 dev lo ||
	{ echo "slurm-local: ip failed" >&2; exit 3; }

HOST=$(hostname -s 2>/dev/null || uname -n | cut -d. -f1)
CPUS=${CUARENA_SLURM_CPUS:-$(nproc)}
mkdir -p "$T/state" "$T/spool"
GRES_NODE=""
GRES_TYPES=""
: > "$T/gres.conf"
if [ -n "${CUARENA_SLURM_GPUS:-}" ]; then
	n=0
	for g in $CUARENA_SLURM_GPUS; do
		echo "Name=gpu File=$g" >> "$T/gres.conf"
		n=$((n + 1))
	done
	GRES_NODE="Gres=gpu:$n"
	GRES_TYPES="GresTypes=gpu"
fi
cat > "$T/slurm.conf" <<EOF
ClusterName=cuarena-test
SlurmctldHost=$HOST(127.0.0.1)
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
PluginDir=$PLUGINS
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
KillWait=5
SlurmctldDebug=${CUARENA_SLURM_DEBUG:-info}
SlurmdDebug=${CUARENA_SLURM_DEBUG:-info}
${CUARENA_SLURM_DEBUG_FLAGS:+DebugFlags=$CUARENA_SLURM_DEBUG_FLAGS}
MinJobAge=600
SchedulerParameters=sched_interval=2
$GRES_TYPES
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS $GRES_NODE State=UNKNOWN
PartitionName=main Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
# slurmd loads a cgroup plugin at start even when nothing uses cgroups (linuxproc,
# task/none): on a cgroup-v2 host it autodetects cgroup/v2, whose plugin needs
# libdbus and a systemd to make its scope (the H200 machine has neither: "slurmd
# initialization failed"). cgroup/v1's start touches no cgroup, so ask for it.
echo "CgroupPlugin=cgroup/v1" > "$T/cgroup.conf"
export SLURM_CONF=$T/slurm.conf

pids=""
stop() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	for p in $pids; do
		wait "$p" 2>/dev/null
	done
	pids=""
}
trap stop EXIT
"$CTLD" -D -i -f "$SLURM_CONF" > "$T/slurmctld.out" 2>&1 &
pids="$pids $!"
"$SLURMD" -D -f "$SLURM_CONF" -d "$STEPD" > "$T/slurmd.out" 2>&1 &
pids="$pids $!"
up=""
for _ in $(seq 1 60); do
	state=$(sinfo -h -o %T 2>/dev/null)
	case "$state" in idle*|mixed*|alloc*) up=1; break ;; esac
	sleep 0.5
done
if [ -z "$up" ]; then
	echo "slurm-local: the node did not come up (sinfo: '${state:-}'); logs:" >&2
	tail -n 20 "$T"/slurmctld.out "$T"/slurmctld.log "$T"/slurmd.out "$T"/slurmd.log 2>/dev/null >&2
	exit 4
fi
"$@"
rc=$?
stop
exit "$rc"
