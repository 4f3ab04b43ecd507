#!/usr/bin/env bash
# install-claude.sh VERSION...
# Installs the native Claude Code binary @anthropic-ai/claude-code-linux-x64@VERSION into a cache
# outside the repo:
#   ${CLAUDE_LAYERS_CACHE:-$HOME/.cache/claude-context-layers}/bin/VERSION/node_modules/@anthropic-ai/claude-code-linux-x64/claude
# Idempotent: a version whose binary exists and reports that version with --version is skipped.
# Any failure exits non-zero. Prints the binary path of each version on stdout.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 VERSION..." >&2
  exit 2
fi

cache=${CLAUDE_LAYERS_CACHE:-$HOME/.cache/claude-context-layers}
pkg=@anthropic-ai/claude-code-linux-x64

check() { # check BIN VERSION -> 0 when BIN runs and prints VERSION
  local out
  [ -x "$1" ] || return 1
  out=$("$1" --version 2>/dev/null </dev/null) || return 1
  case "$out" in "$2"|"$2 "*) return 0 ;; *) return 1 ;; esac
}

for v in "$@"; do
  if ! [[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-.][0-9A-Za-z.-]+)?$ ]]; then
    echo "install-claude: invalid version '$v'" >&2
    exit 2
  fi
  dir=$cache/bin/$v
  bin=$dir/node_modules/$pkg/claude
  if check "$bin" "$v"; then
    echo "$bin"
    continue
  fi
  echo "install-claude: installing $pkg@$v into $dir" >&2
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"claude-bin-cache","private":true}' >"$dir/package.json"
  if ! (cd "$dir" && npm install --no-audit --no-fund --ignore-scripts --save-exact --loglevel=error "$pkg@$v" >&2); then
    echo "install-claude: npm install of $pkg@$v failed" >&2
    exit 1
  fi
  if ! check "$bin" "$v"; then
    echo "install-claude: $bin missing or does not report version $v after install" >&2
    exit 1
  fi
  echo "$bin"
done
