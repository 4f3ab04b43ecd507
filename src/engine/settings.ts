// Claude Code settings as far as they change what reaches the request: each layer read once,
// merged with Claude Code's precedence (user < project < local < flag < policy).
import * as path from 'node:path';
import { decodeUtf8 } from './instructions/content.js';
import { grouped, type DiagnosticSink } from './diagnostics.js';
import type { Environment } from './environment.js';

export type SettingsLayerName = 'policy' | 'user' | 'project' | 'local' | 'flag';

export interface SettingsLayer {
  name: SettingsLayerName;
  path: string;
  data: Record<string, unknown>;
}

export interface Settings {
  layers: SettingsLayer[];
  /** the first layer (highest precedence first) that sets the key */
  get<T = unknown>(key: string): { value: T; layer: SettingsLayer } | undefined;
  /** a key's value from the merged settings (policy > flag > local > project > user) */
  value<T = unknown>(key: string): T | undefined;
  /** claudeMdExcludes from policy, user, project and local settings, concatenated */
  claudeMdExcludes: string[];
  /** ~/.claude.json */
  globalConfig: Record<string, unknown>;
}

/** the largest settings file read */
const MAX_SETTINGS_BYTES = 16 * 1024 * 1024;

/** the most claudeMdExcludes patterns used (700,000 of them took 3.4 GB and 28 s, then V8 gave up) */
export const MAX_EXCLUDES = 10_000;

/** a settings value for a message: its JSON, shortened (never `[object Object]`) */
export function describeValue(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = Object.prototype.toString.call(v);
  }
  const kind = v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : typeof v === 'string' ? 'a string' : `a ${typeof v}`;
  return `${kind} ${s.length > 60 ? `${s.slice(0, 57)}...` : s}`;
}

const PRECEDENCE: SettingsLayerName[] = ['policy', 'flag', 'local', 'project', 'user'];

function readJson(env: Environment, file: string, sink: DiagnosticSink): Record<string, unknown> | undefined {
  const st = env.fs.stat(file);
  if (!st.ok) {
    if (st.code !== 'ENOENT' && st.code !== 'ENOTDIR') sink.add({ path: file, severity: 'warning', rule: 'settings-unreadable', message: `cannot read settings: ${st.code}` });
    return undefined;
  }
  if (st.value.kind !== 'file') {
    sink.add({ path: file, severity: 'warning', rule: 'settings-unreadable', message: `settings file is not a regular file (${st.value.kind === 'dir' ? 'a folder' : 'a FIFO, device or socket'}): not read` });
    return undefined;
  }
  const r = env.fs.readFile(file, MAX_SETTINGS_BYTES);
  if (!r.ok) {
    const why = r.code === 'EFBIG' ? `it is over the engine's 16 MiB cap for a settings file (${r.message})` : r.code;
    sink.add({ path: file, severity: 'warning', rule: 'settings-unreadable', message: `cannot read settings: ${why}` });
    return undefined;
  }
  const text = decodeUtf8(r.value);
  if (!text.trim()) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    sink.add({ path: file, severity: 'warning', rule: 'settings-invalid', message: 'settings file is not a JSON object; Claude Code ignores it' });
  } catch (e) {
    sink.add({ path: file, severity: 'warning', rule: 'settings-invalid', message: `settings file is not valid JSON (${(e as Error).message}); Claude Code ignores it` });
  }
  return undefined;
}

export function settingsPaths(env: Environment): Record<SettingsLayerName, string> {
  return {
    policy: path.join(env.managedDir, 'managed-settings.json'),
    user: path.join(env.userDir, 'settings.json'),
    project: path.join(env.cwd, '.claude', 'settings.json'),
    local: path.join(env.cwd, '.claude', 'settings.local.json'),
    flag: '<--settings>',
  };
}

export function loadSettings(env: Environment, sink: DiagnosticSink): Settings {
  const paths = settingsPaths(env);
  const layers: SettingsLayer[] = [];
  const add = (name: SettingsLayerName, enabled: boolean): void => {
    if (!enabled) return;
    const data = readJson(env, paths[name], sink);
    if (data) layers.push({ name, path: paths[name], data });
  };
  add('policy', true);
  add('user', env.settingSources.has('user'));
  add('project', env.settingSources.has('project'));
  add('local', env.settingSources.has('local'));
  if (env.flagSettings) layers.push({ name: 'flag', path: paths.flag, data: env.flagSettings });
  const ordered = PRECEDENCE.flatMap((n) => layers.filter((l) => l.name === n));
  const get = <T>(key: string) => {
    for (const l of ordered) if (Object.prototype.hasOwnProperty.call(l.data, key)) return { value: l.data[key] as T, layer: l };
    return undefined;
  };
  const excludes: string[] = [];
  for (const n of ['policy', 'user', 'project', 'local'] as const) {
    const l = layers.find((x) => x.name === n);
    if (!l || !Object.prototype.hasOwnProperty.call(l.data, 'claudeMdExcludes')) continue;
    const v = l.data.claudeMdExcludes;
    if (!Array.isArray(v)) {
      sink.add({ path: l.path, severity: 'warning', rule: 'settings-invalid', message: `claudeMdExcludes must be a list of path patterns, not ${describeValue(v)}: the engine ignores it` });
      continue;
    }
    const wrong = v.filter((p) => typeof p !== 'string');
    if (wrong.length) sink.add({ path: l.path, severity: 'warning', rule: 'settings-invalid', message: `claudeMdExcludes holds ${grouped(wrong.length)} ${wrong.length === 1 ? 'entry' : 'entries'} that ${wrong.length === 1 ? 'is' : 'are'} not a string (the first: ${describeValue(wrong[0])}): ignored` });
    const room = MAX_EXCLUDES - excludes.length;
    const strings = v.filter((p): p is string => typeof p === 'string');
    if (strings.length > room) sink.add({ path: l.path, severity: 'warning', rule: 'settings-list-capped', message: `claudeMdExcludes has ${grouped(strings.length)} patterns: the engine uses the first ${grouped(Math.max(0, room))} (at most ${grouped(MAX_EXCLUDES)} in all settings files), so files the rest exclude are shown as loaded` });
    for (const p of strings.slice(0, Math.max(0, room))) excludes.push(p);
  }
  const globalConfig = readJson(env, env.globalConfigPath, sink) ?? {};
  return { layers, get, value: (k) => get(k)?.value as never, claudeMdExcludes: excludes, globalConfig };
}
