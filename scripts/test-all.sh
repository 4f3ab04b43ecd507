#!/usr/bin/env bash
# Every test level, in order: typecheck + lint, unit, conformance (real Claude Code binaries), the bench guard, e2e.
set -euo pipefail
shopt -s globstar nullglob
cd "$(dirname "$0")/.."
npm run build
npx tsc -p . --noEmit
# the engine without DOM types, host/CLI with Node and VS Code, the webview with DOM and no Node
npx tsc -p tsconfig.engine.json --noEmit
npx tsc -p tsconfig.node.json --noEmit
npx tsc -p tsconfig.webview.json --noEmit
# type-checked lint of everything built (src, webview, test, scripts, bench, the root .mjs configs): any finding fails
npm run lint
node --import tsx --test test/unit/**/*.test.ts
node --import tsx --test test/cli/*.test.ts
node --import tsx --test test/ground-truth/*.test.ts
CONFORMANCE_REQUIRE_ENGINE=1 npm run test:conformance
# the performance guard: ratios of this run (startup view ÷ raw walk, extension load ÷ node -e 0, lint ÷ its floor)
npm run bench:check
if [ -f test/e2e/run.sh ]; then bash test/e2e/run.sh; fi
