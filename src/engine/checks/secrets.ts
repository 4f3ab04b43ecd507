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
 * Scans texts with secretlint and returns its messages per text, in order: batched
 * (scanInProcess, the default) or one run per text (scanEach, the reference). Never rejects for
 * one text: that text's result says why.
 */
export type SecretScanner = (items: SecretScanItem[]) => Promise<SecretScanResult[]>;

type Messages = Extract<SecretScanResult, { ok: true }>['messages'];

/** one secretlint run over one text */
async function lintOne(filePath: string, content: string): Promise<SecretScanResult> {
  secretlint ??= loadSecretlint();
  const { lintSource, config } = secretlint;
  try {
    const r = await lintSource({ source: { filePath, content, contentType: 'text' }, options: { config, locale: 'en', maskSecrets: false, noPhysicFilePath: true } });
    return {
      ok: true,
      messages: r.messages.map((m) => {
        const typeName = m.data && typeof (m.data as Record<string, unknown>).typeName === 'string' ? String((m.data as Record<string, unknown>).typeName) : undefined;
        return { range: [m.range[0], m.range[1]], line: m.loc.start.line, ruleId: m.ruleId, ...(m.messageId !== undefined && { messageId: m.messageId }), ...(typeName !== undefined && { typeName }) };
      }),
    };
  } catch (e) {
    const err = e instanceof Error ? e : undefined;
    return { ok: false, message: err?.message ?? String(e), ...(err?.stack && { stack: err.stack }) };
  }
}

/** secretlint once per text: the reference the batched scan is held to (test/unit/secrets.test.ts) */
export const scanEach: SecretScanner = async (items) => {
  const out: SecretScanResult[] = [];
  for (const item of items) out.push(await lintOne(item.filePath, item.content));
  return out;
};

// Batching. A secretlint run costs about 0.15 ms before it reads a character (its rules are set up
// per run): 460 instruction texts took 120 ms one by one and 25 ms joined. Texts with the same
// extension are joined with a separator no secret pattern crosses unnoticed; a message is kept for
// the text it lies in, with its range made relative to that text. A text is scanned alone when
// joining could change what a rule sees: a `secretlint-disable` comment (it would reach into the
// texts after it), a JSON text (the GCP rule parses the whole file), or a message that crosses a
// separator (its texts are scanned again one by one).
const SEPARATOR = '\n\n\u0000\u0000\n\n';
const MAX_BATCH_CHARS = 1 << 20;
const ALONE = /secretlint|^\s*[[{]/i;

export const scanInProcess: SecretScanner = async (items) => {
  const out: (SecretScanResult | undefined)[] = items.map(() => undefined);
  const alone: number[] = [];
  const batches = new Map<string, { texts: number[]; chars: number }[]>();
  items.forEach((item, i) => {
    if (ALONE.test(item.content)) return void alone.push(i);
    const ext = (/\.[^./]*$/.exec(item.filePath) ?? [''])[0];
    const list = batches.get(ext) ?? batches.set(ext, []).get(ext)!;
    let last = list[list.length - 1];
    if (!last || (last.texts.length && last.chars + item.content.length > MAX_BATCH_CHARS)) list.push((last = { texts: [], chars: 0 }));
    last.texts.push(i);
    last.chars += item.content.length + SEPARATOR.length;
  });
  for (const [ext, list] of batches)
    for (const { texts: batch } of list) {
      if (batch.length === 1) {
        alone.push(batch[0]!);
        continue;
      }
      const starts: number[] = [];
      let text = '';
      for (const i of batch) {
        if (text) text += SEPARATOR;
        starts.push(text.length);
        text += items[i]!.content;
      }
      const r = await lintOne(`/claude-layers/batch${ext}`, text);
      if (!r.ok) {
        alone.push(...batch);
        continue;
      }
      const found: Messages[] = batch.map(() => []);
      const again = new Set<number>();
      for (const m of r.messages) {
        // the text the message starts in (the last start at or before it)
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if (starts[mid]! <= m.range[0]) lo = mid;
          else hi = mid - 1;
        }
        const start = starts[lo]!;
        const end = start + items[batch[lo]!]!.content.length;
        if (m.range[0] >= end || m.range[1] > end) {
          // in or across a separator: every text it touches is scanned alone
          for (let k = lo; k < batch.length && (k === lo || starts[k]! < m.range[1]); k++) again.add(k);
          continue;
        }
        const content = items[batch[lo]!]!.content;
        found[lo]!.push({ ...m, range: [m.range[0] - start, m.range[1] - start], line: lineOf(content, m.range[0] - start) });
      }
      batch.forEach((i, k) => {
        if (again.has(k)) alone.push(i);
        else out[i] = { ok: true, messages: found[k]! };
      });
    }
  for (const i of alone) out[i] = await lintOne(items[i]!.filePath, items[i]!.content);
  return out as SecretScanResult[];
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
      if (line === undefined && src.raw === src.content) line = m.line;
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
