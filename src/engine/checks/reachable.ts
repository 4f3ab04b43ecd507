// Every instruction text that can reach the request in a session launched here: the startup
// entries, and what one Claude Code session injects when it reads, in turn, a file in each folder
// that has nested instructions and a file matched by each conditional rule. The touches go through
// the engine's own lazy session, so excludes, setting sources, once-per-session and include rules
// apply exactly; the touches also let the engine report problems of nested files (their includes).
import * as path from 'node:path';
import type { Analysis } from '../analysis.js';
import type { LazySession } from '../instructions/lazy.js';
import { isStrictlyInside } from '../environment.js';
import type { Inventory } from './inventory.js';
import type { WorkspaceIndex } from '../files/workspace-index.js';
import { byCodeUnit } from '../files/file-access.js';

export interface ReachableText {
  path: string;
  content: string;
  how: string;
  /** for what a touch injected: the entry as injected (framing included) */
  text?: string;
}

const MAX_TOUCHES = 5000;
const INSTRUCTION_NAME = /^(CLAUDE\.md|CLAUDE\.local\.md|AGENTS\.md)$/;

export function reachableTexts(a: Analysis, index: WorkspaceIndex, inv: Inventory, ruleTargets: Iterable<string>, session: LazySession = a.session()): ReachableText[] {
  const out: ReachableText[] = [];
  for (const e of a.startup) out.push({ path: e.path, content: e.content, how: 'startup' });

  const cwd = a.env.cwd;
  // folders strictly below the launch directory that hold nested instructions
  const instructionDirs = new Set<string>();
  for (const c of inv.candidates) {
    if (c.type !== 'Project' && c.type !== 'Local') continue;
    if (c.kind === 'skill') continue;
    const owner = c.kind === 'rule' ? c.base! : c.kind === 'dot-claude-md' ? path.dirname(path.dirname(c.path)) : path.dirname(c.path);
    if (isStrictlyInside(owner, cwd)) instructionDirs.add(owner);
  }
  // a real, non-instruction file below each such folder (else a name that does not exist: a Read of
  // a missing path triggers the same loading)
  const firstIn = new Map<string, string>();
  for (const dir of instructionDirs) {
    const node = index.node(dir);
    const f = node?.files.find((name) => !INSTRUCTION_NAME.test(name));
    if (f !== undefined) firstIn.set(dir, path.join(dir, f));
  }
  // a touch below a folder brings that folder's nested files in too (the chain from the launch
  // directory down): a folder is touched on its own only when no other touch lies in it or below it
  const rules = [...ruleTargets];
  const covered = new Set<string>();
  // the index's paths are normal: strictly below the launch directory is a prefix test
  const below = cwd.endsWith(path.sep) ? cwd : cwd + path.sep;
  const cover = (dir: string) => {
    for (let d = dir; d.startsWith(below) && d.length > below.length && !covered.has(d); d = path.dirname(d)) covered.add(d);
  };
  for (const t of rules) cover(path.dirname(t));
  // (any fixed order: by code unit, as localeCompare would set up ICU's collation for it)
  const dirs = [...instructionDirs].sort((x, y) => y.split(path.sep).length - x.split(path.sep).length || byCodeUnit(x, y));
  const own: string[] = [];
  for (const d of dirs) {
    if (covered.has(d)) continue;
    own.push(d);
    cover(d);
  }
  const targets: string[] = [];
  for (const d of own.sort((x, y) => x.split(path.sep).length - y.split(path.sep).length || byCodeUnit(x, y))) {
    targets.push(firstIn.get(d) ?? path.join(d, '.claude-layers-probe'));
  }
  for (const t of rules) targets.push(t);

  const seen = new Set<string>();
  for (const t of targets.slice(0, MAX_TOUCHES)) {
    if (seen.has(t)) continue;
    seen.add(t);
    let injected;
    try {
      injected = session.touch('Read', t);
    } catch {
      continue;
    }
    const rel = path.relative(cwd, t) || t;
    for (const i of injected) out.push({ path: i.path, content: i.content, text: i.text, how: `injected after a Read of ${path.basename(t) === '.claude-layers-probe' ? `a file in ${path.dirname(rel)}/` : rel}` });
  }
  return out;
}
