// Per-file checks over every instruction file, rule and skill of the workspace, including the ones
// that only load lazily (nested folders, conditional rules) and so escape the startup analysis:
// naming, size, BOM before frontmatter, frontmatter keys Claude Code ignores, invalid YAML.
import * as path from 'node:path';
import { decodeUtf8, LARGE_FILE_CHARS, MAX_INSTRUCTION_BYTES, processInstructionText, type ProcessedFile } from '../instructions/content.js';
import { grouped, type Diagnostic } from '../diagnostics.js';
import type { Environment } from '../environment.js';
import { frontmatterKeyLine } from '../instructions/frontmatter.js';
import { versionList, type ClaudeProfile } from '../profiles.js';
import type { Candidate, Inventory } from './inventory.js';

export type FileText = { ok: true; text: string; size: number } | { ok: false; reason: string; tooBig?: number };

/** Read a file through the engine's file access (bounded, never blocks on FIFOs). */
export function readText(env: Environment, p: string): FileText {
  const st = env.fs.stat(p);
  if (!st.ok) return { ok: false, reason: st.code };
  if (st.value.kind !== 'file') return { ok: false, reason: 'not a regular file' };
  if (st.value.size > MAX_INSTRUCTION_BYTES) return { ok: false, reason: 'over 4 MiB', tooBig: st.value.size };
  const r = env.fs.readFile(p, MAX_INSTRUCTION_BYTES);
  if (!r.ok) return { ok: false, reason: r.code };
  return { ok: true, text: decodeUtf8(r.value), size: r.value.byteLength };
}

/** Keys people write for gating that Claude Code does not read (it reads lowercase `paths` only). */
const LOOKALIKE_KEYS = /^(globs?|paths?|applyTo|files?|patterns?|include|match)$/i;

const EXACT_NAMES: Record<string, string> = {
  'claude.md': 'CLAUDE.md',
  'claude.local.md': 'CLAUDE.local.md',
};

function wrongCase(name: string, parentName: string, grandName: string, isDir: boolean): string | undefined {
  const lower = name.toLowerCase();
  if (!isDir && EXACT_NAMES[lower] && name !== EXACT_NAMES[lower]) return EXACT_NAMES[lower];
  if (isDir && lower === '.claude' && name !== '.claude') return '.claude';
  if (parentName === '.claude') {
    if (isDir && lower === 'rules' && name !== 'rules') return 'rules';
    if (isDir && lower === 'skills' && name !== 'skills') return 'skills';
    if (!isDir && (lower === 'settings.json' || lower === 'settings.local.json') && name !== lower) return lower;
  }
  if (grandName === 'skills' && !isDir && lower === 'skill.md' && name !== 'SKILL.md') return 'SKILL.md';
  return undefined;
}

export function nameChecks(inv: Inventory, display: (p: string) => string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const n of inv.names) {
    const name = path.basename(n.path);
    const parent = path.basename(path.dirname(n.path));
    const grand = path.basename(path.dirname(path.dirname(n.path)));
    const want = wrongCase(name, parent, grand, n.isDir);
    if (!want) continue;
    const what = n.isDir ? 'folder' : 'file';
    out.push({
      path: n.path, severity: 'error', rule: 'wrong-case-name',
      message: `${what} "${name}" is not "${want}": Claude Code looks for the exact name, so on a case-sensitive file system (Linux, most CI) it never loads ${display(n.path)}`,
    });
  }
  return out;
}

function rulesNotMd(env: Environment, c: Candidate): Diagnostic | undefined | null {
  if (c.kind !== 'rule' || c.path.endsWith('.md')) return undefined;
  const st = env.fs.stat(c.path);
  if (!st.ok || st.value.kind !== 'file') return null; // loops, dangling links, FIFOs: the engine reports those
  const name = path.basename(c.path);
  const mdLike = /\.(md|markdown|mdown|mkd|mdx|txt)$/i.test(name) || !name.includes('.');
  return {
    path: c.path, severity: mdLike ? 'warning' : 'info', rule: 'rule-not-md',
    message: `rule files must end in lowercase ".md": Claude Code ignores ${name}${mdLike ? ` (rename it to ${name.replace(/\.[^.]*$/, '')}.md)` : ''}`,
  };
}

export interface FileCheckResult {
  diagnostics: Diagnostic[];
  /** rules found with `paths:` (as the profile parses them), for the glob check */
  conditional: { path: string; type: Candidate['type']; base: string; patterns: string[]; rawPatterns: string[]; line?: number }[];
}

/**
 * `process` turns a file's text into its processed form (the engine's, with includes); the lint
 * passes the session's, which keeps it for the touches that load the same files.
 */
export function fileChecks(
  env: Environment,
  profile: ClaudeProfile,
  inv: Inventory,
  process: (p: string, text: string) => ProcessedFile = (p, text) => processInstructionText(text, p, { stripBomBeforeFrontmatter: profile.stripBomBeforeFrontmatter, collectIncludes: false, home: env.home }),
): FileCheckResult {
  const out: Diagnostic[] = [];
  const conditional: FileCheckResult['conditional'] = [];
  for (const c of inv.candidates) {
    const notMd = rulesNotMd(env, c);
    if (notMd !== undefined) {
      if (notMd) out.push(notMd);
      continue;
    }
    const r = readText(env, c.path);
    if (!r.ok) {
      if (r.tooBig !== undefined && c.kind !== 'skill')
        out.push({ path: c.path, severity: 'error', rule: 'over-4mib', message: `not loaded: ${r.tooBig} bytes is over Claude Code's 4 MiB limit: the file is skipped whole, with no warning` });
      continue;
    }
    const text = r.text;
    const proc = process(c.path, text);

    if (c.kind !== 'skill' && proc.content.trim().length >= LARGE_FILE_CHARS)
      out.push({ path: c.path, severity: 'info', rule: 'large-file', message: `${grouped(proc.content.trim().length)} characters: Claude Code's /memory view flags instruction files of 40,000 characters and more (it still loads in full)` });

    // BOM before frontmatter
    if (text.charCodeAt(0) === 0xfeff && /^\uFEFF---[ \t]*\r?\n/.test(text)) {
      const gated = /^\uFEFF---[\s\S]*?\n\s*paths\s*:/m.test(text.slice(0, 4096));
      if (!profile.stripBomBeforeFrontmatter)
        out.push({
          path: c.path, line: 1, severity: 'warning', rule: 'bom-before-frontmatter',
          message: `a byte-order mark stands before "---": Claude Code ${profile.version} does not see the frontmatter, so it stays in the text${c.kind === 'rule' && gated ? ' and its paths: is ignored (the rule loads unconditionally at startup)' : ''}; save the file as UTF-8 without BOM`,
        });
      else
        out.push({
          path: c.path, line: 1, severity: 'info', rule: 'bom-before-frontmatter',
          message: `a byte-order mark stands before "---": fine on ${profile.version}, but Claude Code ${versionList((p) => !p.stripBomBeforeFrontmatter)} keeps such frontmatter as text${c.kind === 'rule' && gated ? ' and loads the rule unconditionally' : ''}; save the file as UTF-8 without BOM`,
        });
    }

    if (c.kind === 'skill') {
      if (proc.yamlError)
        out.push({ path: c.path, line: 1, severity: 'warning', rule: 'invalid-frontmatter', message: `frontmatter is not valid YAML (${proc.yamlError}): the skill's name and description may not be read` });
      continue;
    }
    if (proc.yamlError)
      out.push({ path: c.path, line: 1, severity: 'warning', rule: 'invalid-frontmatter', message: `frontmatter is not valid YAML (${proc.yamlError}); Claude Code strips it and ignores its keys` });

    const keys = proc.hasFrontmatter
      ? proc.yamlError
        ? [...new Set([...(proc.frontmatter && Object.keys(proc.frontmatter)), ...rawKeys(text)])]
        : Object.keys(proc.frontmatter)
      : [];
    const hasPaths = keys.includes('paths');
    if (c.kind === 'rule') {
      for (const k of keys) {
        if (k === 'paths' || !LOOKALIKE_KEYS.test(k)) continue;
        const line = frontmatterKeyLine(text.replace(/^\uFEFF/, ''), k);
        out.push(
          hasPaths
            ? { path: c.path, line, severity: 'info', rule: 'frontmatter-key-ignored', message: `"${k}:" is ignored: Claude Code reads only the lowercase key "paths:" (which this rule has)` }
            : {
                path: c.path, line, severity: 'warning', rule: 'frontmatter-key-ignored',
                message: `"${k}:" is not read by Claude Code: only the lowercase key "paths:" gates a rule, so this rule loads unconditionally at startup; rename the key to "paths:"`,
              },
        );
      }
      if (proc.globs && c.base) conditional.push({ path: c.path, type: c.type, base: c.base, patterns: proc.globs, rawPatterns: proc.rawGlobs ?? proc.globs, line: proc.pathsLine });
    } else if (hasPaths) {
      const name = path.basename(c.path);
      out.push({
        path: c.path, line: frontmatterKeyLine(text.replace(/^\uFEFF/, ''), 'paths'), severity: 'warning', rule: 'paths-ignored',
        message: `"paths:" has no effect in ${name}: the file always loads; move the text to a .claude/rules/*.md file to gate it by path`,
      });
    }
  }
  return { diagnostics: out, conditional };
}

/** top-level keys of a frontmatter whose YAML does not parse */
function rawKeys(text: string): string[] {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!m) return [];
  const keys: string[] = [];
  for (const line of m[1]!.split(/\r?\n/)) {
    const k = /^([A-Za-z_][\w-]*)\s*:/.exec(line);
    if (k) keys.push(k[1]!);
  }
  return keys;
}
