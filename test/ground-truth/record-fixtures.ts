// Records the transcript fixtures: runs the real binaries (both versions) on the scenario of
// scenario.ts with a real HOME in a temp folder, against the loopback stand-in, and keeps
//   fixtures/VERSION.jsonl          the session transcript, redacted (redact.ts) and with the temp
//                                   root replaced by {ROOT}
//   fixtures/VERSION.capture.json   what the last main-loop request itself shows (startup entry
//                                   paths, per tool call the injected paths), to check the parser
// Run it again when a version is added:  node --import tsx test/ground-truth/record-fixtures.ts [VERSION…]
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { childEnv, flagSettings } from '../../src/ground-truth/child-env.js';
import { extract, lastMainLoopBody } from '../../src/engine/transcript/wire.js';
import { MockApi, type Step } from '../../src/ground-truth/mock-api.js';
import { run } from '../../src/ground-truth/process.js';
import { memoryKey } from '../../src/engine/memory/memory.js';
import { redactTranscript } from './redact.js';
import { claudeBin, materialise, SCENARIO_STEPS, VERSIONS } from './scenario.js';

const FIXTURES = path.join(__dirname, 'fixtures');

function entryPaths(startup: string | null): string[] {
  if (startup === null) return [];
  return [...startup.matchAll(/(?:^|\n\n)Contents of (\/[^\n]*?)(?: \([^()\n]*\))?:\n\n/g)].map((m) => m[1]!);
}

async function record(version: string): Promise<void> {
  const ws = materialise();
  try {
    const steps: Step[] = SCENARIO_STEPS.map((s) => {
      if (s.tool === 'Skill') return { tool_use: { name: 'Skill', input: { skill: s.skill! } } };
      const file = path.join(ws.repo, s.path!);
      if (s.tool === 'Edit') return { tool_use: { name: 'Edit', input: { file_path: file, old_string: 'EDIT_ME', new_string: 'EDITED', replace_all: false } } };
      return { tool_use: { name: 'Read', input: { file_path: file } } };
    });
    steps.push({ text: 'done' });
    const mock = new MockApi(steps);
    const port = await mock.start();
    const sessionId = randomUUID();
    const env = childEnv({ PATH: process.env.PATH, HOME: ws.home, USER: 'root', LOGNAME: 'root', SHELL: '/bin/bash', LANG: 'C.UTF-8' }, port);
    const args = ['-p', 'say hi', '--session-id', sessionId, '--settings', JSON.stringify(flagSettings(port, [])), '--strict-mcp-config', '--mcp-config', '{"mcpServers":{}}', '--allowedTools', 'Read,Edit,Skill'];
    const r = await run(claudeBin(version), args, { cwd: ws.repo, env, timeoutMs: 60_000 });
    await mock.close();
    if (r.exitCode !== 0) throw new Error(`claude ${version} exited ${r.exitCode}: ${r.stderr.slice(0, 500)}`);
    const transcript = path.join(ws.home, '.claude', 'projects', memoryKey(ws.repo), `${sessionId}.jsonl`);
    const raw = fs.readFileSync(transcript, 'utf8');
    const body = lastMainLoopBody(mock.requests.filter((q) => q.method === 'POST').map((q) => q.body));
    if (!body) throw new Error('no main-loop request');
    const x = extract(body, version);
    const replace: [string, string][] = [[ws.root, '{ROOT}'], [memoryKey(ws.root), '{ROOTKEY}']];
    const rel = (p: string) => replace.reduce((s, [from, to]) => s.split(from).join(to), p);
    const capture = {
      version,
      startup: entryPaths(x.startup).map(rel),
      touches: x.touches.map((t) => ({ tool: t.tool, input: JSON.parse(rel(JSON.stringify(t.input))) as unknown, injected: t.injected.map((e) => rel(/^Contents of (.*?):\n\n/s.exec(e)?.[1] ?? '?')) })),
      warnings: x.warnings,
    };
    fs.mkdirSync(FIXTURES, { recursive: true });
    fs.writeFileSync(path.join(FIXTURES, `${version}.jsonl`), redactTranscript(raw, replace));
    fs.writeFileSync(path.join(FIXTURES, `${version}.capture.json`), JSON.stringify(capture, null, 1) + '\n');
    console.log(`${version}: ${raw.length} bytes of transcript → fixtures/${version}.jsonl; ${capture.startup.length} startup entries, ${capture.touches.length} tool calls`);
  } finally {
    ws.cleanup();
  }
}

async function main(): Promise<void> {
  const versions = process.argv.slice(2).length ? process.argv.slice(2) : [...VERSIONS];
  for (const v of versions) await record(v);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
