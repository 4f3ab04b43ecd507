#!/usr/bin/env bash
# The unit suites on a loaded machine: pinned to one CPU (taskset -c 0) beside a busy loop on the same
# CPU, so every timer and debounce in them runs late. They must pass as they do on an idle machine
# (no test waits on the wall clock). Prints the time taken; exit status = the suites'.
set -u
cd "$(dirname "$0")/.."
command -v taskset > /dev/null || { echo "loaded-unit: taskset (util-linux) is needed" >&2; exit 2; }
taskset -c 0 sh -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2> /dev/null' EXIT
start=$(date +%s)
taskset -c 0 bash -O globstar -c 'node --import tsx --test test/unit/**/*.test.ts'
rc=$?
echo "loaded-unit: exit $rc after $(( $(date +%s) - start )) s on one CPU shared with a busy loop"
exit $rc
