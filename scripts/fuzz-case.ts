// One fuzz worker (started by scripts/fuzz.ts): builds random workspaces from consecutive seeds and
// runs each through the engine and every CLI output format in this process. For every seed it
// prints `start SEED` before and `ok SEED ms` after (the driver kills the process when a case
// takes too long: a hang), or `escape SEED where` / `throw SEED message`.
//   node --import tsx scripts/fuzz-case.ts FIRST_SEED [COUNT]
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { prng } from '../bench/generate.js';
import { analyze, type Analysis } from '../src/engine/index.js';
import { lintPrepare, lintWorkspace } from '../src/engine/checks/index.js';
import { jsonText } from '../src/cli/escape.js';
import { buildExplain, renderExplainText } from '../src/cli/explain-command.js';
import { formatGithub, formatJson, formatSarif, formatText, type LintReport } from '../src/cli/lint-format.js';
import { makeStyle } from '../src/cli/style.js';

/** what no output may hold: C0 but tab and newline, DEL, C1 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

type R = () => number;
const pick = <T>(r: R, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: R, n: number) => Math.floor(r() * n);

const NAME_CHARS = ['a', 'b', 'Z', '0', '.', '-', '_', ' ', 'é', '中', '\u001b', '\u0007', '\u009b', '\u007f', '\u0085', '*', '?', '[', ']', '{', '}', '!', '#', "'", '"', '\\', ',', '%', ':', '\r', '\t'];
function name(r: R): string {
  if (r() < 0.05) return 'a'.repeat(100 + int(r, 140));
  const n = 1 + int(r, 12);
  let s = '';
  for (let i = 0; i < n; i++) s += pick(r, NAME_CHARS);
  s = s.replace(/\//g, '');
  return s === '.' || s === '..' || s === '' ? 'x' : s;
}

const GLOB_ATOMS = ['*', '**', '?', 'a', 'src', '*.ts', '[ab]', '[!a]', '[a-', '{a,b}', '{', '}', '\\ ', '\\*', '!', '#', ' ', '*a*a*a*a*b', '**/x/**/x/**/x/**/x', '[[:alpha:]]', 'é', '\u001b', '..', '.', ''];
function glob(r: R): string {
  if (r() < 0.03) return '*a'.repeat(int(r, 5000));
  const segs = Array.from({ length: 1 + int(r, 5) }, () => Array.from({ length: 1 + int(r, 3) }, () => pick(r, GLOB_ATOMS)).join(''));
  return (r() < 0.2 ? '/' : '') + segs.join('/') + (r() < 0.1 ? '/' : '');
}

function yamlValue(r: R, depth = 0): string {
  const k = r();
  if (depth > 3 || k < 0.3) return pick(r, ['x', '"q\\"uote"', "'s'", '5', 'true', 'null', '~', '-1e9', '&a x', '*a', '|\n  block', '>-\n  fold', '"\u001b[31m"', '\u009b', glob(r)]);
  if (k < 0.55) return `[${Array.from({ length: int(r, 4) }, () => yamlValue(r, depth + 1)).join(', ')}]`;
  if (k < 0.7) return `{${Array.from({ length: int(r, 3) }, () => `${name(r).replace(/[:{}[\],]/g, '')}: ${yamlValue(r, depth + 1)}`).join(', ')}}`;
  if (k < 0.75) return '['.repeat(int(r, 600)) + ']'.repeat(int(r, 600));
  if (k < 0.8) return `${'{a: '.repeat(int(r, 500))}1${'}'.repeat(int(r, 500))}`;
  return `\n${Array.from({ length: 1 + int(r, 3) }, () => `  - ${yamlValue(r, depth + 1)}`).join('\n')}`;
}

function frontmatter(r: R, keys: string[]): string {
  if (r() < 0.1) return pick(r, ['---\n', '---\npaths: [\n', '\uFEFF---\npaths: x\n---\n', '---\n\tpaths:\t[x\n---\n', '---\n---\n']);
  const lines = keys.filter(() => r() < 0.8).map((k) => `${k}: ${yamlValue(r)}`);
  if (r() < 0.2) lines.push(`${name(r)}: ${yamlValue(r)}`);
  return `---\n${lines.join('\n')}\n---\n`;
}

function body(r: R, includes: string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < 1 + int(r, 6); i++) {
    const k = r();
    if (k < 0.3 && includes.length) parts.push(`@${pick(r, includes)}`);
    else if (k < 0.4) parts.push('<!-- comment -->');
    else if (k < 0.45) parts.push('```\n@not-an-include\n```');
    else if (k < 0.5) parts.push('\u001b]0;title\u0007 \u009b2J');
    else if (k < 0.55) parts.push('sk-ant-api03-' + 'A'.repeat(90));
    else parts.push(`line ${name(r)}`);
  }
  return parts.join('\n') + '\n';
}

function write(p: string, data: string | Buffer): void {
  try {
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, data);
  } catch {
    /* a name the file system refuses */
  }
}

/** a random workspace for `seed`: the launch directory, HOME and a file to touch */
export function makeWorkspace(seed: number, root: string): { cwd: string; home: string; touch: string } {
  const r = prng(seed);
  const cwd = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(path.join(cwd, '.git'), { recursive: true });
  fs.writeFileSync(path.join(cwd, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.mkdirSync(home, { recursive: true });
  const dirs = [''];
  for (let i = 0; i < int(r, 6); i++) dirs.push(path.join(pick(r, dirs), r() < 0.7 ? name(r) : pick(r, ['src', 'sub', '.claude', 'node_modules'])));
  const files: string[] = [];
  for (let i = 0; i < 2 + int(r, 10); i++) {
    const f = path.join(cwd, pick(r, dirs), `${name(r)}${pick(r, ['.ts', '.md', '', '.json'])}`);
    write(f, 'x\n');
    files.push(f);
  }
  const includes = [...files.map((f) => path.relative(cwd, f)), 'missing.md', '~/x.md', '../../etc/passwd', 'CLAUDE.md', './a b.md'];
  for (const d of dirs) if (r() < 0.5) write(path.join(cwd, d, pick(r, ['CLAUDE.md', 'CLAUDE.local.md', '.claude/CLAUDE.md'])), (r() < 0.3 ? frontmatter(r, ['paths']) : '') + body(r, includes));
  for (let i = 0; i < int(r, 5); i++) write(path.join(cwd, pick(r, dirs), '.claude', 'rules', `${name(r)}.md`), frontmatter(r, ['paths', 'globs', 'description']) + body(r, includes));
  for (let i = 0; i < int(r, 4); i++) {
    const n = name(r);
    write(path.join(cwd, '.claude', 'skills', n, 'SKILL.md'), frontmatter(r, ['name', 'description', 'when_to_use', 'paths', 'user-invocable']) + body(r, []));
  }
  if (r() < 0.3) write(path.join(home, '.claude', 'CLAUDE.md'), body(r, ['~/.claude/CLAUDE.md', 'x.md']));
  const settingsValue = (): unknown => pick(r, [5, 'str', {}, [], null, true, [1, 'x', {}], ['/x/**', glob(r)], { a: 1 }, Array.from({ length: int(r, 50) }, () => glob(r))]);
  if (r() < 0.5) {
    const s: Record<string, unknown> = {};
    for (const k of ['claudeMdExcludes', 'autoMemoryDirectory', 'autoMemoryEnabled', 'model', 'env']) if (r() < 0.4) s[k] = settingsValue();
    write(path.join(cwd, '.claude', pick(r, ['settings.json', 'settings.local.json'])), r() < 0.1 ? '{"broken": ' : JSON.stringify(s));
  }
  const memory = path.join(home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), 'memory');
  const m = r();
  if (m < 0.3) write(path.join(memory, 'MEMORY.md'), Array.from({ length: int(r, 300) }, () => `- [${name(r)}](${name(r)}.md) ${name(r)}`).join('\n'));
  else if (m < 0.35) fs.mkdirSync(path.join(memory, 'MEMORY.md'), { recursive: true });
  else if (m < 0.4) {
    fs.mkdirSync(memory, { recursive: true });
    try {
      execFileSync('mkfifo', [path.join(memory, 'MEMORY.md')]);
    } catch {
      /* no mkfifo */
    }
  }
  if (r() < 0.1) {
    try {
      execFileSync('mkfifo', [path.join(cwd, pick(r, dirs), 'CLAUDE.md')], { stdio: 'ignore' });
    } catch {
      /* exists already, or no mkfifo */
    }
  }
  if (r() < 0.1) {
    try {
      fs.symlinkSync('loop', path.join(cwd, '.claude', 'rules', 'loop'));
    } catch {
      /* no rules folder */
    }
  }
  return { cwd, home, touch: files.length ? pick(r, files) : path.join(cwd, 'x.ts') };
}

function check(seed: number, where: string, text: string): void {
  const m = CONTROL.exec(text);
  if (m) throw Object.assign(new Error(`${where}: raw U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 20))}`), { escape: true });
}

/** run one case; throws on a throw from the engine or an escape */
export async function runCase(seed: number): Promise<void> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-fuzz-')));
  try {
    const { cwd, home, touch } = makeWorkspace(seed, root);
    const r = prng(seed ^ 0x5bd1e995);
    const opts = { cwd, home, env: { HOME: home }, managedDir: path.join(root, 'managed'), claudeVersion: pick(r, ['2.1.235', '2.1.328', '2.1.332']), model: r() < 0.2 ? 'x\u001b[31m\u009b' : undefined };
    const prepared = lintPrepare(opts, undefined, { at: Date.now() + 8000, now: Date.now });
    const a: Analysis = analyze(prepared.options);
    const res = await lintWorkspace(a, { secrets: r() < 0.3, index: prepared.index });
    const report: LintReport = { tool: { name: 'claude-layers', version: '0' }, claudeVersion: a.profile.version, cwd, home, failOn: 'error', diagnostics: res.diagnostics, filesScanned: res.filesScanned, exitCode: 0 };
    check(seed, 'lint text', formatText(report, makeStyle(false)));
    check(seed, 'lint json', formatJson(report));
    check(seed, 'lint sarif', formatSarif(report));
    check(seed, 'lint github', formatGithub(report, cwd));
    const b = analyze(opts);
    const x = buildExplain(b, touch, { error: 0, warning: 0, info: 0 });
    check(seed, 'explain text', renderExplainText(x, makeStyle(false)));
    check(seed, 'explain json', jsonText(x));
    const touched = b.session().touch(pick(r, ['Read', 'Edit', 'Write'] as const), touch);
    check(seed, 'render json', jsonText({ touches: touched, diagnostics: b.diagnostics, skills: b.skills.text, startup: b.startupText ?? null }));
  } finally {
    const unlock = (p: string) => {
      try {
        if (fs.lstatSync(p).isDirectory()) {
          fs.chmodSync(p, 0o755);
          for (const e of fs.readdirSync(p)) unlock(path.join(p, e));
        }
      } catch {
        /* gone */
      }
    };
    unlock(root);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const first = Number(process.argv[2] ?? 1);
  const count = Number(process.argv[3] ?? Infinity);
  for (let s = first; s < first + count; s++) {
    process.stdout.write(`start ${s}\n`);
    const t = performance.now();
    try {
      await runCase(s);
      process.stdout.write(`ok ${s} ${(performance.now() - t).toFixed(0)}\n`);
    } catch (e) {
      const err = e as Error & { escape?: boolean };
      process.stdout.write(`${err.escape ? 'escape' : 'throw'} ${s} ${JSON.stringify(String(err?.stack ?? err).split('\n').slice(0, 4).join(' | '))}\n`);
    }
  }
}

if (require.main === module) void main();
