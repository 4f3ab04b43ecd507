// Deterministic generator of synthetic monorepos for the benchmark (issue 7).
//
// One tree is a folder `bench/tmp/trees/<name>/` holding
//   repo/     the workspace and launch directory: packages/, apps/, docs/, a heavy node_modules/,
//             ignored build output, a .gitignore (plus nested ones), a .git folder, CLAUDE.md files
//             and .claude/rules (with and without `paths:`) spread over a share of its folders,
//             @includes between them;
//   home/     HOME: ~/.claude/CLAUDE.md (with an include), rules, skills, settings, ~/.claude.json
//             and the auto-memory folder with MEMORY.md and topic files;
//   managed/  an empty stand-in for /etc/claude-code, so the machine's own policy never leaks in.
// Everything is a pure function of the parameters (seeded PRNG): the same parameters give the same
// bytes. A stamp file lets a later run reuse a tree that is already on disk.
//
// Usage: node --import tsx bench/generate.ts [--files N] [--seed S] [--depth D] [--out DIR]
import * as fs from 'node:fs';
import * as path from 'node:path';

export const GENERATOR_VERSION = 3;

export interface GenParams {
  seed: number;
  /** files under repo/ (workspace files, node_modules and ignored output together; .git/HEAD aside) */
  files: number;
  /** deepest folder level below repo/ for package sources */
  depth: number;
  /** share of source folders holding a CLAUDE.md */
  claudeMdShare: number;
  /** share of source folders holding .claude/rules */
  rulesShare: number;
  /** share of rule files with `paths:` */
  conditionalShare: number;
  /** share of CLAUDE.md / rule files with @includes */
  includeShare: number;
  /** share of the files in node_modules/ */
  nodeModulesShare: number;
  /** share of the files in ignored build output (dist/, coverage/, *.log) */
  ignoredOutputShare: number;
  packages: number;
  apps: number;
  userRules: number;
  skills: number;
  memoryTopics: number;
}

export function defaultParams(files: number, seed = 7): GenParams {
  return {
    seed,
    files,
    depth: 9,
    claudeMdShare: 0.04,
    rulesShare: 0.015,
    conditionalShare: 0.65,
    includeShare: 0.3,
    nodeModulesShare: 0.3,
    ignoredOutputShare: 0.05,
    packages: Math.max(8, Math.round(files / 1500)),
    apps: Math.max(2, Math.round(files / 10000)),
    userRules: 6,
    skills: 24,
    memoryTopics: 12,
  };
}

export interface GeneratedTree {
  name: string;
  root: string;
  repo: string;
  home: string;
  managed: string;
  params: GenParams;
  /** counts of what was written */
  stats: {
    files: number;
    dirs: number;
    claudeMd: number;
    ruleFiles: number;
    conditionalRules: number;
    includes: number;
    nodeModulesFiles: number;
    ignoredFiles: number;
    skills: number;
  };
  /** a deep folder of the workspace without CLAUDE.md, for the "add one CLAUDE.md" update */
  deepDir: string;
  /** one project rule file with `paths:` (for the "rule changed" update) */
  sampleRule: string;
  memoryFile: string;
}

// ---- PRNG -------------------------------------------------------------------------------------

/** mulberry32: small, fast, good enough for a benchmark and stable across Node versions */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rand {
  constructor(readonly next: () => number) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  weighted<T>(xs: readonly (readonly [T, number])[]): T {
    const total = xs.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [x, w] of xs) {
      r -= w;
      if (r < 0) return x;
    }
    return xs[xs.length - 1]![0];
  }
}

// ---- vocabulary -------------------------------------------------------------------------------

const DIR_WORDS = [
  'components', 'utils', 'lib', 'core', 'api', 'models', 'services', 'hooks', 'internal', 'handlers',
  'routes', 'views', 'store', 'config', 'types', 'helpers', 'adapters', 'db', 'schema', 'jobs',
  'workers', 'auth', 'billing', 'search', 'ui', 'forms', 'layout', 'icons', 'i18n', 'fixtures',
  '__tests__', 'test', 'e2e', 'mocks', 'v2', 'legacy', 'Generated', 'proto', 'client', 'server',
];
const FILE_WORDS = [
  'index', 'main', 'app', 'user', 'account', 'order', 'cart', 'item', 'list', 'table', 'button',
  'modal', 'parser', 'lexer', 'reader', 'writer', 'cache', 'queue', 'event', 'logger', 'router',
  'session', 'token', 'theme', 'format', 'date', 'math', 'string', 'http', 'socket', 'stream',
];
const EXTENSIONS: readonly (readonly [string, number])[] = [
  ['.ts', 34], ['.tsx', 10], ['.test.ts', 9], ['.spec.ts', 3], ['.js', 8], ['.json', 5], ['.md', 4],
  ['.css', 4], ['.scss', 2], ['.py', 3], ['.go', 2], ['.rs', 1], ['.sql', 1], ['.yaml', 2], ['.txt', 1],
  ['.svg', 3], ['.png', 2], ['.d.ts', 2], ['.MD', 0.3], ['.TS', 0.3],
];
const DOTFILES = ['.eslintrc.json', '.prettierrc', '.env.example', '.nvmrc', '.hidden.ts'];

/** patterns for rules, relative to the folder holding .claude; `{pkg}` is replaced */
const ROOT_PATTERNS: readonly string[][] = [
  ['src/**/*.ts'],
  ['packages/{pkg}/**'],
  ['*.md'],
  ['{apps,packages}/*/src/**/*.{ts,tsx}'],
  ['**/*.test.ts', '!**/fixtures/**'],
  ['**/*.ts, !**/*.test.ts'],
  ['docs/'],
  ['packages/*/package.json'],
  ['**/__tests__/**'],
  ['*.{json,yaml}'],
  ['apps/**/*.tsx'],
  ['packages/{pkg}/src/?ndex.ts', 'packages/{pkg}/src/[ab]*.ts'],
  ['/tools/*.py'],
  ['API/'],
  ['**/*.css', '**/*.scss'],
  ['packages/{pkg}/**', '!packages/{pkg}/src/**'],
  ['.*'],
  ['README.md'],
  ['**/Generated/**/*.TS'],
  ['node_modules/**'],
];
const NESTED_PATTERNS: readonly string[][] = [
  ['src/**/*.ts'],
  ['**/*.tsx'],
  ['*.md'],
  ['api/**', '!api/legacy/**'],
  ['**/*.{test,spec}.ts'],
  ['lib/*.ts'],
  ['components/'],
  ['src/?*.ts'],
  ['[uv]*/**/*.ts'],
  ['**/*.go, **/*.rs'],
  ['*'],
  ['test/**'],
];
const USER_PATTERNS: readonly string[][] = [['**/*.py'], ['**/*.ts', '**/*.tsx'], ['*.md'], ['**/migrations/**/*.sql']];

function lorem(r: Rand, lines: number, tag: string): string {
  const words = ['use', 'prefer', 'never', 'always', 'the', 'module', 'tests', 'types', 'strict', 'errors', 'logging', 'imports', 'async', 'naming', 'files'];
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const n = r.int(5, 14);
    const ws: string[] = [];
    for (let j = 0; j < n; j++) ws.push(r.pick(words));
    out.push(`- ${ws.join(' ')} (${tag}-${i})`);
  }
  return out.join('\n');
}

// ---- writer -----------------------------------------------------------------------------------

class Writer {
  files = 0;
  dirs = 0;
  /** in a dry run: every file path, with its text */
  readonly written: { path: string; text: string }[] = [];
  private readonly made = new Set<string>();
  constructor(readonly dryRun = false) {}

  dir(d: string): void {
    if (this.made.has(d)) return;
    this.made.add(d);
    this.dirs++;
    if (!this.dryRun) fs.mkdirSync(d, { recursive: true });
  }
  file(p: string, text: string): void {
    this.dir(path.dirname(p));
    this.files++;
    if (!this.dryRun) fs.writeFileSync(p, text);
    else this.written.push({ path: p, text });
  }
}

/** the key of the auto-memory folder for a project root (memory spec A1, short paths) */
export function memoryKeyFor(root: string): string {
  const s = root.replace(/[^a-zA-Z0-9]/g, '-');
  if (s.length <= 200) return s;
  let h = 0;
  for (let i = 0; i < root.length; i++) h = ((h << 5) - h + root.charCodeAt(i)) | 0;
  return `${s.slice(0, 200)}-${Math.abs(h).toString(36)}`;
}

function treeName(p: GenParams): string {
  return `f${p.files}-s${p.seed}`;
}

export function treeDir(outDir: string, p: GenParams): string {
  return path.join(outDir, treeName(p));
}

/** Generate (or reuse) the tree for `p` under `outDir`. */
export function generate(p: GenParams, outDir: string, opts: { force?: boolean; log?: (s: string) => void } = {}): GeneratedTree {
  const root = treeDir(outDir, p);
  const stampPath = path.join(root, '.gen.json');
  const want = JSON.stringify({ version: GENERATOR_VERSION, params: p });
  if (!opts.force && fs.existsSync(stampPath)) {
    try {
      const stamp = JSON.parse(fs.readFileSync(stampPath, 'utf8')) as { key: string; tree: GeneratedTree };
      if (stamp.key === want) return stamp.tree;
    } catch {
      /* regenerate */
    }
  }
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const t0 = Date.now();
  const tree = build(p, root, false);
  fs.writeFileSync(stampPath, JSON.stringify({ key: want, tree }, null, 1));
  opts.log?.(`generated ${tree.name}: ${tree.stats.files} files in ${tree.stats.dirs} folders (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return tree;
}

/**
 * The files the generator would write for `p`, without touching the disk: paths relative to the
 * tree folder (`repo/...`, `home/...`) with their text. Same bytes as `generate`.
 */
export function generateInMemory(p: GenParams): { path: string; text: string }[] {
  const w = new Writer(true);
  build(p, '/virtual', w);
  return w.written.map((f) => ({ path: path.relative('/virtual', f.path).split(path.sep).join('/'), text: f.text }));
}

function build(p: GenParams, root: string, dryRunOrWriter: boolean | Writer): GeneratedTree {
  const r = new Rand(prng(p.seed));
  const w = typeof dryRunOrWriter === 'boolean' ? new Writer(dryRunOrWriter) : dryRunOrWriter;
  const dryRun = w.dryRun;
  const repo = path.join(root, 'repo');
  const home = path.join(root, 'home');
  const managed = path.join(root, 'managed');
  w.dir(repo);
  w.dir(managed);
  const stats = { files: 0, dirs: 0, claudeMd: 0, ruleFiles: 0, conditionalRules: 0, includes: 0, nodeModulesFiles: 0, ignoredFiles: 0, skills: 0 };
  const pkgNames = Array.from({ length: p.packages }, (_, i) => `pkg-${String(i).padStart(3, '0')}`);
  const appNames = Array.from({ length: p.apps }, (_, i) => `app-${String(i).padStart(2, '0')}`);

  // budget: every file under repo/ is counted against p.files
  let repoFiles = 0;
  const repoFile = (rel: string, text: string) => {
    w.file(path.join(repo, rel), text);
    repoFiles++;
  };
  let ruleFiles: string[] = [];
  let deepDir = '';
  let deepDepth = -1;

  // --- instruction files at a folder ---
  const instructionFiles = (relDir: string, isRoot: boolean, level: number) => {
    const abs = (x: string) => (relDir ? `${relDir}/${x}` : x);
    const wantClaude = isRoot || r.chance(p.claudeMdShare);
    if (wantClaude) {
      const inc = r.chance(p.includeShare);
      let body = `# ${relDir || 'repo'}\n\n${lorem(r, r.int(3, 25), relDir || 'root')}\n`;
      if (r.chance(0.2)) body = `<!-- maintainers: keep this short -->\n${body}`;
      if (inc) {
        const incName = `CONVENTIONS-${r.int(0, 9)}.md`;
        body += `\nSee @./docs-${incName} for the details.\n`;
        repoFile(abs(`docs-${incName}`), `# conventions\n${lorem(r, r.int(2, 10), 'inc')}\n${r.chance(0.3) ? '\nAlso @./docs-more.md\n' : ''}`);
        if (r.chance(0.3)) repoFile(abs('docs-more.md'), `more\n${lorem(r, 3, 'more')}\n`);
        stats.includes++;
      }
      if (r.chance(0.05)) body += '\n@./missing-file.md\n';
      const where = !isRoot && r.chance(0.12) ? '.claude/CLAUDE.md' : 'CLAUDE.md';
      repoFile(abs(where), body);
      stats.claudeMd++;
      if (r.chance(0.04)) repoFile(abs('CLAUDE.local.md'), `local notes\n${lorem(r, 3, 'local')}\n`);
    }
    const wantRules = isRoot || r.chance(p.rulesShare);
    if (wantRules) {
      const n = isRoot ? ROOT_PATTERNS.length : r.int(1, 4);
      for (let i = 0; i < n; i++) {
        const conditional = isRoot ? i < ROOT_PATTERNS.length - 3 || r.chance(p.conditionalShare) : r.chance(p.conditionalShare);
        const sub = r.chance(0.2) ? `${r.pick(['frontend', 'backend', 'style'])}/` : '';
        const name = `.claude/rules/${sub}rule-${i}.md`;
        let fm = '';
        if (conditional) {
          const pats = (isRoot ? ROOT_PATTERNS[i % ROOT_PATTERNS.length]! : r.pick(NESTED_PATTERNS)).map((x) => x.replaceAll('{pkg}', r.pick(pkgNames)));
          const style = r.int(0, 2);
          fm =
            style === 0 && pats.length === 1
              ? `---\npaths: "${pats[0]}"\n---\n`
              : style === 1
                ? `---\npaths:\n${pats.map((x) => `  - "${x}"`).join('\n')}\n---\n`
                : `---\npaths: [${pats.map((x) => JSON.stringify(x)).join(', ')}]\n---\n`;
          stats.conditionalRules++;
        } else if (r.chance(0.2)) fm = `---\ndescription: general rule\n---\n`;
        let body = `${fm}# rule ${i}\n${lorem(r, r.int(2, 12), `rule${i}`)}\n`;
        if (r.chance(p.includeShare / 2)) {
          body += `\n@../../docs-rule-${i}.md\n`;
          repoFile(abs(`docs-rule-${i}.md`), `rule include\n${lorem(r, 4, 'ri')}\n`);
          stats.includes++;
        }
        repoFile(abs(name), body);
        ruleFiles.push(path.join(repo, abs(name)));
        stats.ruleFiles++;
      }
    }
    if (!wantClaude && level > deepDepth) {
      deepDepth = level;
      deepDir = path.join(repo, relDir);
    }
  };

  // --- a source tree of about `budget` files at relDir ---
  const sourceTree = (relDir: string, budget: number, level: number): number => {
    let used = 0;
    if (budget <= 0) return 0;
    const before = repoFiles;
    instructionFiles(relDir, false, level);
    used += repoFiles - before;
    const here = Math.min(budget - used, r.int(3, 12));
    const seen = new Set<string>();
    for (let i = 0; i < here; i++) {
      let name: string;
      if (r.chance(0.03)) name = r.pick(DOTFILES);
      else name = `${r.pick(FILE_WORDS)}${r.chance(0.5) ? r.int(0, 99) : ''}${r.weighted(EXTENSIONS)}`;
      if (seen.has(name)) continue;
      seen.add(name);
      repoFile(`${relDir}/${name}`, `// ${relDir}/${name}\nexport const v${i} = ${i};\n`);
      used++;
    }
    let left = budget - used;
    if (left <= 0 || level >= p.depth) {
      // fill the rest here (flat folder) so the budget is exact
      for (let i = 0; left > 0; i++, left--, used++) repoFile(`${relDir}/extra-${i}.ts`, `export const e${i} = ${i};\n`);
      return used;
    }
    const subs = Math.min(left, r.int(1, level < 3 ? 5 : 3));
    const names = new Set<string>();
    while (names.size < subs) names.add(`${r.pick(DIR_WORDS)}${r.chance(0.25) ? `-${r.int(1, 9)}` : ''}`);
    const weights = [...names].map(() => 0.2 + r.next());
    const total = weights.reduce((a, b) => a + b, 0);
    let i = 0;
    for (const n of names) {
      const share = i === names.size - 1 ? left : Math.floor((left * weights[i]!) / total);
      const got = sourceTree(`${relDir}/${n}`, share, level + 1);
      left -= got;
      used += got;
      i++;
    }
    for (let k = 0; left > 0; k++, left--, used++) repoFile(`${relDir}/rest-${k}.ts`, `export const r${k} = ${k};\n`);
    return used;
  };

  // --- repo root ---
  w.file(path.join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  repoFile('.gitignore', ['# build output', 'node_modules/', 'dist/', 'coverage/', '*.log', '!keep.log', '.cache/', '/tmp/', ''].join('\n'));
  repoFile('package.json', JSON.stringify({ name: 'synthetic-monorepo', private: true, workspaces: ['packages/*', 'apps/*'] }, null, 2));
  repoFile('README.md', '# synthetic monorepo\n');
  repoFile('keep.log', 'kept by negation\n');
  instructionFiles('', true, 0);
  for (let i = 0; i < 6; i++) repoFile(`docs/guide-${i}.md`, `# guide ${i}\n${lorem(r, 5, 'doc')}\n`);
  repoFile('docs/architecture/overview.md', '# overview\n');
  for (let i = 0; i < 4; i++) repoFile(`tools/script-${i}.py`, `print(${i})\n`);
  repoFile('.github/workflows/ci.yml', 'on: push\n');
  repoFile('API/README.md', 'upper-case API folder\n');

  const nmBudget = Math.round(p.files * p.nodeModulesShare);
  const ignoredBudget = Math.round(p.files * p.ignoredOutputShare);
  const sourceBudget = p.files - nmBudget - ignoredBudget - repoFiles;
  const units = [...pkgNames.map((n) => `packages/${n}`), ...appNames.map((n) => `apps/${n}`)];
  const unitWeights = units.map(() => 0.3 + r.next());
  const unitTotal = unitWeights.reduce((a, b) => a + b, 0);
  let srcLeft = sourceBudget;
  units.forEach((u, i) => {
    const share = i === units.length - 1 ? srcLeft : Math.floor((sourceBudget * unitWeights[i]!) / unitTotal);
    const start = repoFiles;
    repoFile(`${u}/package.json`, JSON.stringify({ name: `@mono/${path.basename(u)}`, version: '1.0.0' }));
    if (r.chance(0.3)) repoFile(`${u}/.gitignore`, 'build/\n*.tmp\n');
    if (r.chance(0.5)) instructionFiles(u, false, 2);
    const inner = share - (repoFiles - start);
    const got = sourceTree(`${u}/src`, inner, 3);
    srcLeft -= got + (repoFiles - start - got);
  });

  // --- ignored build output ---
  let ign = 0;
  const ignoredStart = repoFiles;
  for (let i = 0; ign < ignoredBudget; i++) {
    const u = units[i % units.length]!;
    const kind = i % 3 === 0 ? 'dist' : i % 3 === 1 ? 'coverage' : 'build';
    for (let k = 0; k < 20 && ign < ignoredBudget; k++, ign++) repoFile(`${u}/${kind}/chunk-${i}-${k}.js`, 'x\n');
  }
  stats.ignoredFiles = repoFiles - ignoredStart;

  // --- node_modules: the rest, exactly ---
  const nmStart = repoFiles;
  let pi = 0;
  while (repoFiles < p.files) {
    const name = pi % 7 === 0 ? `@scope-${pi % 5}/lib-${pi}` : `dep-${pi}`;
    const base = `node_modules/${name}`;
    const want = Math.min(p.files - repoFiles, r.int(5, 60));
    const start = repoFiles;
    repoFile(`${base}/package.json`, JSON.stringify({ name, version: '1.0.0' }));
    if (pi % 41 === 5 && repoFiles < p.files) repoFile(`${base}/CLAUDE.md`, `# shipped by ${name}\n`);
    let d = 0;
    while (repoFiles - start < want) {
      const sub = d === 0 ? '' : `${r.pick(['lib', 'dist', 'esm', 'cjs', 'src', 'types'])}/`;
      for (let k = 0; k < 10 && repoFiles - start < want; k++) repoFile(`${base}/${sub}f${d}-${k}.js`, 'module.exports = 1;\n');
      d++;
    }
    pi++;
  }
  stats.nodeModulesFiles = repoFiles - nmStart;

  // --- HOME ---
  const ud = path.join(home, '.claude');
  w.file(path.join(ud, 'CLAUDE.md'), `# me\n${lorem(r, 12, 'user')}\n\n@~/.claude/personal.md\n`);
  w.file(path.join(ud, 'personal.md'), `personal\n${lorem(r, 4, 'personal')}\n`);
  for (let i = 0; i < p.userRules; i++) {
    const cond = i < USER_PATTERNS.length;
    const fm = cond ? `---\npaths:\n${USER_PATTERNS[i]!.map((x) => `  - "${x}"`).join('\n')}\n---\n` : '';
    w.file(path.join(ud, 'rules', `user-${i}.md`), `${fm}user rule ${i}\n${lorem(r, 4, 'ur')}\n`);
  }
  for (let i = 0; i < p.skills; i++) {
    const name = `skill-${String(i).padStart(2, '0')}`;
    w.file(path.join(ud, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${lorem(r, 1, name).slice(2)}\n---\n\n# ${name}\n${lorem(r, 8, name)}\n`);
    if (i % 4 === 0) w.file(path.join(ud, 'skills', name, 'reference.md'), 'reference\n');
    stats.skills++;
  }
  w.file(path.join(ud, 'settings.json'), JSON.stringify({ autoMemoryEnabled: true }, null, 2));
  w.file(path.join(home, '.claude.json'), JSON.stringify({ projects: { [repo]: { hasClaudeMdExternalIncludesApproved: false } } }, null, 2));
  const memDir = path.join(ud, 'projects', memoryKeyFor(repo), 'memory');
  const topics: string[] = [];
  for (let i = 0; i < p.memoryTopics; i++) {
    const f = `topic-${i}.md`;
    w.file(path.join(memDir, f), `---\nname: topic ${i}\ndescription: notes\ntype: project\n---\n${lorem(r, 6, 'mem')}\n`);
    topics.push(`- [topic ${i}](${f}) — ${lorem(r, 1, 't').slice(2)}`);
  }
  const memoryFile = path.join(memDir, 'MEMORY.md');
  w.file(memoryFile, `${topics.join('\n')}\n${lorem(r, 150, 'idx')}\n`);

  stats.files = w.files;
  stats.dirs = w.dirs;
  ruleFiles = ruleFiles.sort();
  const sampleRule =
    ruleFiles.find((f) => f.includes(`${path.sep}packages${path.sep}`) && !dryRun && fs.readFileSync(f, 'utf8').startsWith('---\npaths')) ??
    ruleFiles.find((f) => !dryRun && fs.readFileSync(f, 'utf8').startsWith('---\npaths')) ??
    ruleFiles[0]!;
  return { name: path.basename(root), root, repo, home, managed, params: p, stats, deepDir, sampleRule, memoryFile };
}

// ---- CLI --------------------------------------------------------------------------------------

if (require.main === module) {
  const args = process.argv.slice(2);
  const get = (k: string) => {
    const i = args.indexOf(k);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const files = Number(get('--files') ?? 20000);
  const params = defaultParams(files, Number(get('--seed') ?? 7));
  if (get('--depth')) params.depth = Number(get('--depth'));
  const out = path.resolve(get('--out') ?? path.join(__dirname, 'tmp', 'trees'));
  const t = generate(params, out, { force: args.includes('--force'), log: (s) => console.log(s) });
  console.log(JSON.stringify(t, null, 2));
}
