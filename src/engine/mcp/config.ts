// Which MCP servers a session connects, from the configuration alone (nothing is run). Measured on 2.1.335 in `-p`
// (docs/profiles.md, "MCP servers"): servers come from `--mcp-config FILE` (flag), `projects[cwd].mcpServers` of
// ~/.claude.json (local), `.mcp.json` in the launch directory (project) and `mcpServers` of ~/.claude.json (user);
// one name defined in several scopes is the first of flag > local > project > user; `--strict-mcp-config` keeps the
// flag scope only; `disabledMcpjsonServers` (settings) turns a project server off; a project server nobody approved
// is connected all the same in `-p` (an interactive session asks first). Plugins' servers (measured on 2.1.235, 2.1.328
// and 2.1.335 in `-p`, offline): a plugin enabled in `enabledPlugins` (`NAME@MARKETPLACE: true`) of a marketplace on
// disk (`extraKnownMarketplaces.MARKETPLACE.source: { source: "directory", path }`, or `installLocation` in
// ~/.claude/plugins/known_marketplaces.json) is read in place: its folder is the marketplace entry's `source`, its
// servers its `.mcp.json` (or `mcpServers` of `.claude-plugin/plugin.json`), named `plugin:PLUGIN:SERVER` (tools
// `mcp__plugin_PLUGIN_SERVER__TOOL`). `managed-mcp.json` in the managed settings folder (measured on 2.1.335 in `-p`
// with /etc/claude-code bind-mounted: with it, only its servers were connected, a project and a user server were not):
// exclusive control. Not modelled: claude.ai connectors, plugins from git or remote marketplaces not yet installed.
import * as path from 'node:path';
import { DiagnosticSink } from '../diagnostics.js';
import type { Environment } from '../environment.js';
import type { Settings } from '../settings.js';
import { decodeUtf8 } from '../instructions/content.js';
import { firstRequestProfile } from '../profiles.js';

export type McpScope = 'managed' | 'flag' | 'local' | 'project' | 'user' | 'plugin';
/** highest precedence first */
export const MCP_SCOPES: readonly McpScope[] = ['managed', 'flag', 'local', 'project', 'user', 'plugin'];

export interface McpServerConfig {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  /** the server's tools are sent whole even when tool search defers the others */
  alwaysLoad?: boolean;
}

export interface McpServer {
  name: string;
  scope: McpScope;
  /** the file that defines it */
  source: string;
  config: McpServerConfig;
}

export interface McpResolution {
  /** the servers the session connects, in precedence order of their scope, then in file order */
  servers: McpServer[];
  /** definitions a higher scope's server of the same name replaces */
  shadowed: { server: McpServer; by: McpServer }[];
  /** servers configured but not connected, and why */
  off: { server: McpServer; why: string }[];
}

export interface McpOptions {
  /** `--mcp-config` files (JSON with `mcpServers`, or the servers object itself) */
  mcpConfigFiles?: string[];
  strictMcpConfig?: boolean;
  /** the Claude Code version: whether it reads an enabled plugin of a marketplace on disk in place (FirstRequestProfile
   *  pluginsInPlace; unknown version: as the newest profile) */
  version?: string;
}

const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

function readJsonFile(env: Environment, file: string, sink: DiagnosticSink, required: boolean): Record<string, unknown> | undefined {
  const st = env.fs.stat(file);
  if (st.ok && st.value.kind !== 'file') {
    sink.add({ path: file, severity: 'warning', rule: 'mcp-config-unreadable', message: 'MCP configuration is not a regular file: not read' });
    return undefined;
  }
  const r = st.ok ? env.fs.readFile(file, MAX_CONFIG_BYTES) : st;
  if (!r.ok) {
    if (required || (r.code !== 'ENOENT' && r.code !== 'ENOTDIR'))
      sink.add({ path: file, severity: 'warning', rule: 'mcp-config-unreadable', message: `cannot read MCP configuration: ${r.code}` });
    return undefined;
  }
  try {
    const v = JSON.parse(decodeUtf8(r.value)) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    sink.add({ path: file, severity: 'warning', rule: 'mcp-config-unreadable', message: 'MCP configuration is not a JSON object: ignored' });
  } catch (e) {
    sink.add({ path: file, severity: 'warning', rule: 'mcp-config-unreadable', message: `MCP configuration is not valid JSON (${(e as Error).message.slice(0, 120)}): ignored` });
  }
  return undefined;
}

function asServers(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function toConfig(v: unknown): McpServerConfig | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
  const c: McpServerConfig = {};
  if (str(o.type)) c.type = str(o.type);
  if (str(o.command)) c.command = str(o.command);
  if (Array.isArray(o.args)) c.args = o.args.filter((a): a is string => typeof a === 'string');
  if (o.env && typeof o.env === 'object' && !Array.isArray(o.env)) {
    c.env = {};
    for (const [k, x] of Object.entries(o.env as Record<string, unknown>)) if (typeof x === 'string') c.env[k] = x;
  }
  if (str(o.url)) c.url = str(o.url);
  if (o.alwaysLoad === true) c.alwaysLoad = true;
  if (!c.command && !c.url) return undefined;
  return c;
}

/** the servers of one scope, in file order */
function collect(scope: McpScope, source: string, servers: Record<string, unknown> | undefined, sink: DiagnosticSink): McpServer[] {
  const out: McpServer[] = [];
  for (const [name, v] of Object.entries(servers ?? {})) {
    const config = toConfig(v);
    if (!config) {
      sink.add({ path: source, severity: 'warning', rule: 'mcp-config-unreadable', message: `MCP server "${name}" has neither a command nor a url: not connected` });
      continue;
    }
    out.push({ name, scope, source, config });
  }
  return out;
}

/** `${CLAUDE_PLUGIN_ROOT}` in a plugin server's command, arguments and environment */
function withPluginRoot(c: McpServerConfig, root: string): McpServerConfig {
  const sub = (x: string) => x.split('${CLAUDE_PLUGIN_ROOT}').join(root);
  return {
    ...c,
    ...(c.command && { command: sub(c.command) }),
    ...(c.args && { args: c.args.map(sub) }),
    ...(c.env && { env: Object.fromEntries(Object.entries(c.env).map(([k, v]) => [k, sub(v)])) }),
  };
}

/** the folder of a marketplace on disk: `extraKnownMarketplaces` (a `directory` source) of the settings, else
 *  ~/.claude/plugins/known_marketplaces.json's `installLocation` */
function marketplaceDir(env: Environment, settings: Settings, market: string, sink: DiagnosticSink): string | undefined {
  const extra = asServers(asServers(settings.value<unknown>('extraKnownMarketplaces'))?.[market]);
  const src = asServers(extra?.source);
  if (src?.source === 'directory' && typeof src.path === 'string') return path.resolve(env.cwd, src.path);
  const known = readJsonFile(env, path.join(env.home, '.claude', 'plugins', 'known_marketplaces.json'), sink, false);
  const loc = asServers(known?.[market])?.installLocation;
  return typeof loc === 'string' ? loc : undefined;
}

/** the servers of the enabled plugins whose marketplace is on disk, in `enabledPlugins` order */
function pluginServers(env: Environment, settings: Settings, sink: DiagnosticSink): McpServer[] {
  const enabled = asServers(settings.value<unknown>('enabledPlugins'));
  const out: McpServer[] = [];
  for (const [key, on] of Object.entries(enabled ?? {})) {
    if (on !== true) continue;
    const at = key.lastIndexOf('@');
    if (at <= 0) continue;
    const plugin = key.slice(0, at);
    const dir = marketplaceDir(env, settings, key.slice(at + 1), sink);
    if (!dir) continue;
    const market = readJsonFile(env, path.join(dir, '.claude-plugin', 'marketplace.json'), sink, false);
    const entry = Array.isArray(market?.plugins) ? (market.plugins as unknown[]).map(asServers).find((p) => p?.name === plugin) : undefined;
    const source = typeof entry?.source === 'string' ? entry.source : undefined;
    if (!source) continue;
    const root = path.resolve(dir, source);
    const manifest = readJsonFile(env, path.join(root, '.claude-plugin', 'plugin.json'), sink, false);
    const inline = asServers(manifest?.mcpServers);
    const file = typeof manifest?.mcpServers === 'string' ? path.resolve(root, manifest.mcpServers) : path.join(root, '.mcp.json');
    const fromFile = inline ? undefined : readJsonFile(env, file, sink, false);
    const servers = inline ?? asServers(fromFile?.mcpServers) ?? (fromFile && fromFile.mcpServers === undefined ? fromFile : undefined);
    for (const s of collect('plugin', inline ? path.join(root, '.claude-plugin', 'plugin.json') : file, servers, sink))
      out.push({ ...s, name: `plugin:${plugin}:${s.name}`, config: withPluginRoot(s.config, root) });
  }
  return out;
}

export function resolveMcpServers(env: Environment, settings: Settings, options: McpOptions, sink: DiagnosticSink): McpResolution {
  // managed-mcp.json takes exclusive control: its servers only, every other one configured and never connected
  const managedFile = path.join(env.managedDir, 'managed-mcp.json');
  const managed = readJsonFile(env, managedFile, sink, false);
  if (managed) {
    const servers = collect('managed', managedFile, asServers(managed.mcpServers), sink);
    const others = resolveUnmanaged(env, settings, options, new DiagnosticSink());
    const why = `${managedFile} defines the MCP servers: only its own are connected`;
    return { servers, shadowed: [], off: [...others.servers, ...others.shadowed.map((x) => x.server), ...others.off.map((x) => x.server)].map((server) => ({ server, why })) };
  }
  return resolveUnmanaged(env, settings, options, sink);
}

function resolveUnmanaged(env: Environment, settings: Settings, options: McpOptions, sink: DiagnosticSink): McpResolution {
  const byScope: McpServer[] = [];
  for (const f of options.mcpConfigFiles ?? []) {
    const file = path.resolve(env.cwd, f);
    const j = readJsonFile(env, file, sink, true);
    if (j) byScope.push(...collect('flag', file, asServers(j.mcpServers) ?? (j.mcpServers === undefined ? asServers(j) : undefined), sink));
  }
  const off: McpResolution['off'] = [];
  if (!options.strictMcpConfig) {
    const g = settings.globalConfig;
    const projects = asServers(g.projects);
    const local = asServers(projects?.[env.cwd]);
    byScope.push(...collect('local', env.globalConfigPath, asServers(local?.mcpServers), sink));
    const projectFile = path.join(env.cwd, '.mcp.json');
    const project = env.settingSources.has('project') ? readJsonFile(env, projectFile, sink, false) : undefined;
    const disabled = new Set(settings.value<unknown[]>('disabledMcpjsonServers')?.filter((x): x is string => typeof x === 'string') ?? []);
    for (const s of collect('project', projectFile, asServers(project?.mcpServers), sink)) {
      if (disabled.has(s.name)) off.push({ server: s, why: 'listed in disabledMcpjsonServers' });
      else byScope.push(s);
    }
    byScope.push(...collect('user', env.globalConfigPath, asServers(g.mcpServers), sink));
    if (firstRequestProfile(options.version ?? '').profile.pluginsInPlace) byScope.push(...pluginServers(env, settings, sink));
  }
  const servers: McpServer[] = [];
  const shadowed: McpResolution['shadowed'] = [];
  const seen = new Map<string, McpServer>();
  for (const s of byScope) {
    const first = seen.get(s.name);
    if (first) {
      // within one scope the later definition is the JSON's own duplicate key: JSON.parse kept the last already
      shadowed.push({ server: s, by: first });
      continue;
    }
    seen.set(s.name, s);
    servers.push(s);
  }
  return { servers, shadowed, off };
}

/** `${VAR}` and `${VAR:-default}` in a server's command, arguments and environment, as Claude Code expands them */
export function expandEnv(s: string, vars: Record<string, string | undefined>): string {
  return s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (m, name: string, def: string | undefined) => vars[name] ?? def ?? m);
}

/** Claude Code's tool name for a server's tool: `mcp__SERVER__TOOL`, characters outside [A-Za-z0-9_-] as `_` */
export function mcpToolName(server: string, tool: string): string {
  const norm = (x: string) => x.replace(/[^A-Za-z0-9_-]/g, '_');
  return `mcp__${norm(server)}__${norm(tool)}`;
}
