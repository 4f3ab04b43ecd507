// The hermetic view of the machine the engine reasons about: launch directory, HOME, environment
// variables, flags. Nothing reads process.env or os.homedir() except through `defaultEnvironment`.
import * as os from 'node:os';
import * as path from 'node:path';
import type { FileAccess } from './files/file-access.js';
import { nodeFileAccess } from './files/file-access.js';

export type SettingSource = 'user' | 'project' | 'local';
export const ALL_SETTING_SOURCES: readonly SettingSource[] = ['user', 'project', 'local'];

export interface EngineOptions {
  /** the launch directory (where `claude` is started) */
  cwd: string;
  /** HOME as Claude Code sees it */
  home?: string;
  /** the environment Claude Code sees; defaults to process.env only when `home` is also left out */
  env?: Record<string, string | undefined>;
  claudeVersion?: string;
  model?: string;
  addDirs?: string[];
  /** `--setting-sources`; undefined means all */
  settingSources?: SettingSource[];
  /** replaces /etc/claude-code */
  managedDir?: string;
  bare?: boolean;
  /** `--settings` file or JSON, the flag settings layer */
  flagSettings?: Record<string, unknown>;
  /** `--plugin-dir` folders (their skills and commands are listed as `plugin:name`) */
  pluginDirs?: string[];
  /** the descriptions of the skills shipped in the user's installed Claude Code, read from its binary
   *  at run time by the host or CLI (never kept in this repository); by skill name */
  shippedSkillText?: Readonly<Record<string, string>>;
  fs?: FileAccess;
}

export interface Environment {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  addDirs: string[];
  settingSources: ReadonlySet<SettingSource>;
  managedDir: string;
  bare: boolean;
  model?: string;
  flagSettings?: Record<string, unknown>;
  pluginDirs: string[];
  shippedSkillText?: Readonly<Record<string, string>>;
  fs: FileAccess;
  /** `CLAUDE_CONFIG_DIR` or ~/.claude */
  userDir: string;
  /** where ~/.claude.json lives */
  globalConfigPath: string;
}

export function defaultManagedDir(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

export function isTruthyEnv(v: string | undefined): boolean {
  if (v === undefined) return false;
  return ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());
}

export function isDefinedFalsyEnv(v: string | undefined): boolean {
  if (v === undefined) return false;
  return ['0', 'false', 'no', 'off'].includes(v.trim().toLowerCase());
}

export function resolveEnvironment(o: EngineOptions): Environment {
  const env = o.env ?? (o.home === undefined ? { ...process.env } : {});
  const home = path.resolve(o.home ?? env.HOME ?? os.homedir());
  const configDir = env.CLAUDE_CONFIG_DIR;
  const userDir = configDir ? path.resolve(configDir) : path.join(home, '.claude');
  const fs = o.fs ?? nodeFileAccess;
  // Claude Code works in the real path of its launch directory, even when PWD is a symlink to it (measured:
  // every `Contents of` header and the memory key name the real path; scenario cwd_symlink)
  const given = path.resolve(o.cwd);
  const real = fs.realpath(given);
  return {
    cwd: real.ok ? real.value : given,
    home,
    env,
    addDirs: (o.addDirs ?? []).map((d) => path.resolve(o.cwd, d)),
    settingSources: new Set(o.settingSources ?? ALL_SETTING_SOURCES),
    managedDir: o.managedDir ?? defaultManagedDir(),
    bare: !!o.bare || isTruthyEnv(env.CLAUDE_CODE_SIMPLE),
    model: o.model,
    flagSettings: o.flagSettings,
    pluginDirs: (o.pluginDirs ?? []).map((d) => path.resolve(o.cwd, d)),
    ...(o.shippedSkillText ? { shippedSkillText: o.shippedSkillText } : {}),
    fs,
    userDir,
    globalConfigPath: configDir ? path.join(path.resolve(configDir), '.claude.json') : path.join(home, '.claude.json'),
  };
}

/** is `p` equal to or below `dir` (both absolute)? */
export function isInside(p: string, dir: string): boolean {
  if (below(p, dir) !== undefined) return true;
  const rel = path.relative(dir, p);
  return rel === '' || (!upward(rel) && !path.isAbsolute(rel));
}

/** is `p` strictly below `dir`? */
export function isStrictlyInside(p: string, dir: string): boolean {
  if (below(p, dir) !== undefined) return true;
  const rel = path.relative(dir, p);
  return rel !== '' && !upward(rel) && !path.isAbsolute(rel);
}

/** does a relative path leave its folder (`..`, `../x`)? (a name such as `..x` does not) */
const upward = (rel: string) => rel === '..' || rel.startsWith(`..${path.sep}`);

/** a path with something to normalize: a `.` or `..` segment, a doubled or trailing separator (on Windows also a `/`) */
const NOT_NORMAL = path.sep === '/' ? /\/\.{1,2}(\/|$)|\/\/|\/$/ : /[\\/]\.{1,2}([\\/]|$)|[\\/][\\/]|[\\/]$|\//;
const SEP = path.sep.charCodeAt(0);

/**
 * `p` relative to `dir` by a slice, when both are absolute and normal and `p` starts with `dir` and a separator
 * (what path.relative would give, without its two resolves: a lint displays and places thousands of paths);
 * undefined otherwise, and the caller asks path.relative.
 */
export function below(p: string, dir: string): string | undefined {
  if (p.length <= dir.length + 1 || p.charCodeAt(dir.length) !== SEP || !p.startsWith(dir) || !path.isAbsolute(dir) || NOT_NORMAL.test(p) || NOT_NORMAL.test(dir)) return undefined;
  return p.slice(dir.length + 1);
}
