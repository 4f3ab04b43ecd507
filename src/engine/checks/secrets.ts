// Likely secrets in text that reaches the model request (and so leaves the machine for the model
// provider): secretlint's maintained recommended rule set (cloud keys, tokens of GitHub, npm, Slack,
// OpenAI, Anthropic…, private keys, basic-auth URLs, database connection strings), plus one pattern
// rule for `password: …`-style assignments. Runs offline. Secrets are never printed: messages
// carry a masked form only.
//
// secretlint is loaded on first use (the editor starts without it). Its built-in profiler
// (@secretlint/profiler) observes every performance mark and looks each one up in a growing list,
// which makes a scan quadratic in the number of texts: the bundles alias the package to a no-op
// (esbuild.config.mjs, null-profiler.ts) and here, where the real one is loaded (tests under tsx),
// its `mark` is replaced by a no-op before the first scan.
import type { lintSource as LintSource } from '@secretlint/core';
import type { Diagnostic } from '../diagnostics.js';

export interface SecretSource {
  /** file the text comes from */
  path: string;
  /** the text as it reaches the request */
  content: string;
  /** the file as stored (for line numbers), when it can be read */
  raw?: string;
  /** how it reaches the request, e.g. "startup", "after Read of src/x.ts", "skill body" */
  how: string;
}

/* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use, synchronously (the checks are synchronous) */
function loadSecretlint(): { lintSource: typeof LintSource; config: ReturnType<typeof makeConfig> } {
  const profiler = require('@secretlint/profiler') as { secretLintProfiler?: { mark: (m: unknown) => void } };
  if (profiler.secretLintProfiler) profiler.secretLintProfiler.mark = () => undefined;
  const { lintSource } = require('@secretlint/core') as typeof import('@secretlint/core');
  const { creator: patternRule } = require('@secretlint/secretlint-rule-pattern') as typeof import('@secretlint/secretlint-rule-pattern');
  const { creator: recommended } = require('@secretlint/secretlint-rule-preset-recommend') as typeof import('@secretlint/secretlint-rule-preset-recommend');
  return { lintSource, config: makeConfig(recommended, patternRule) };
}
/* eslint-enable @typescript-eslint/no-require-imports */

let secretlint: ReturnType<typeof loadSecretlint> | undefined;

function makeConfig(
  recommended: typeof import('@secretlint/secretlint-rule-preset-recommend').creator,
  patternRule: typeof import('@secretlint/secretlint-rule-pattern').creator,
) {
  return {
    rules: [
      { id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended },
      {
        id: '@secretlint/secretlint-rule-pattern',
        rule: patternRule,
        options: {
          patterns: [
            {
              name: 'password assignment',
              patterns: [
                '/(?:password|passwd|pwd|passphrase|client[_-]?secret|secret[_-]?key|api[_-]?key|access[_-]?token|auth[_-]?token)["\']?\\s*[:=]\\s*["\']?[^\\s"\'`<>${}(),;]{8,}/i',
              ],
            },
          ],
          allows: ['/example|sample|placeholder|changeme|change[_-]me|your[_-]|redacted|dummy|xxxx|\\*{3}|\\.{3}|…|process\\.env|os\\.environ|getenv/i'],
        },
      },
    ],
  };
}

/** `ghp_…(40 chars)`, `password: ****(16 chars)`: enough to find it, not enough to use it */
export function mask(secret: string): string {
  const s = secret.trim();
  const assign = /^([\w"'-]{2,40}["']?\s*[:=]\s*["']?)(.+)$/s.exec(s);
  if (assign) return `${assign[1]}****(${assign[2]!.length} chars)`;
  if (s.length <= 8) return '*'.repeat(s.length);
  return `${s.slice(0, 4)}…(${s.length} chars)`;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

const SHORT_RULE = (id: string) => id.replace(/^@secretlint\/secretlint-rule-/, '');

/** one text to scan, as secretlint is given it */
export interface SecretScanItem {
  filePath: string;
  content: string;
}

/** what secretlint found in one text (the parts of its messages the findings use), or why it could not scan it */
export type SecretScanResult =
  | { ok: true; messages: { range: [number, number]; line: number; ruleId: string; messageId?: string; typeName?: string }[] }
  | { ok: false; message: string; stack?: string };

/**
 * Scans texts with secretlint and returns its messages per text, in order: in this process
 * (scanInProcess), or in a worker thread that loaded secretlint while the workspace was listed
 * (the CLI's, src/cli/secret-worker-client.ts). Never rejects for one text: that text's result says why.
 */
export type SecretScanner = (items: SecretScanItem[]) => Promise<SecretScanResult[]>;

export const scanInProcess: SecretScanner = async (items) => {
  const out: SecretScanResult[] = [];
  if (!items.length) return out;
  secretlint ??= loadSecretlint();
  const { lintSource, config } = secretlint;
  for (const item of items) {
    try {
      const r = await lintSource({ source: { filePath: item.filePath, content: item.content, contentType: 'text' }, options: { config, locale: 'en', maskSecrets: false, noPhysicFilePath: true } });
      out.push({
        ok: true,
        messages: r.messages.map((m) => {
          const typeName = m.data && typeof (m.data as Record<string, unknown>).typeName === 'string' ? String((m.data as Record<string, unknown>).typeName) : undefined;
          return { range: [m.range[0], m.range[1]], line: m.loc.start.line, ruleId: m.ruleId, ...(m.messageId !== undefined && { messageId: m.messageId }), ...(typeName !== undefined && { typeName }) };
        }),
      });
    } catch (e) {
      const err = e instanceof Error ? e : undefined;
      out.push({ ok: false, message: err?.message ?? String(e), ...(err?.stack && { stack: err.stack }) });
    }
  }
  return out;
};

export async function scanSecrets(sources: SecretSource[], scanner: SecretScanner = scanInProcess): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const scanned = sources.filter((s) => s.content);
  if (!scanned.length) return out;
  // secretlint names performance marks after the file path, and a path with a newline or a quote
  // breaks them (an uncaught DOMException): each text gets a synthetic name with the same extension
  const items = scanned.map((src, n) => ({ filePath: `/claude-layers/source-${n}${(/\.[A-Za-z0-9]{1,10}$/.exec(src.path) ?? [''])[0]}`, content: src.content }));
  const results = await scanner(items);
  scanned.forEach((src, i) => {
    const result = results[i] ?? { ok: false, message: 'the scanner returned no result for this text' };
    if (!result.ok) {
      // this text goes unscanned: said per file, as an error (a secret may be in it)
      out.push({
        path: src.path, line: undefined, severity: 'error', rule: 'check-failed',
        message: `the secrets check crashed on this text (${src.how}) and did not scan it: ${result.message}`,
        ...(result.stack && { detail: result.stack }),
      });
      return;
    }
    for (const m of result.messages) {
      const [from, to] = m.range;
      const found = src.content.slice(from, to);
      let line: number | undefined;
      if (src.raw !== undefined) {
        const at = src.raw.indexOf(found);
        if (at !== -1) line = lineOf(src.raw, at);
      }
      if (line === undefined && src.raw === src.content) line = m.line + 1;
      const key = `${src.path}\0${line}\0${found}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const kind = m.typeName ?? (m.messageId === 'PATTERN' ? 'password or key assignment' : SHORT_RULE(m.ruleId));
      out.push({
        path: src.path, line, severity: 'error', rule: 'likely-secret',
        message: `looks like a secret (${kind}, secretlint ${SHORT_RULE(m.ruleId)}): ${mask(found)}; this text reaches the model request (${src.how}) and leaves the machine`,
      });
    }
  });
  return out;
}
