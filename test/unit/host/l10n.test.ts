// Every message the host passes to vscode.l10n.t has a Simplified Chinese translation with the same
// placeholders, and every %key% of package.json has an English and a Chinese text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import './vscode-fake.js';
import { RULE_KEYS, SKILL_KEYS } from '../../../src/host/editor/frontmatter-scan.js';
import { COMMANDS } from '../../../src/host/commands.js';
import { VERIFY_COMMANDS } from '../../../src/host/verify-command.js';
import { LIVE_COMMANDS } from '../../../src/host/session/live-session-view.js';
import { MCP_COMMAND } from '../../../src/host/mcp-command.js';

const ROOT = path.resolve(__dirname, '../../..');
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), 'utf8');

function hostMessages(): Set<string> {
  const out = new Set<string>();
  const dir = path.join(ROOT, 'src/host');
  for (const f of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((x) => x.endsWith('.ts'))) {
    const s = fs.readFileSync(path.join(dir, f), 'utf8');
    for (const m of s.matchAll(/\bt\(\s*(['"])((?:\\.|(?!\1).)*)\1/g)) out.add(m[2]!.replace(/\\(['"])/g, '$1').replace(/\\n/g, '\n'));
    for (const m of s.matchAll(/\bt\(\s*`((?:\\.|[^`$])*)`/g)) out.add(m[1]!);
  }
  for (const v of [...Object.values(RULE_KEYS), ...Object.values(SKILL_KEYS)]) out.add(v);
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();

test('every host message has a zh-cn translation with the same placeholders', () => {
  const bundle = JSON.parse(read('l10n/bundle.l10n.zh-cn.json')) as Record<string, string>;
  const messages = hostMessages();
  assert.ok(messages.size > 150, `found ${messages.size} messages`);
  const missing = [...messages].filter((m) => !(m in bundle));
  assert.deepEqual(missing, []);
  for (const [k, v] of Object.entries(bundle)) {
    assert.deepEqual(placeholders(v), placeholders(k), `placeholders of "${k}"`);
    assert.ok(v.trim(), `empty translation of "${k}"`);
  }
  const unused = Object.keys(bundle).filter((k) => !messages.has(k));
  assert.deepEqual(unused, [], 'no stale entries');
});

test('package.json contributions: every %key% in both nls files; commands, view and settings as documented', () => {
  const pkg = JSON.parse(read('package.json')) as {
    extensionKind?: string[];
    capabilities?: { untrustedWorkspaces?: { supported?: string } };
    contributes: {
      configuration: { properties: Record<string, { scope?: string }> };
      commands: { command: string }[];
      views: Record<string, { id: string }[]>;
    };
  };
  const en = JSON.parse(read('package.nls.json')) as Record<string, string>;
  const zh = JSON.parse(read('package.nls.zh-cn.json')) as Record<string, string>;
  const keys = [...JSON.stringify(pkg).matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]!);
  assert.ok(keys.length > 10);
  for (const k of keys) {
    assert.ok(en[k], `package.nls.json lacks ${k}`);
    assert.ok(zh[k], `package.nls.zh-cn.json lacks ${k}`);
  }
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  assert.deepEqual(pkg.extensionKind, ['workspace']);
  assert.equal(pkg.capabilities?.untrustedWorkspaces?.supported, 'limited');
  const props = pkg.contributes.configuration.properties;
  assert.equal(props['claudeLayers.claudePath']?.scope, 'machine', 'the executable path can never come from a workspace');
  for (const k of ['claudeVersion', 'model', 'launchDirectory', 'settingSources', 'addDirs', 'claudePath']) assert.ok(props[`claudeLayers.${k}`], k);
  const commands = pkg.contributes.commands.map((c) => c.command);
  for (const c of ['refresh', 'copyReport', 'previewStartup', 'configure']) assert.ok(commands.includes(`claudeLayers.${c}`), c);
  // what package.json declares is exactly what the host registers: the command table, Verify's own and the live view's
  const registered = [...Object.keys(COMMANDS), ...VERIFY_COMMANDS, ...LIVE_COMMANDS, MCP_COMMAND].sort();
  assert.deepEqual([...commands].sort(), registered);
  assert.equal(pkg.contributes.views.claudeLayers?.[0]?.id, 'claudeLayers.sidebar');
});
