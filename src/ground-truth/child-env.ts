// What the `claude` child of `verify` gets: an environment with no credentials and no cloud
// provider, pointed at the loopback stand-in, and a `--settings` layer (flag settings, which beat
// user, project and local settings) that turns hooks off, empties every credential helper and
// overrides the `env` keys that settings files could use to send the run elsewhere.
//
// Measured on 2.1.328 and 2.1.235 (test/ground-truth/child-env.test.ts keeps it honest):
// - settings `env` is applied over the process environment, so clearing variables in the child is
//   not enough: `env.CLAUDE_CODE_USE_BEDROCK` in ~/.claude/settings.json turns Bedrock on again. A
//   flag-layer `env` with the same key set to "" wins.
// - `apiKeyHelper`, `awsAuthRefresh`, `awsCredentialExport` set to "" in the flag layer are not run.
//   `null` is NOT accepted: the whole `--settings` layer is then rejected, `disableAllHooks` with it,
//   and the user's hooks and helpers run. Only strings here.
// - unknown keys in `--settings` are ignored (so keys of newer versions are safe to send).
// - with ANTHROPIC_API_KEY set, an OAuth login in ~/.claude/.credentials.json is not used.
// - managed settings (policy) beat the flag layer: they are checked before running (`policyProblems`).
import * as fs from 'node:fs';
import * as path from 'node:path';

export const DUMMY_API_KEY = 'sk-claude-layers-verify-dummy';

/** exact names kept from the parent environment */
const KEEP_EXACT = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'TMPDIR', 'COLORTERM', 'NO_COLOR',
  'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR',
  'CLAUDE_CONFIG_DIR',
  // model names (no secrets): they decide the default model and with it where the listing goes
  'ANTHROPIC_MODEL', 'ANTHROPIC_SMALL_FAST_MODEL', 'ANTHROPIC_DEFAULT_OPUS_MODEL', 'ANTHROPIC_DEFAULT_SONNET_MODEL',
  'ANTHROPIC_DEFAULT_HAIKU_MODEL',
]);

/** looks like a secret, whatever its prefix */
const SECRET = /(TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE)/i;
/** switches to another provider or endpoint */
const PROVIDER = /^CLAUDE_CODE_USE_|^CLAUDE_CODE_SKIP_|^CLAUDE_CODE_(API_KEY|OAUTH|CLIENT_CERT|CLIENT_KEY)|_BASE_URL$|_PROXY$|^OTEL_|_ENDPOINT$|_HEADERS$/i;
/** cloud and API families: never passed, never left to settings */
const FAMILY = /^(ANTHROPIC|AWS|GOOGLE|GCLOUD|GCP|CLOUDSDK|AZURE|VERTEX|CLOUD_ML|BEDROCK|FOUNDRY)_/i;

/**
 * Is this variable kept for the child? PATH, HOME, locale and XDG folders, CLAUDE_CONFIG_DIR, model
 * names, and the CLAUDE_* / DISABLE_* switches that change what Claude Code loads (they are part of
 * what is being verified), unless they look like credentials or select a provider or endpoint.
 * Everything else (ANTHROPIC_*, AWS_*, GOOGLE_*, AZURE_*, VERTEX_*, OTEL_*, proxies, tokens…) goes.
 */
export function keepVariable(name: string): boolean {
  if (KEEP_EXACT.has(name)) return true;
  if (/^LC_[A-Z]+$/.test(name)) return true;
  if (riskyVariable(name)) return false;
  return /^CLAUDE_/.test(name) || /^DISABLE_/.test(name) || /^MAX_MCP_OUTPUT|^BASH_(DEFAULT|MAX)_/.test(name);
}

/** variables the child always gets (on top of the kept ones) */
export function fixedVariables(port: number): Record<string, string> {
  const url = `http://127.0.0.1:${port}`;
  return {
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: DUMMY_API_KEY,
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // anything that still tries another host lands on the stand-in, which records and refuses it
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
}

/** the child's environment: kept variables of `parent`, then the fixed ones */
export function childEnv(parent: Record<string, string | undefined>, port: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parent)) if (v !== undefined && keepVariable(k)) out[k] = v;
  return { ...out, ...fixedVariables(port) };
}

/** what was removed from the parent environment (names only, for the report) */
export function removedVariables(parent: Record<string, string | undefined>): string[] {
  return Object.keys(parent)
    .filter((k) => parent[k] !== undefined && !keepVariable(k))
    .sort();
}

/** settings keys that name a command Claude Code runs to get credentials or headers */
export const HELPER_KEYS = ['apiKeyHelper', 'awsAuthRefresh', 'awsCredentialExport', 'gcpAuthRefresh', 'otelHeadersHelper'] as const;

/** a credential, a provider switch, an endpoint or a proxy (model names are not) */
export function riskyVariable(name: string): boolean {
  if (KEEP_EXACT.has(name)) return false;
  return SECRET.test(name) || PROVIDER.test(name) || FAMILY.test(name);
}

/**
 * The `--settings` JSON: hooks off, every helper emptied, and an `env` that points at the stand-in
 * and blanks every risky key the user's settings files set (`settingsEnvKeys`).
 */
export function flagSettings(port: number, settingsEnvKeys: Iterable<string>): Record<string, unknown> {
  const env: Record<string, string> = {};
  for (const k of settingsEnvKeys) if (riskyVariable(k)) env[k] = '';
  for (const k of ['CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'CLAUDE_CODE_USE_FOUNDRY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_ENABLE_TELEMETRY'])
    env[k] = '';
  Object.assign(env, fixedVariables(port));
  const s: Record<string, unknown> = { disableAllHooks: true };
  for (const k of HELPER_KEYS) s[k] = '';
  s.env = env;
  return s;
}

function readJsonObject(file: string): Record<string, unknown> | undefined {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > 16 * 1024 * 1024) return undefined;
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** the settings files Claude Code reads for a launch directory (user, project, local), existing or not */
export function settingsFiles(userDir: string, cwd: string): string[] {
  return [path.join(userDir, 'settings.json'), path.join(cwd, '.claude', 'settings.json'), path.join(cwd, '.claude', 'settings.local.json')];
}

/** every `env` key set by these settings files */
export function settingsEnvKeys(files: string[]): Set<string> {
  const keys = new Set<string>();
  for (const f of files) {
    const env = readJsonObject(f)?.env;
    if (env && typeof env === 'object' && !Array.isArray(env)) for (const k of Object.keys(env)) keys.add(k);
  }
  return keys;
}

/**
 * Managed settings beat `--settings`: a policy that sets a helper, hooks, or a risky `env` key could
 * run a command or send the request elsewhere. Returns why the run would not be safe ([] = fine).
 */
export function policyProblems(managedDir: string): string[] {
  const files = [path.join(managedDir, 'managed-settings.json')];
  try {
    const d = path.join(managedDir, 'managed-settings.d');
    for (const n of fs.readdirSync(d).sort()) if (n.endsWith('.json')) files.push(path.join(d, n));
  } catch {
    /* no drop-in folder */
  }
  const out: string[] = [];
  for (const f of files) {
    const s = readJsonObject(f);
    if (!s) continue;
    for (const k of HELPER_KEYS) if (typeof s[k] === 'string' && s[k] !== '') out.push(`${f} sets ${k}, which --settings cannot override`);
    if (s.hooks && typeof s.hooks === 'object' && Object.keys(s.hooks).length) out.push(`${f} defines hooks, which --settings cannot turn off`);
    const env = s.env;
    if (env && typeof env === 'object' && !Array.isArray(env))
      for (const k of Object.keys(env)) if (riskyVariable(k)) out.push(`${f} sets env ${k}, which --settings cannot override`);
  }
  return out;
}
