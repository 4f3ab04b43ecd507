// Turning the shared CLI flags into engine options (hermetic when --home is given).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeFileAccess, type EngineOptions, type SettingSource, type TouchTool } from '../engine/index.js';
import { many, one, has, UsageError, type FlagSpec, type ParsedArgs } from './args.js';

export const ENGINE_FLAGS: Record<string, FlagSpec> = {
  cwd: { value: true },
  home: { value: true },
  'claude-version': { value: true },
  model: { value: true },
  'add-dir': { value: true, repeat: true },
  'setting-sources': { value: true },
  env: { value: true, repeat: true },
  'managed-dir': { value: true },
  bare: {},
  settings: { value: true },
  'plugin-dir': { value: true, repeat: true },
};

function mustBeDir(p: string, what: string): string {
  const abs = path.resolve(p);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    throw new UsageError(`${what} ${p} does not exist`);
  }
  if (!st.isDirectory()) throw new UsageError(`${what} ${p} is not a folder`);
  return abs;
}

/** the most a file named by a flag is read (--settings, as for every settings file; --session) */
const MAX_FLAG_FILE_BYTES = 16 * 1024 * 1024;

/**
 * A file named by a flag, read as the engine reads every file: opened non-blocking, a regular file
 * only (a FIFO hung, /dev/zero took 16 GB before std::bad_alloc), at most 16 MiB.
 */
export function readFlagFile(flag: string, p: string): string {
  const r = nodeFileAccess.readFile(path.resolve(p), MAX_FLAG_FILE_BYTES);
  if (r.ok) return Buffer.from(r.value).toString('utf8');
  if (r.code === 'ENOTREG' || r.code === 'EISDIR') throw new UsageError(`${flag} ${p} is not a regular file${r.code === 'EISDIR' ? ' (a folder)' : ' (a FIFO, device or socket)'}`);
  if (r.code === 'EFBIG') throw new UsageError(`${flag} ${p} is over 16 MiB (${r.message})`);
  if (r.code === 'ENOENT') throw new UsageError(`${flag} ${p} does not exist`);
  throw new UsageError(`${flag} ${p} cannot be read (${r.code})`);
}

export function engineOptions(p: ParsedArgs): EngineOptions {
  const cwd = mustBeDir(one(p, 'cwd') ?? process.cwd(), '--cwd');
  const homeFlag = one(p, 'home');
  const home = homeFlag === undefined ? undefined : path.resolve(homeFlag);
  const env: Record<string, string | undefined> = home === undefined ? { ...process.env } : { HOME: home };
  for (const kv of many(p, 'env')) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new UsageError(`--env needs NAME=VALUE, got "${kv}"`);
    env[kv.slice(0, i)] = kv.slice(i + 1);
  }
  let settingSources: SettingSource[] | undefined;
  const ss = one(p, 'setting-sources');
  if (ss !== undefined) {
    settingSources = [];
    for (const s of ss.split(',').map((x) => x.trim()).filter(Boolean)) {
      if (s !== 'user' && s !== 'project' && s !== 'local') throw new UsageError(`--setting-sources takes user, project and local, got "${s}"`);
      settingSources.push(s);
    }
  }
  let flagSettings: Record<string, unknown> | undefined;
  const st = one(p, 'settings');
  if (st !== undefined) {
    const text = st.trim().startsWith('{') ? st : readFlagFile('--settings', st);
    try {
      flagSettings = JSON.parse(text) as Record<string, unknown>;
    } catch (e) {
      throw new UsageError(`--settings: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  return {
    cwd,
    home,
    env,
    claudeVersion: one(p, 'claude-version'),
    model: one(p, 'model') ?? env.ANTHROPIC_MODEL,
    addDirs: many(p, 'add-dir').map((d) => path.resolve(cwd, d)),
    settingSources,
    managedDir: one(p, 'managed-dir') === undefined ? undefined : path.resolve(one(p, 'managed-dir')!),
    bare: has(p, 'bare'),
    flagSettings,
    pluginDirs: many(p, 'plugin-dir').map((d) => path.resolve(cwd, d)),
  };
}

const TOOLS: readonly TouchTool[] = ['Read', 'Edit', 'Write', 'Bash'];

export function parseTouch(spec: string): { tool: TouchTool; path: string } {
  const i = spec.indexOf(':');
  const tool = spec.slice(0, i) as TouchTool;
  const p = spec.slice(i + 1);
  if (i <= 0 || !TOOLS.includes(tool)) throw new UsageError(`--touch takes TOOL:ABS_PATH with TOOL one of ${TOOLS.join(', ')}, got "${spec}"`);
  if (!path.isAbsolute(p)) throw new UsageError(`--touch path must be absolute, got "${p}"`);
  return { tool, path: p };
}
