// The hostile corpus of issue 10: one case per row of its table (and the earlier hostile inputs),
// each a fresh git repository and HOME, run through the built CLI as a process with a time and a
// memory limit. Shared by test/cli/hostile-corpus.test.ts and scripts/hostile-measure.ts.
import { generateLongTurn } from '../../bench/transcript.js';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface CaseDir {
  root: string;
  repo: string;
  home: string;
  /** the memory folder Claude Code uses for `repo` with HOME `home` */
  memory: string;
}

export interface HostileCase {
  name: string;
  /** build the inputs; return the CLI runs to make (arguments after `node dist/cli.js`) */
  setup(d: CaseDir): string[][];
  /** every lint run must print this rule id (explain prints counts only; render prints it in its JSON) */
  expectRule?: string;
  /** expectRule is a workspace check of lint's, not an engine diagnostic render also lists */
  lintOnly?: boolean;
  /** exit codes allowed (default 0, 1; 2 for usage errors when expectUsage) */
  expectUsage?: RegExp;
  /** a text every lint and render run's output must hold */
  expectText?: RegExp;
  /** a text no run's output may hold */
  forbidText?: RegExp;
  /** needs to run as root (and is skipped otherwise) or as an unprivileged user */
  asNobody?: boolean;
  timeoutMs?: number;
}

/** C0 controls but tab and newline, DEL, C1 (U+0080–U+009F): none may reach any output */
export const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const A103 = `${'a'.repeat(103)}.ts`;

function write(p: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, data);
}

/** Claude Code's project folder name for a launch directory */
function sanitize(p: string): string {
  return p.replace(/[^a-zA-Z0-9]/g, '-');
}

export function makeCaseDir(): CaseDir {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-hostile-')));
  fs.chmodSync(root, 0o755);
  const repo = path.join(root, 'r');
  const home = path.join(root, 'h');
  fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
  fs.mkdirSync(path.join(repo, '.claude', 'rules'), { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  execFileSync('git', ['-C', repo, 'init', '-q']);
  fs.writeFileSync(path.join(repo, 'src', 'a.ts'), 'x\n');
  fs.writeFileSync(path.join(repo, 'CLAUDE.md'), 'ROOT\n');
  const memory = path.join(home, '.claude', 'projects', sanitize(repo), 'memory');
  return { root, repo, home, memory };
}

const common = (d: CaseDir) => ['--cwd', d.repo, '--home', d.home];
/** explain, lint in JSON and github formats, render with a touch: the commands the issue ran */
const usual = (d: CaseDir, file: string): string[][] => [
  ['lint', ...common(d), '--format', 'json'],
  ['lint', ...common(d), '--format', 'github'],
  ['explain', file, ...common(d)],
  ['render', ...common(d), '--touch', `Read:${file}`],
];

const rule = (d: CaseDir, name: string, paths: string) => write(path.join(d.repo, '.claude', 'rules', name), `---\npaths:\n  - "${paths}"\n---\nRULE ${name}\n`);

/** a transcript file in the case's HOME, in the launch directory's transcript folder */
function transcript(d: CaseDir, name: string): string {
  const dir = path.join(d.home, '.claude', 'projects', sanitize(fs.realpathSync(d.repo)));
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.jsonl`);
}

const prompt = (text: string) => JSON.stringify({ type: 'user', uuid: `u-${text.length}-${text.charCodeAt(0)}`, sessionId: 'S', version: '2.1.333', timestamp: '2026-12-01T10:00:00.000Z', message: { role: 'user', content: text } }) + '\n';

/** the session command on a transcript: its text form, its JSON, the newest of the folder, --check and --list */
function sessionRuns(d: CaseDir, file: string): string[][] {
  const base = ['session', '--cwd', d.repo, '--home', d.home];
  return [[...base, '--transcript', file], [...base, '--transcript', file, '--json'], [...base, '--check'], [...base, '--list']];
}

export const CASES: HostileCase[] = [
  // ------------------------------------------------------------ transcripts (issue 17: the live session)
  {
    name: 'transcript: garbage, a cut last line, NULs, unknown record types, nesting 100,000 deep',
    setup(d) {
      const f = transcript(d, 'garbage');
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      fs.writeFileSync(f, ['not json at all', '\u0000\u0001\u001b[2J', deep, '{"type":"from-a-newer-version","x":1}', prompt('a prompt \u001b]0;owned\u0007 with ESC'), '{"type":"user","uuid":"cut","message":{"role":"us'].join('\n'));
      return sessionRuns(d, f);
    },
    forbidText: /internal error/,
  },
  {
    name: 'transcript: one 100 MB line between two records',
    setup(d) {
      const f = transcript(d, 'huge');
      const fd = fs.openSync(f, 'w');
      fs.writeSync(fd, prompt('before'));
      fs.writeSync(fd, '{"type":"user","pad":"');
      const chunk = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 100; i++) fs.writeSync(fd, chunk);
      fs.writeSync(fd, '"}\n' + prompt('after'));
      fs.closeSync(fd);
      return sessionRuns(d, f);
    },
    timeoutMs: 60_000,
  },
  {
    name: 'transcript: a FIFO, a symlink loop and a folder given as --transcript (never a hang)',
    setup(d) {
      const dir = path.dirname(transcript(d, 'x'));
      const fifo = path.join(dir, 'fifo.jsonl');
      execFileSync('mkfifo', [fifo]);
      fs.symlinkSync(path.join(dir, 'b.jsonl'), path.join(dir, 'a.jsonl'));
      fs.symlinkSync(path.join(dir, 'a.jsonl'), path.join(dir, 'b.jsonl'));
      fs.mkdirSync(path.join(dir, 'folder.jsonl'));
      return [fifo, path.join(dir, 'a.jsonl'), path.join(dir, 'folder.jsonl')].map((f) => ['session', '--cwd', d.repo, '--home', d.home, '--transcript', f, '--json']);
    },
  },
  {
    name: 'transcript: control characters and bidi overrides in prompts, tool inputs and injected paths',
    setup(d) {
      const f = transcript(d, 'names');
      const evil = `${d.repo}/\u202Eevil\u001b[31m.md`;
      const lines = [
        prompt('read \u202E\u2066this\u0007'),
        JSON.stringify({ type: 'assistant', uuid: 'a1', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read\u001b[0m', input: { file_path: evil } }] } }),
        JSON.stringify({ type: 'user', uuid: 'r1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] } }),
        JSON.stringify({ type: 'attachment', uuid: 'n1', attachment: { type: 'nested_memory', path: evil, content: { path: evil, type: 'Project', content: 'text \u001b[2J' } } }),
      ];
      fs.writeFileSync(f, lines.join('\n') + '\n');
      return sessionRuns(d, f);
    },
  },
  {
    name: 'transcript: one turn of 10,000 tool calls (an autonomous run; the cost was calls × records)',
    setup(d) {
      const f = transcript(d, 'long-turn');
      generateLongTurn(f, 10_000);
      return sessionRuns(d, f);
    },
    timeoutMs: 60_000,
  },
  {
    name: 'paths: **/*a*a*a*a*a*a*a*b and a file of 103 a (exponential backtracking)',
    setup(d) {
      rule(d, 'p.md', '**/*a*a*a*a*a*a*a*b');
      write(path.join(d.repo, A103), 'x\n');
      return usual(d, path.join(d.repo, A103));
    },
    expectRule: 'glob-backtracks',
  },
  {
    name: 'paths: *a × 8,000 (past what JavaScript compiles as one expression)',
    setup(d) {
      rule(d, 'p.md', '*a'.repeat(8000));
      write(path.join(d.repo, A103), 'x\n');
      return usual(d, path.join(d.repo, A103));
    },
    expectRule: 'glob-backtracks',
    forbidText: /check-failed|internal error/,
  },
  {
    name: 'paths: a pattern over MAX_GLOB_LENGTH',
    setup(d) {
      rule(d, 'p.md', `src/${'x*'.repeat(70000)}`);
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'glob-too-long',
    forbidText: /check-failed|internal error/,
  },
  {
    name: 'paths: a YAML flow map nested 20,000 deep',
    setup(d) {
      write(path.join(d.repo, '.claude', 'rules', 'deep.md'), `---\npaths: ${'{a: '.repeat(20000)}1${'}'.repeat(20000)}\n---\nDEEP\n`);
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'frontmatter-too-deep',
  },
  {
    name: 'SKILL.md description of [ × 20,000 then ] × 20,000',
    setup(d) {
      write(path.join(d.repo, '.claude', 'skills', 'br', 'SKILL.md'), `---\nname: br\ndescription: ${'['.repeat(20000)}${']'.repeat(20000)}\n---\nBODY\n`);
      return [...usual(d, path.join(d.repo, 'src', 'a.ts')), ['lint', ...common(d), '--format', 'json', '--no-secrets']];
    },
    expectRule: 'frontmatter-too-deep',
  },
  {
    name: 'a SKILL.md over 4 MiB and a SKILL.md that is a FIFO',
    setup(d) {
      write(path.join(d.repo, '.claude', 'skills', 'big', 'SKILL.md'), Buffer.alloc(5 * 1024 * 1024, 0x61));
      fs.mkdirSync(path.join(d.repo, '.claude', 'skills', 'fifo'), { recursive: true });
      execFileSync('mkfifo', [path.join(d.repo, '.claude', 'skills', 'fifo', 'SKILL.md')]);
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'skill-unreadable',
    expectText: /4 MiB cap for a SKILL\.md|not a regular file/,
  },
  {
    name: 'a rule with 140,000 paths: entries (3.5 MB, just under the 4 MiB cap)',
    setup(d) {
      write(path.join(d.repo, '.claude', 'rules', 'many.md'), `---\npaths:\n${Array.from({ length: 140000 }, (_, i) => `  - "p${i}/**/*.x${i}"\n`).join('')}---\nMANY\n`);
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'glob-list-capped',
    timeoutMs: 60_000,
  },
  {
    name: 'project settings with 700,000 claudeMdExcludes entries (9 MB)',
    setup(d) {
      const ex = Array.from({ length: 700000 }, (_, i) => `/nowhere/${i}/**`);
      write(path.join(d.repo, '.claude', 'settings.json'), JSON.stringify({ claudeMdExcludes: ex }));
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'settings-list-capped',
  },
  {
    name: '--settings pointing at a FIFO',
    setup(d) {
      execFileSync('mkfifo', [path.join(d.root, 'fifo.json')]);
      return [['explain', path.join(d.repo, 'src', 'a.ts'), ...common(d), '--settings', path.join(d.root, 'fifo.json')]];
    },
    expectUsage: /--settings .*not a regular file/,
  },
  {
    name: '--settings pointing at /dev/zero',
    setup(d) {
      return [['lint', ...common(d), '--settings', '/dev/zero']];
    },
    expectUsage: /--settings .*not a regular file/,
  },
  {
    name: '--settings pointing at a file over 16 MiB',
    setup(d) {
      write(path.join(d.root, 'big.json'), Buffer.alloc(17 * 1024 * 1024, 0x20));
      return [['lint', ...common(d), '--settings', path.join(d.root, 'big.json')]];
    },
    expectUsage: /--settings .*over 16 MiB/,
  },
  {
    name: 'file and skill names holding ESC, BEL and U+009B; --model with escapes',
    setup(d) {
      const evil = 'ev\u001b]0;pwned\u0007il\u009b31m\u007f';
      write(path.join(d.repo, '.claude', 'rules', `${evil}.md`), '---\npaths: "nothing/**"\n---\nEVIL RULE\n');
      write(path.join(d.repo, '.claude', 'skills', evil, 'SKILL.md'), `---\nname: ${evil}\ndescription: d\u001b[2J\u009b2J\n---\nB\n`);
      write(path.join(d.repo, 'src', `${evil}.ts`), 'x\n');
      const file = path.join(d.repo, 'src', `${evil}.ts`);
      return [
        ...usual(d, file),
        ['lint', ...common(d)],
        ['lint', ...common(d), '--format', 'sarif'],
        ['explain', file, ...common(d), '--model', `x\u001b[31m\u009b2J\u0007`],
        ['explain', file, ...common(d), '--json'],
      ];
    },
  },
  {
    name: 'MEMORY.md that is a folder',
    setup(d) {
      fs.mkdirSync(path.join(d.memory, 'MEMORY.md'), { recursive: true });
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'memory-unreadable',
  },
  {
    name: 'MEMORY.md that is a FIFO',
    setup(d) {
      fs.mkdirSync(d.memory, { recursive: true });
      execFileSync('mkfifo', [path.join(d.memory, 'MEMORY.md')]);
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'memory-unreadable',
  },
  {
    name: 'MEMORY.md over 4 MiB',
    setup(d) {
      write(path.join(d.memory, 'MEMORY.md'), Buffer.alloc(5 * 1024 * 1024, 0x61));
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'memory-unreadable',
  },
  {
    name: 'MEMORY.md unreadable (chmod 000, as an unprivileged user)',
    setup(d) {
      write(path.join(d.memory, 'MEMORY.md'), '- [x](x.md) entry\n');
      fs.chmodSync(path.join(d.memory, 'MEMORY.md'), 0o000);
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'memory-unreadable',
    asNobody: true,
  },
  {
    name: 'claudeMdExcludes: 5',
    setup(d) {
      write(path.join(d.repo, '.claude', 'settings.json'), '{"claudeMdExcludes": 5}');
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'settings-invalid',
  },
  {
    name: 'claudeMdExcludes: a string',
    setup(d) {
      write(path.join(d.repo, '.claude', 'settings.json'), '{"claudeMdExcludes": "/x/**"}');
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'settings-invalid',
  },
  {
    name: 'autoMemoryDirectory: {}',
    setup(d) {
      write(path.join(d.repo, '.claude', 'settings.local.json'), '{"autoMemoryDirectory": {}}');
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
    expectRule: 'memory-dir-rejected',
    forbidText: /\[object Object\]/,
  },
  {
    name: 'an unreadable folder on the way to FILE (as an unprivileged user)',
    setup(d) {
      write(path.join(d.repo, 'src', 'sub', 'f.ts'), 'x\n');
      fs.chmodSync(path.join(d.repo, 'src', 'sub'), 0o000);
      return [['explain', path.join(d.repo, 'src', 'sub', 'f.ts'), ...common(d)]];
    },
    expectUsage: /FILE .* cannot be reached: .*src\/sub cannot be read \(permission denied\)/,
    forbidText: /does not exist/,
    asNobody: true,
  },
  {
    name: 'render with a missing --home',
    setup(d) {
      return [['render', '--cwd', d.repo, '--home', path.join(d.root, 'no-such-home')]];
    },
    expectUsage: /--home .*does not exist/,
  },
  {
    name: 'lint --cwd /',
    setup(d) {
      return [['lint', '--cwd', '/', '--home', d.home, '--format', 'json']];
    },
    expectRule: 'scan-truncated',
    timeoutMs: 60_000,
  },
  // the earlier hostile inputs (test/cli/hostile.test.ts has them in one tree)
  {
    name: 'CLAUDE.md a FIFO, /dev/zero links, a symlink loop, include cycles, a 50 MB file, binary',
    setup(d) {
      execFileSync('mkfifo', [path.join(d.repo, 'src', 'CLAUDE.md')]);
      fs.symlinkSync('/dev/zero', path.join(d.repo, 'CLAUDE.local.md'));
      fs.symlinkSync('loop', path.join(d.repo, '.claude', 'rules', 'loop'));
      write(path.join(d.repo, 'CLAUDE.md'), 'ROOT @a.md @big.md @bin.md\n');
      write(path.join(d.repo, 'a.md'), '@b.md A\n');
      write(path.join(d.repo, 'b.md'), '@a.md B\n');
      write(path.join(d.repo, 'big.md'), Buffer.alloc(50 * 1024 * 1024, 0x61));
      write(path.join(d.repo, 'bin.md'), Buffer.from([0, 1, 0x1b, 0x5b, 0x32, 0x4a, 0x9b, 0xff]));
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
  },
  {
    name: 'billion-laughs YAML in a rule',
    setup(d) {
      write(path.join(d.repo, '.claude', 'rules', 'lol.md'), '---\na: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\npaths: *e\n---\nLOL\n');
      return usual(d, path.join(d.repo, 'src', 'a.ts'));
    },
  },
];

export interface CaseRun {
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** peak resident memory of the process in KiB (from /usr/bin/time when present) */
  maxRssKiB?: number;
}

const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/**
 * Run the CLI with `args` under a memory limit (address space, prlimit) and a time limit (SIGKILL).
 * `asUser` runs it through setpriv as that uid/gid.
 */
export function runLimited(cli: string, args: string[], opts: { timeoutMs: number; memoryMiB: number; asUser?: number; cwd?: string }): CaseRun {
  const node = process.execPath;
  let cmd: string[] = [node, '--max-old-space-size=' + Math.floor(opts.memoryMiB / 2), cli, ...args];
  if (fs.existsSync('/usr/bin/prlimit')) cmd = ['/usr/bin/prlimit', `--as=${opts.memoryMiB * 1024 * 1024}`, '--', ...cmd];
  if (opts.asUser !== undefined) cmd = ['setpriv', `--reuid=${opts.asUser}`, `--regid=${opts.asUser}`, '--clear-groups', ...cmd];
  const rssFile = TIME ? path.join(os.tmpdir(), `ccl-rss-${process.pid}-${Math.random().toString(36).slice(2)}`) : undefined;
  if (TIME && rssFile) cmd = [TIME, '-f', '%M', '-o', rssFile, ...cmd];
  const t = performance.now();
  const r = spawnSync(cmd[0]!, cmd.slice(1), {
    encoding: 'utf8', timeout: opts.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 * 1024, cwd: opts.cwd ?? os.tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
  });
  const ms = performance.now() - t;
  let maxRssKiB: number | undefined;
  if (rssFile && fs.existsSync(rssFile)) {
    const m = /(\d+)\s*$/.exec(fs.readFileSync(rssFile, 'utf8'));
    if (m) maxRssKiB = Number(m[1]);
    fs.rmSync(rssFile, { force: true });
  }
  return { args, code: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms, maxRssKiB };
}

/** remove a case folder, making locked parts removable first */
export function removeCaseDir(d: CaseDir): void {
  const unlock = (p: string) => {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      try {
        fs.chmodSync(p, 0o755);
      } catch {
        /* not ours */
      }
      for (const e of fs.readdirSync(p)) unlock(path.join(p, e));
    } else if (st.isFile()) {
      try {
        fs.chmodSync(p, 0o644);
      } catch {
        /* not ours */
      }
    }
  };
  unlock(d.root);
  fs.rmSync(d.root, { recursive: true, force: true });
}
