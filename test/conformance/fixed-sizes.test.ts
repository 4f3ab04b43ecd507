// The fixed request sizes of every profile (profile.request: what the editor's "whole first request" gauge adds
// to the user's own files) against the real binary: one run per version on an empty git repository with a fresh
// HOME, offline against the loopback stand-in. Paths are counted without the temp root they start with.
//   node --import tsx --test test/conformance/fixed-sizes.test.ts      (MS_VERSIONS=… to narrow it down)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { chooseProfile } from '../../src/engine/index.js';
import { REPO_DIR } from './capture.js';
import { engineVersion, PROFILE_CHECK, VERSIONS, type ClaudeVersion } from './scenario.js';
import { runMS } from './memory-skills/run.js';

const versions = (process.env.MS_VERSIONS?.split(',') ?? [...VERSIONS]) as ClaudeVersion[];
/** date, git status and OS line vary by machine and day: a few characters */
const SLACK = 0.02;

interface Part {
  type: string;
  text?: string;
}
const texts = (c: unknown): string[] => (typeof c === 'string' ? [c] : Array.isArray(c) ? (c as Part[]).filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text!) : []);

test('fixed request sizes: every profile against its binary', async (t) => {
  execFileSync('bash', [path.join(REPO_DIR, 'scripts/install-claude.sh'), ...versions], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (const v of versions) {
    await t.test(v, async () => {
      const o = await runMS({ name: 'fixed-sizes', spec: ['C'], git: ['repo'], cwd: 'repo', files: {} }, v, { engine: false });
      try {
        assert.equal(o.claude.code, 0, o.claude.stderr.slice(0, 500));
        const b = o.body as { system: Part[]; tools: unknown[]; messages: { content: unknown }[] } | null;
        assert.ok(b, 'no main-loop request');
        const unrooted = (s: string) => s.length - (s.split(o.root).length - 1) * o.root.length;
        const system = b.system.map((s) => s.text ?? '').join('');
        const memory = o.memorySection ?? '';
        assert.ok(memory, 'memory is on by default: the # Memory section is there');
        const listing = o.listing ?? '';
        const messages = b.messages.flatMap((m) => texts(m.content)).filter((x) => x !== 'say hi').join('');
        const got = {
          system: unrooted(system) - unrooted(memory),
          tools: JSON.stringify(b.tools).length,
          messages: unrooted(messages) - unrooted(listing),
          defaultSkillsListing: listing.length,
        };
        const want = chooseProfile(engineVersion(v)).profile.request;
        t.diagnostic(`${v}: measured ${JSON.stringify(got)}, profile ${JSON.stringify(want)}`);
        if (!PROFILE_CHECK) assert.equal(chooseProfile(v).profile.version, v, 'the version has its own profile');
        assert.equal(got.tools, want.tools, 'tool definitions');
        assert.equal(got.defaultSkillsListing, want.defaultSkillsListing, 'skills listing of an empty project');
        for (const k of ['system', 'messages'] as const) assert.ok(Math.abs(got[k] - want[k]) <= want[k] * SLACK, `${k}: measured ${got[k]}, profile ${want[k]}`);
      } finally {
        o.cleanup();
      }
    });
  }
});
