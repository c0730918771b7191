#!/bin/sh
# stopped.sh — reads one observation and dies of the signal $STOP_SIGNAL names (TERM,
# INT, HUP: a stop from outside, as Ctrl-C or Slurm sends to every process).
IFS= read -r line
echo "pid=$$ stopped by SIG$STOP_SIGNAL" >&2
kill -"$STOP_SIGNAL" $$
