#!/usr/bin/env bash
# Stage 2 of run.sh: starts code-server on 127.0.0.1 and runs e2e.mjs against it. run.sh starts this
# script as the first process of a fresh network + PID namespace when it can (E2E_NETNS_ACTIVE=1): the
# loopback interface is the only one, so code-server, chromium and the claude that the Verify command
# starts cannot reach anything but 127.0.0.1; and every process still alive when this script ends is
# ended by the kernel. Needs the variables run.sh exports (RUN, WS, PORT, HOME_DIR, cs…).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${E2E_NETNS_ACTIVE:-0}" = 1 ]; then
  ip link set lo up
  echo "[e2e] network namespace: interfaces $(ip -o link show | awk -F': ' '{print $2}' | paste -sd, -)"
fi

CS_T0=$(date +%s%3N)
setsid bash -c "cs --bind-addr 127.0.0.1:$PORT \"$WS\"" > "$RUN/code-server.log" 2>&1 &
CS_PID=$!
stop() {
  kill -- -"$CS_PID" 2>/dev/null || true
  for _ in $(seq 1 20); do kill -0 -- -"$CS_PID" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 -- -"$CS_PID" 2>/dev/null || true
}
trap stop EXIT
for _ in $(seq 1 150); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.2; done
echo "[e2e] code-server up after $(( $(date +%s%3N) - CS_T0 )) ms"

NODE_PATH="$TOOLS/node_modules" E2E_URL="http://127.0.0.1:$PORT/?folder=$WS" CS_START_MS=$CS_T0 SHOTS_DIR="$SHOTS_DIR" \
  WS_DIR="$WS" MEMORY_DIR="$MEM" HOME_DIR="$HOME_DIR" RUN_TMP="$RUN/tmp" USER_SETTINGS="$RUN/ud/User/settings.json" \
  CLAUDE_BIN="$CLAUDE_BIN" CLAUDE_VERSION="$CLAUDE_VERSION" PLAYWRIGHT_CORE="$TOOLS/node_modules/playwright-core/index.mjs" \
  timeout "${E2E_TIMEOUT:-900}" "$NODE24" test/e2e/e2e.mjs
