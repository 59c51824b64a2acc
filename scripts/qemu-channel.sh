#!/bin/sh
# Reads the guest's result channel (protocol in lab/runner/main.c) into
# RUNS/<id>.json, LOGS/<name> and PERF/<id>.perf.txt, one event line per
# channel event: build/channel (lab/channel/channel.h says what it writes).
# Usage: scripts/qemu-channel.sh CHANNEL RUNS [LOGS [PERF]]
set -eu
bin=$(cd "$(dirname "$0")/.." && pwd)/build/channel
[ -x "$bin" ] || { echo "preemptlab: no $bin (the channel reader): make build-all" >&2; exit 1; }
exec "$bin" "$@"
