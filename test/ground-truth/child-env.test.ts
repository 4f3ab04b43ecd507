// The credential scrubbing of verify's child: which variables reach `claude`, the `--settings`
// layer that overrides the user's settings, the managed-policy check, and the real thing: both
// binaries with hostile user settings (an apiKeyHelper, AWS helpers, hooks, Bedrock and a foreign
// endpoint in settings `env`) and a parent environment full of credentials: the helpers and hooks
// must not run, only the dummy key may reach the stand-in, and the run must still match.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { childEnv, DUMMY_API_KEY, flagSettings, keepVariable, removedVariables, riskyVariable } from '../../src/ground-truth/index.js';
import { policyProblems } from '../../src/ground-truth/child-env.js';
import { renderPlan, renderVerify, verify } from '../../src/ground-truth/index.js';
import { baseEnv, ensureBinaries, tempDir, wrapper } from './helpers.js';
import { materialise, VERSIONS } from './scenario.js';

const HOSTILE_PARENT: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-REAL-PARENT-KEY',
  ANTHROPIC_AUTH_TOKEN: 'parent-token',
  ANTHROPIC_BASE_URL: 'https://gateway.example.invalid',
  ANTHROPIC_CUSTOM_HEADERS: 'x-secret: 1',
  CLAUDE_CODE_USE_BEDROCK: '1',
  CLAUDE_CODE_USE_VERTEX: '1',
  CLAUDE_CODE_OAUTH_TOKEN: 'oauth-parent',
  AWS_ACCESS_KEY_ID: 'AKIAPARENT',
  AWS_SECRET_ACCESS_KEY: 'parent-secret',
  AWS_PROFILE: 'prod',
  AWS_REGION: 'us-east-1',
  GOOGLE_APPLICATION_CREDENTIALS: '/tmp/creds.json',
  GOOGLE_CLOUD_PROJECT: 'p',
  CLOUD_ML_REGION: 'us-east5',
  ANTHROPIC_VERTEX_PROJECT_ID: 'p',
  AZURE_OPENAI_KEY: 'k',
  GITHUB_TOKEN: 'ghp_parent',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.example.invalid',
  HTTPS_PROXY: 'http://corp-proxy.example.invalid:3128',
  NODE_OPTIONS: '--require /tmp/evil.js',
  SSH_AUTH_SOCK: '/tmp/agent.sock',
  // kept: they change what Claude Code loads, or are harmless
  CLAUDE_CODE_DISABLE_AUTO_MEMORY: '0',
  ANTHROPIC_MODEL: 'claude-opus-5-5',
  LC_ALL: 'C.UTF-8',
};

test('child env: credentials, providers, endpoints and proxies go; PATH, HOME, locale, switches and model names stay', () => {
  const env = childEnv({ PATH: '/usr/bin', HOME: '/h', ...HOSTILE_PARENT }, 4242);
  for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_PROFILE', 'AWS_REGION', 'GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_PROJECT', 'CLOUD_ML_REGION',
    'ANTHROPIC_VERTEX_PROJECT_ID', 'AZURE_OPENAI_KEY', 'GITHUB_TOKEN', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'NODE_OPTIONS', 'SSH_AUTH_SOCK', 'ANTHROPIC_AUTH_TOKEN',
    'ANTHROPIC_CUSTOM_HEADERS', 'CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'CLAUDE_CODE_OAUTH_TOKEN'])
    assert.equal(env[k], undefined, k);
  assert.equal(env.ANTHROPIC_API_KEY, DUMMY_API_KEY);
  assert.equal(env.ANTHROPIC_BASE_URL, 'http://127.0.0.1:4242');
  assert.equal(env.HTTPS_PROXY, 'http://127.0.0.1:4242');
  assert.equal(env.NO_PROXY, '127.0.0.1,localhost');
  assert.equal(env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, '1');
  assert.deepEqual([env.PATH, env.HOME, env.LC_ALL, env.CLAUDE_CODE_DISABLE_AUTO_MEMORY, env.ANTHROPIC_MODEL], ['/usr/bin', '/h', 'C.UTF-8', '0', 'claude-opus-5-5']);
  assert.ok(removedVariables(HOSTILE_PARENT).includes('AWS_SECRET_ACCESS_KEY'));
  assert.ok(!removedVariables(HOSTILE_PARENT).includes('ANTHROPIC_MODEL'));
  for (const k of ['CLAUDE_CONFIG_DIR', 'CLAUDE_CODE_DISABLE_CLAUDE_MDS', 'CLAUDE_CODE_REMOTE_MEMORY_DIR', 'DISABLE_TELEMETRY', 'TMPDIR', 'XDG_CONFIG_HOME']) assert.ok(keepVariable(k), k);
  for (const k of ['CLAUDE_CODE_API_KEY_HELPER_TTL_MS', 'CLAUDE_SESSION_TOKEN', 'MY_PASSWORD', 'FOUNDRY_API_KEY']) assert.ok(!keepVariable(k), k);
});

test('flag settings: hooks off, helpers emptied with "" (never null: a null rejects the whole layer), risky settings env blanked', () => {
  const s = flagSettings(4242, ['CLAUDE_CODE_USE_BEDROCK', 'AWS_PROFILE', 'ANTHROPIC_BASE_URL', 'MY_FLAG', 'ANTHROPIC_MODEL']);
  assert.equal(s.disableAllHooks, true);
  for (const k of ['apiKeyHelper', 'awsAuthRefresh', 'awsCredentialExport', 'gcpAuthRefresh', 'otelHeadersHelper']) assert.equal(s[k], '', k);
  const env = s.env as Record<string, string>;
  assert.equal(env.CLAUDE_CODE_USE_BEDROCK, '');
  assert.equal(env.AWS_PROFILE, '');
  assert.equal(env.ANTHROPIC_BASE_URL, 'http://127.0.0.1:4242');
  assert.equal(env.ANTHROPIC_API_KEY, DUMMY_API_KEY);
  assert.equal('MY_FLAG' in env, false, 'harmless keys keep the user value');
  assert.equal('ANTHROPIC_MODEL' in env, false, 'model names keep the user value');
  assert.ok(!JSON.stringify(s).includes('null'));
  assert.ok(riskyVariable('ANTHROPIC_BEDROCK_BASE_URL') && riskyVariable('HTTPS_PROXY') && !riskyVariable('ANTHROPIC_MODEL'));
});

test('policy check: managed settings that --settings cannot override block the run', () => {
  const { dir, cleanup } = tempDir();
  try {
    assert.deepEqual(policyProblems(dir), []);
    fs.writeFileSync(path.join(dir, 'managed-settings.json'), JSON.stringify({ apiKeyHelper: '/bin/get-key', env: { ANTHROPIC_BASE_URL: 'https://corp', FOO: 'bar' }, permissions: {} }));
    fs.mkdirSync(path.join(dir, 'managed-settings.d'));
    fs.writeFileSync(path.join(dir, 'managed-settings.d', '10-hooks.json'), JSON.stringify({ hooks: { SessionStart: [] } }));
    const p = policyProblems(dir);
    assert.equal(p.length, 3, p.join('\n'));
    assert.match(p.join('\n'), /sets apiKeyHelper/);
    assert.match(p.join('\n'), /sets env ANTHROPIC_BASE_URL/);
    assert.match(p.join('\n'), /10-hooks\.json defines hooks/);
  } finally {
    cleanup();
  }
});

test('the real binaries with hostile settings and a hostile environment: nothing runs, nothing but the dummy key is sent, and it still matches', async (t) => {
  ensureBinaries();
  for (const v of VERSIONS) {
    await t.test(v, async () => {
      const ws = materialise();
      try {
        const mark = (n: string) => path.join(ws.root, n);
        fs.writeFileSync(path.join(ws.home, '.claude', 'settings.json'), JSON.stringify({
          apiKeyHelper: `touch ${mark('APIKEYHELPER_RAN')}; echo sk-from-helper`,
          awsAuthRefresh: `touch ${mark('AWSREFRESH_RAN')}`,
          awsCredentialExport: `touch ${mark('AWSEXPORT_RAN')}`,
          hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${mark('HOOK_RAN')}` }] }], PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `touch ${mark('HOOK2_RAN')}` }] }] },
          env: { ANTHROPIC_BASE_URL: 'http://127.0.0.2:9/', CLAUDE_CODE_USE_BEDROCK: '1', AWS_REGION: 'us-east-1', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.3:4318', CLAUDE_CODE_ENABLE_TELEMETRY: '1' },
        }));
        // an OAuth login that must not be used
        fs.writeFileSync(path.join(ws.home, '.claude', '.credentials.json'), JSON.stringify({ claudeAiOauth: { accessToken: 'sk-ant-oat01-NOT-TO-BE-SENT', refreshToken: 'sk-ant-ort01-x', expiresAt: Date.now() + 86_400_000, scopes: ['user:inference'] } }));
        // a wrapper that records the environment claude really gets
        const dump = path.join(ws.root, 'child-env.txt');
        const fake = wrapper(path.join(ws.root, 'bin/claude'), v, v, `env > '${dump}'`);
        const o = { cwd: ws.repo, file: 'src/api/client.ts', claudePath: fake, home: ws.home, env: baseEnv(ws.home, HOSTILE_PARENT), managedDir: path.join(ws.root, 'none') };
        const r = await verify(o);
        assert.equal(r.verdict, 'match', renderVerify(r));
        for (const m of ['APIKEYHELPER_RAN', 'AWSREFRESH_RAN', 'AWSEXPORT_RAN', 'HOOK_RAN', 'HOOK2_RAN']) assert.equal(fs.existsSync(mark(m)), false, `${m}: it ran`);
        assert.equal(r.run!.dummyKeyOnly, true);
        assert.deepEqual(r.run!.otherHosts, []);
        const seen = fs.readFileSync(dump, 'utf8');
        for (const secret of ['sk-ant-REAL-PARENT-KEY', 'parent-token', 'AKIAPARENT', 'parent-secret', 'ghp_parent', 'gateway.example.invalid', 'corp-proxy', 'evil.js', 'creds.json', 'oauth-parent'])
          assert.ok(!seen.includes(secret), `${secret} reached the child`);
        assert.match(seen, new RegExp(`^ANTHROPIC_API_KEY=${DUMMY_API_KEY}$`, 'm'));
        // the plan says what it removed, by name only
        const text = renderPlan(r.plan);
        assert.match(text, /removed: .*AWS_SECRET_ACCESS_KEY/);
        assert.ok(!text.includes('parent-secret') && !JSON.stringify(r).includes('parent-secret'), 'no secret value in the plan or the result');
      } finally {
        ws.cleanup();
      }
    });
  }
});
