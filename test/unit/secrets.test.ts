// The secrets check joins texts into batches for secretlint (one run costs its rules' set-up): the
// batched scan must give, text by text, exactly what one secretlint run per text gives. Held here
// over a seeded corpus of instruction-like texts with secrets of many kinds at random places,
// texts a join could change (a secretlint-disable comment, JSON, a private key cut across two
// texts), and hostile ones (separator-like NULs, CRLF, empty).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prng } from '../../bench/generate.js';
import { scanEach, scanInProcess, scanSecrets, type SecretScanItem } from '../../src/engine/checks/secrets.js';

// assembled at run time so that no scanner flags this file
const j = (...parts: string[]) => parts.join('');
const SECRETS = [
  j('ghp_', 'R8x2Lq9ZtV4mWc7Ka1Jd5Nf3Hp6Ys0Ub2Ge8'),
  j('AKIA', 'Z7Q4M2N8B5V1C3X6'),
  j('xoxb-', '123456789012-1234567890123-', 'AbCdEfGhIjKlMnOpQrStUvWx'),
  j('npm_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'),
  j('sk-ant-api03-', 'q'.repeat(93), 'AA'),
  j('https://admin:', 'hunter2hunter2', '@db.example.org/x'),
  j('postgres://app:', 'S3cr3tPassw0rd', '@10.0.0.5:5432/prod'),
  j('password: ', 'Sup3rS3cretValue!'),
  j('api_key = "', 'k9Fq2LmZx8Wv3Rt6', '"'),
  ['-----BEGIN RSA PRIVATE KEY-----', j('MIIEowIBAAKCAQEA', 'q'.repeat(48)), 'r'.repeat(64), '-----END RSA PRIVATE KEY-----'].join('\n'),
];
const FILLER = ['# Conventions', 'Use pnpm, never npm.', '- keep functions small', '```ts\nconst x = 1;\n```', 'See @docs/api.md', '<!-- a note -->', '| a | b |\n|---|---|', '  indented line', 'Ünïcödé text 中文说明', ''];

function corpus(n: number, seed: number): SecretScanItem[] {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const items: SecretScanItem[] = [];
  for (let i = 0; i < n; i++) {
    const lines: string[] = [];
    const len = 1 + Math.floor(r() * 12);
    for (let k = 0; k < len; k++) lines.push(r() < 0.15 ? `${pick(FILLER)} ${pick(SECRETS)}` : pick(FILLER));
    const ext = pick(['.md', '.md', '.md', '.txt', '']);
    items.push({ filePath: `/claude-layers/source-${i}${ext}`, content: lines.join(r() < 0.1 ? '\r\n' : '\n') });
  }
  // texts a join could change, and hostile ones
  const pem = SECRETS[SECRETS.length - 1]!.split('\n');
  items.push(
    { filePath: '/claude-layers/disable.md', content: `<!-- secretlint-disable -->\n${SECRETS[0]}\n` },
    { filePath: '/claude-layers/after-disable.md', content: `token ${SECRETS[0]}\n` },
    { filePath: '/claude-layers/next-line.md', content: `<!-- secretlint-disable-next-line -->\n${SECRETS[1]}\n${SECRETS[2]}` },
    { filePath: '/claude-layers/gcp.json', content: JSON.stringify({ type: 'service_account', private_key_id: 'abc', private_key: `${pem.join('\n')}\n` }) },
    { filePath: '/claude-layers/cut-a.md', content: `key:\n${pem[0]}\n${pem[1]}` },
    { filePath: '/claude-layers/cut-b.md', content: `${pem[2]}\n${pem[3]}\nend` },
    { filePath: '/claude-layers/nul.md', content: `a\n\n\u0000\u0000\n\n${SECRETS[3]}\u0000` },
    { filePath: '/claude-layers/empty.md', content: '' },
    { filePath: '/claude-layers/only-secret.md', content: SECRETS[4]! },
    { filePath: '/claude-layers/trailing.md', content: `x ${SECRETS[5]}` },
    { filePath: '/claude-layers/leading.md', content: `${SECRETS[6]} y` },
  );
  return items;
}

test('batched: the same messages, text by text, as one secretlint run per text', async () => {
  for (const seed of [1, 2, 3]) {
    const items = corpus(150, seed);
    const [batched, each] = [await scanInProcess(items), await scanEach(items)];
    assert.equal(batched.length, items.length);
    items.forEach((it, i) => assert.deepEqual(batched[i], each[i], `seed ${seed}: ${it.filePath}: ${JSON.stringify(it.content.slice(0, 80))}`));
    const found = each.reduce((n, r) => n + (r.ok ? r.messages.length : 0), 0);
    assert.ok(found > 20, `the corpus holds secrets (${found} messages)`);
  }
});

test('the findings of the check are the same whichever scanner runs', async () => {
  const items = corpus(60, 9);
  const sources = items.map((it, i) => ({ path: `/w/f${i}.md`, content: it.content, raw: it.content, how: 'startup' }));
  assert.deepEqual(await scanSecrets(sources, scanInProcess), await scanSecrets(sources, scanEach));
});
