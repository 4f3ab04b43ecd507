// Issue 31 part B: requests, usage, cost, cache breaks, windows and the layers the transcript records, on transcripts
// of real shape (test/fixtures/transcripts/real-shapes/usage/, our own content in the records' real structure, 1.0.17
// to 2.1.333), read through the function the CLI runs (`claude-layers session --json`), a few through the built CLI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sessionCommand, type SessionJson } from '../../src/cli/session-command.js';
import { makeStyle } from '../../src/cli/style.js';
import { NEWEST_PROFILE } from '../../src/engine/profiles.js';
import { costOf, listPrice, priceOf, pricingOverride } from '../../src/engine/transcript/pricing.js';
import type { Settings } from '../../src/engine/settings.js';
import { nodeFileAccess, type FileAccess } from '../../src/engine/files/file-access.js';
import { LiveReader, readLiveSession } from '../../src/engine/transcript/session.js';

const ROOT = path.resolve(__dirname, '..', '..');
const DIR = path.join(ROOT, 'test', 'fixtures', 'transcripts', 'real-shapes', 'usage');
let tmp: string;
before(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-usage-'));
  fs.mkdirSync(path.join(tmp, 'home'));
  fs.mkdirSync(path.join(tmp, 'cwd'));
});
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function read(file: string): SessionJson['session'] {
  const r = sessionCommand(['--transcript', path.join(DIR, file), '--cwd', path.join(tmp, 'cwd'), '--home', path.join(tmp, 'home'), '--json'], makeStyle(false));
  return (JSON.parse(r.output) as SessionJson).session;
}

/** USD of rates × tokens, each pair `[tokens, $ per million]` */
const usd = (...pairs: [number, number][]) => pairs.reduce((a, [t, p]) => a + t * p, 0) / 1_000_000;

interface TurnWant {
  /** the turn, found by the start of its prompt (turn segmentation is another part's) */
  prompt: string;
  requests: number;
  usage: { input: number; cacheRead: number; cacheCreation: number; output: number };
  cost: number | null;
  breakCause?: string;
  hooks?: { event: string; command: string; chars: number | null; dropped: boolean }[];
  /** the subagents and workflow agents counted under the turn (their own transcripts), in order; absent: none */
  agents?: AgentWant[];
}

interface AgentWant {
  agentId: string;
  agentType: string | null;
  workflow: string | null;
  toolUseId: string | null;
  /** the transcript, from the fixture's folder */
  transcript: string;
  requests: number;
  usage: { input: number; cacheRead: number; cacheCreation: number; output: number };
  cost: number | null;
}

interface Case {
  file: string;
  version: string;
  turns: TurnWant[];
  window: number;
  autoCompactAt: number | null;
  /** a word the threshold's reason holds */
  autoWhy?: RegExp;
  check?: (s: SessionJson['session']) => void;
}

const CASES: Case[] = [
  {
    file: '01-1.0.17-multi-request.jsonl',
    version: '1.0.17',
    turns: [
      {
        prompt: 'Where is the config loader?',
        requests: 3,
        usage: { input: 15, cacheRead: 24_300, cacheCreation: 12_500, output: 290 },
        cost: usd([4, 3], [12_000, 3.75], [80, 15]) + usd([6, 3], [12_000, 0.3], [300, 3.75], [60, 15]) + usd([5, 3], [12_300, 0.3], [200, 3.75], [150, 15]),
      },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    autoWhy: /older than every profile/,
  },
  {
    file: '02-1.0.44-synthetic.jsonl',
    version: '1.0.44',
    turns: [
      { prompt: 'Summarise the README', requests: 1, usage: { input: 3, cacheRead: 0, cacheCreation: 9_000, output: 400 }, cost: usd([3, 15], [9_000, 18.75], [400, 75]) },
      { prompt: 'Thanks. Shorter?', requests: 1, usage: { input: 8, cacheRead: 9_000, cacheCreation: 420, output: 50 }, cost: usd([8, 15], [9_000, 1.5], [420, 18.75], [50, 75]) },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
  },
  {
    file: '03-1.0.98-model-switch.jsonl',
    version: '1.0.98',
    turns: [
      { prompt: 'List the TODOs', requests: 2, usage: { input: 9, cacheRead: 20_000, cacheCreation: 20_150, output: 160 }, cost: usd([4, 3], [20_000, 3.75], [70, 15]) + usd([5, 3], [20_000, 0.3], [150, 3.75], [90, 15]) },
      { prompt: 'Now plan the retry', requests: 1, usage: { input: 6, cacheRead: 0, cacheCreation: 20_400, output: 500 }, cost: usd([6, 15], [20_400, 18.75], [500, 75]), breakCause: 'model' },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
  },
  {
    file: '04-2.0.14-pause.jsonl',
    version: '2.0.14',
    turns: [
      { prompt: 'Run the tests', requests: 2, usage: { input: 7, cacheRead: 30_000, cacheCreation: 30_120, output: 100 }, cost: usd([3, 3], [30_000, 3.75], [60, 15]) + usd([4, 3], [30_000, 0.3], [120, 3.75], [40, 15]) },
      { prompt: 'And the lint?', requests: 1, usage: { input: 6, cacheRead: 0, cacheCreation: 30_200, output: 40 }, cost: usd([6, 3], [30_200, 3.75], [40, 15]), breakCause: 'pause' },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => assert.match(s.turns.find((t) => t.prompt === 'And the lint?')!.cache!.break!.why, /6 min without a request, longer than the cache's life \(5 minutes\)/),
  },
  {
    file: '05-2.0.76-stop-hook-summary.jsonl',
    version: '2.0.76',
    turns: [
      {
        prompt: 'Bump the version',
        requests: 2,
        usage: { input: 5, cacheRead: 15_000, cacheCreation: 15_090, output: 50 },
        cost: usd([2, 5], [15_000, 6.25], [30, 25]) + usd([3, 5], [15_000, 0.5], [90, 6.25], [20, 25]),
        hooks: [{ event: 'Stop', command: 'node ~/.claude/hooks/notify.js', chars: null, dropped: false }],
      },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
  },
  {
    file: '06-2.1.12-hook-progress.jsonl',
    version: '2.1.12',
    turns: [
      {
        prompt: 'Build it',
        requests: 2,
        usage: { input: 5, cacheRead: 18_000, cacheCreation: 18_100, output: 65 },
        cost: usd([2, 5], [18_000, 6.25], [40, 25]) + usd([3, 5], [18_000, 0.5], [100, 6.25], [25, 25]),
        hooks: [
          { event: 'SessionStart', command: 'bash .claude/hooks/start.sh', chars: null, dropped: false },
          { event: 'PostToolUse', command: 'node .claude/hooks/after-bash.js', chars: null, dropped: false },
        ],
      },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => assert.deepEqual(s.unknownTypes, {}, 'progress records are known: hook runs kept, the rest dropped'),
  },
  {
    file: '07-2.1.19-auto-compact-opus-4-5.jsonl',
    version: '2.1.19',
    turns: [
      {
        prompt: 'Refactor the storage layer',
        requests: 4,
        usage: { input: 18, cacheRead: 40_000, cacheCreation: 176_563, output: 1_900 },
        cost: usd([5, 5], [40_000, 6.25], [900, 25]) + usd([4, 5], [40_000, 0.5], [115_563, 6.25], [700, 25]) + usd([9, 5], [21_000, 6.25], [300, 25]),
        breakCause: 'compaction',
      },
      { prompt: 'Good, commit it', requests: 1, usage: { input: 4, cacheRead: 21_000, cacheCreation: 200, output: 80 }, cost: usd([4, 5], [21_000, 0.5], [200, 6.25], [80, 25]) },
    ],
    window: 200_000,
    autoCompactAt: 155_577,
    autoWhy: /at most 155,577: this session compacted on its own/,
  },
  {
    file: '08-2.1.31-auto-compact-sonnet-4-6.jsonl',
    version: '2.1.31',
    turns: [
      {
        prompt: 'Refactor the storage layer',
        requests: 4,
        usage: { input: 18, cacheRead: 40_000, cacheCreation: 188_888, output: 1_900 },
        cost: usd([5, 3], [40_000, 3.75], [900, 15]) + usd([4, 3], [40_000, 0.3], [127_888, 3.75], [700, 15]) + usd([9, 3], [21_000, 3.75], [300, 15]),
        breakCause: 'compaction',
      },
      { prompt: 'Good, commit it', requests: 1, usage: { input: 4, cacheRead: 21_000, cacheCreation: 200, output: 80 }, cost: usd([4, 3], [21_000, 0.3], [200, 3.75], [80, 15]) },
    ],
    window: 200_000,
    // 2.1.235's rule gives 167,000, which this session's compaction at 167,902 does not contradict
    autoCompactAt: 167_000,
  },
  {
    file: '09-2.1.45-auto-compact-haiku-4-5.jsonl',
    version: '2.1.45',
    turns: [
      {
        prompt: 'Refactor the storage layer',
        requests: 4,
        usage: { input: 18, cacheRead: 40_000, cacheCreation: 199_130, output: 1_900 },
        // 1-hour cache writes at $2, not the 5-minute $1.25
        cost: usd([5, 1], [40_000, 2], [900, 5]) + usd([4, 1], [40_000, 0.1], [138_130, 2], [700, 5]) + usd([9, 1], [21_000, 2], [300, 5]),
        breakCause: 'compaction',
      },
      { prompt: 'Good, commit it', requests: 1, usage: { input: 4, cacheRead: 21_000, cacheCreation: 200, output: 80 }, cost: usd([4, 1], [21_000, 0.1], [200, 2], [80, 5]) },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => assert.doesNotMatch(s.next.context!.autoCompactWhy ?? '', /never|not to compact/, 'a model that compacted in this very session is never said not to'),
  },
  {
    file: '10-2.1.50-one-million.jsonl',
    version: '2.1.50',
    turns: [
      {
        prompt: 'Read the whole log',
        requests: 2,
        usage: { input: 13, cacheRead: 150_000, cacheCreation: 294_940, output: 800 },
        cost: usd([6, 3], [150_000, 6], [200, 15]) + usd([7, 3], [150_000, 0.3], [144_940, 6], [600, 15]),
      },
    ],
    window: 1_000_000,
    autoCompactAt: 967_000,
    check: (s) => {
      const c = s.next.context!;
      assert.equal(c.tokens, 294_947);
      assert.ok(c.fraction <= 1 && Math.abs(c.fraction - 0.294947) < 1e-9, `fraction ${c.fraction}`);
      assert.match(c.windowWhy ?? '', /usage reached 294,947 tokens, past 200,000: a 1M context/);
    },
  },
  {
    file: '11-2.1.74-progress-and-compact.jsonl',
    version: '2.1.74',
    turns: [
      {
        prompt: 'Explain the retry policy',
        requests: 1,
        usage: { input: 3, cacheRead: 0, cacheCreation: 50_000, output: 400 },
        cost: usd([3, 3], [50_000, 3.75], [400, 15]),
        hooks: [
          { event: 'SessionStart', command: 'uv run hooks/session_start.py', chars: null, dropped: false },
          { event: 'UserPromptSubmit', command: 'uv run hooks/prompt_log.py', chars: null, dropped: false },
          { event: 'Stop', command: 'uv run hooks/stop_log.py', chars: null, dropped: false },
        ],
      },
      { prompt: 'Now make it six times', requests: 1, usage: { input: 4, cacheRead: 0, cacheCreation: 12_000, output: 120 }, cost: usd([4, 3], [12_000, 3.75], [120, 15]), breakCause: 'compaction' },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
  },
  {
    file: '12-2.1.101-hook-attachments.jsonl',
    version: '2.1.101',
    turns: [
      {
        prompt: 'Add a test for parseArgs',
        requests: 2,
        usage: { input: 7, cacheRead: 25_000, cacheCreation: 25_350, output: 360 },
        cost: usd([3, 5], [25_000, 10], [300, 25]) + usd([4, 5], [25_000, 0.5], [350, 10], [60, 25]),
        hooks: [
          // the SessionStart hook's success and its additional context are one run
          { event: 'SessionStart', command: '~/.claude/hooks/rules.sh', chars: 612, dropped: false },
          { event: 'UserPromptSubmit', command: 'python3 hooks/ticket.py', chars: 0, dropped: true },
          // a PostToolUse hook's plain output is recorded, never sent (measured on 2.1.235 to 2.1.335: sess_event_hooks_post)
          { event: 'PostToolUse', command: 'npx prettier --write', chars: 0, dropped: true },
          // a hook's systemMessage is shown to the user, never sent (measured on 2.1.235 and 2.1.336)
          { event: 'PostToolUse', command: '', chars: 0, dropped: true },
        ],
      },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
  },
  {
    file: '13-2.1.120-mcp-deltas.jsonl',
    version: '2.1.120',
    turns: [
      { prompt: 'File a ticket', requests: 2, usage: { input: 7, cacheRead: 33_000, cacheCreation: 33_080, output: 230 }, cost: usd([4, 5], [33_000, 10], [200, 25]) + usd([3, 5], [33_000, 0.5], [80, 10], [30, 25]) },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => {
      assert.deepEqual(s.mcp, [
        { server: 'claude.ai Linear', instructionsChars: 79, deferredTools: ['mcp__claude_ai_Linear__create_issue', 'mcp__claude_ai_Linear__list_issues'], loadedToolChars: null },
        { server: 'plugin:acme:tracker', instructionsChars: 67, deferredTools: ['mcp__plugin_acme_tracker__status'], loadedToolChars: null },
      ]);
      assert.deepEqual(s.listings.deferredBuiltIn, ['WebFetch', 'NotebookEdit']);
      assert.ok(s.breakdown!.layers.some((l) => l.layer === 'MCP server instructions' && l.chars === 146 && l.derived));
    },
  },
  {
    file: '14-2.1.144-agents-skills.jsonl',
    version: '2.1.144',
    turns: [{ prompt: 'Review my diff', requests: 1, usage: { input: 5, cacheRead: 0, cacheCreation: 28_000, output: 90 }, cost: usd([5, 5], [28_000, 10], [90, 25]) }],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => {
      assert.deepEqual(s.listings.agents, { types: ['Explore', 'general-purpose', 'reviewer'], chars: ['- Explore: fast search agent', '- general-purpose: multi-step tasks', '- reviewer: reviews a diff'].join('').length });
      assert.deepEqual(s.listings.skills, { names: ['release-check', 'changelog'], count: 2, chars: 67 });
    },
  },
  {
    file: '15-2.1.156-async-hook.jsonl',
    version: '2.1.156',
    turns: [
      {
        prompt: 'What changed since yesterday?',
        requests: 1,
        usage: { input: 3, cacheRead: 0, cacheCreation: 22_000, output: 160 },
        cost: usd([3, 3], [22_000, 6], [160, 15]),
        hooks: [
          { event: 'UserPromptSubmit', command: '', chars: 34, dropped: false },
          // an async hook's answer: its systemMessage (and additionalContext) as sent, not the JSON (measured on 2.1.235 to 2.1.336)
          { event: 'Stop', command: '', chars: 'notes saved'.length, dropped: false },
        ],
      },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
  },
  {
    file: '16-2.1.181-derived-breakdown.jsonl',
    version: '2.1.181',
    turns: [
      { prompt: 'Read the changelog', requests: 2, usage: { input: 7, cacheRead: 20_000, cacheCreation: 21_100, output: 90 }, cost: usd([3, 5], [20_000, 10], [40, 25]) + usd([4, 5], [20_000, 0.5], [1_100, 10], [50, 25]) },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => {
      const b = s.breakdown!;
      assert.equal(b.tokensPerChar.from, 'session');
      // the context grew by 21,104 − 20,003 tokens over the characters recorded between the two answers
      const between = 'c'.repeat(4000).length + JSON.stringify({ file_path: '/home/dev/projects/lantern/CHANGELOG.md' }).length + 'Docs are written in British English.'.length;
      assert.ok(Math.abs(b.tokensPerChar.value - (21_104 - 20_003) / between) < 1e-9, `ratio ${b.tokensPerChar.value}`);
      assert.ok(b.layers.every((l) => l.derived), 'every figure of the breakdown is marked derived');
      const sys = b.layers.find((l) => l.layer === 'system prompt, tools and startup instructions')!;
      assert.equal(sys.chars, null);
      assert.ok(sys.tokens! > 19_000 && sys.tokens! < 20_003, `system and tools ${sys.tokens}`);
      assert.ok(b.layers.some((l) => l.layer === 'nested memory (lazy instructions)' && l.chars === 36));
      assert.ok(b.layers.some((l) => l.layer === 'skills listing' && l.chars === 33));
    },
  },
  {
    file: '22-2.1.81-long-result.jsonl',
    version: '2.1.81',
    turns: [
      { prompt: 'Read the design notes', requests: 2, usage: { input: 7, cacheRead: 20_000, cacheCreation: 23_700, output: 100 }, cost: usd([3, 5], [20_000, 10], [40, 25]) + usd([4, 5], [20_000, 0.5], [3_700, 10], [60, 25]) },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => {
      const b = s.breakdown!;
      // a result past LONG_TEXT is kept as its length (droppedLength): that length counts, not the emptied text; before,
      // it counted 0 and the ratio (growth over a few characters) was past 1 token per character, or near it in real
      // sessions (0.7 to 0.99 on 2.1.81 to 2.1.237, the system prompt's layer squeezed to 0)
      const between = JSON.stringify({ file_path: '/home/dev/projects/lantern/docs/design.md' }).length + 14_000;
      assert.equal(b.tokensPerChar.from, 'session');
      assert.ok(Math.abs(b.tokensPerChar.value - (23_704 - 20_003) / between) < 1e-9, `ratio ${b.tokensPerChar.value}`);
      assert.ok(b.layers.some((l) => l.layer === 'conversation' && l.chars! >= 14_000), JSON.stringify(b.layers));
      const sys = b.layers.find((l) => l.layer === 'system prompt, tools and startup instructions')!;
      assert.ok(sys.tokens! > 19_000 && sys.tokens! < 20_003, `system and tools ${sys.tokens}`);
    },
  },
  {
    file: '23-2.1.231-thinking-unrecorded.jsonl',
    version: '2.1.231',
    turns: [
      {
        prompt: 'Why does the lamp flicker?',
        requests: 3,
        usage: { input: 11, cacheRead: 43_250, cacheCreation: 24_100, output: 2_130 },
        cost: usd([3, 5], [20_000, 10], [1_240, 25]) + usd([4, 5], [20_000, 0.5], [3_250, 10], [820, 25]) + usd([4, 5], [23_250, 0.5], [850, 10], [70, 25]),
      },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => {
      const b = s.breakdown!;
      // each answer thinks without its text recorded: a pair counts the context's growth less that answer's output
      // tokens over what came after the answer (before, growth over the answer's call and the result: 0.67 here, 0.69
      // to 0.78 on real 2.1.231 and 2.1.235 sessions)
      assert.equal(b.tokensPerChar.from, 'session');
      const want = (23_254 - 20_003 - 1_240 + (24_104 - 23_254 - 820)) / (6_000 + 'src/lamp.ts:12: pwm.write(duty)'.length);
      assert.ok(Math.abs(b.tokensPerChar.value - want) < 1e-9, `ratio ${b.tokensPerChar.value}, want ${want}`);
      const sys = b.layers.find((l) => l.layer === 'system prompt, tools and startup instructions')!;
      assert.ok(sys.tokens! > 19_000 && sys.tokens! < 20_003, `system and tools ${sys.tokens}`);
    },
  },
  {
    file: '19-2.1.300-rendered.jsonl',
    version: '2.1.300',
    turns: [
      { prompt: 'Read the changelog', requests: 2, usage: { input: 7, cacheRead: 20_000, cacheCreation: 21_050, output: 90 }, cost: usd([3, 5], [20_000, 10], [40, 25]) + usd([4, 5], [20_000, 0.5], [1_050, 10], [50, 25]) },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => {
      const b = s.breakdown!;
      // the attachments' recorded text (`rendered`) counts: the startup block on its own, the date and environment
      const startup = `<system-reminder>\nContents of /home/dev/projects/lantern/CLAUDE.md (project instructions, checked into the codebase):\n\n${'Keep functions small. '.repeat(20)}\n</system-reminder>`;
      assert.deepEqual(b.layers.find((l) => l.layer === 'startup instructions')?.chars, startup.length);
      assert.deepEqual(b.layers.find((l) => l.layer === "Claude Code's other texts")?.chars, "<system-reminder>\nToday's date is 2026-10-01.\n</system-reminder>".length + 300);
      // so the first request's remainder is the system prompt and tools alone
      const sys = b.layers.find((l) => l.layer === 'system prompt and tools');
      assert.ok(sys && sys.chars === null && sys.tokens! > 19_000 && sys.tokens! < 20_003, JSON.stringify(b.layers));
      assert.ok(!b.layers.some((l) => l.layer === 'system prompt, tools and startup instructions'));
    },
  },
  {
    file: '17-2.1.332-unpriced.jsonl',
    version: '2.1.332',
    turns: [{ prompt: 'Hello', requests: 1, usage: { input: 3, cacheRead: 0, cacheCreation: 9_000, output: 20 }, cost: null }],
    window: 1_000_000,
    autoCompactAt: null,
    check: (s) => {
      assert.equal(s.cost, null);
      assert.deepEqual(s.unpriced, ['claude-lyric-9']);
    },
  },
  {
    file: '18-2.1.333-tools-changed.jsonl',
    version: '2.1.333',
    turns: [
      {
        prompt: 'Where is the docs index?',
        requests: 2,
        usage: { input: 11, cacheRead: 2_000, cacheCreation: 59_500, output: 70 },
        cost: usd([5, 4], [30_000, 8], [40, 20]) + usd([6, 4], [2_000, 0.2], [29_500, 8], [30, 20]),
        breakCause: 'tools-or-system',
      },
    ],
    window: 1_000_000,
    autoCompactAt: null,
    check: (s) => {
      assert.equal(s.source, 'requests');
      assert.equal(s.breakdown, null, 'a version that records its requests needs no derived breakdown');
      const docs = s.mcp.find((m) => m.server === 'docs')!;
      assert.equal(docs.loadedToolChars, JSON.stringify({ name: 'mcp__docs__search', description: 'Searches the docs', input_schema: { type: 'object' } }).length);
    },
  },
  {
    file: '20-2.1.167-workflow.jsonl',
    version: '2.1.167',
    turns: [
      {
        prompt: 'Survey every lantern plugin in a workflow',
        requests: 2,
        usage: { input: 7, cacheRead: 20_000, cacheCreation: 20_500, output: 360 },
        cost: usd([3, 5], [20_000, 10], [300, 25]) + usd([4, 5], [20_000, 0.5], [500, 10], [60, 25]),
        // the run the Workflow call started, though its second agent started while turn 2 ran
        agents: [
          {
            agentId: 'a1f00d0000000aaa1',
            agentType: 'workflow-subagent',
            workflow: 'wf_1a2b3c4d-5e6',
            toolUseId: 'toolu_20W',
            transcript: '20-2.1.167-workflow/subagents/workflows/wf_1a2b3c4d-5e6/agent-a1f00d0000000aaa1.jsonl',
            requests: 2,
            usage: { input: 12_020, cacheRead: 15_000, cacheCreation: 3_400, output: 370 },
            cost: usd([12_000, 3], [3_000, 3.75], [120, 15]) + usd([20, 3], [15_000, 0.3], [400, 3.75], [250, 15]),
          },
          {
            agentId: 'a1f00d0000000bbb2',
            agentType: 'workflow-subagent',
            workflow: 'wf_1a2b3c4d-5e6',
            toolUseId: 'toolu_20W',
            transcript: '20-2.1.167-workflow/subagents/workflows/wf_1a2b3c4d-5e6/agent-a1f00d0000000bbb2.jsonl',
            requests: 1,
            usage: { input: 9_000, cacheRead: 0, cacheCreation: 2_000, output: 80 },
            cost: usd([9_000, 3], [2_000, 3.75], [80, 15]),
          },
        ],
      },
      {
        prompt: 'Meanwhile, what does --dry-run print?',
        requests: 3,
        usage: { input: 18, cacheRead: 62_500, cacheCreation: 750, output: 200 },
        cost: usd([5, 5], [20_500, 0.5], [400, 10], [90, 25]) + usd([6, 5], [20_900, 0.5], [200, 10], [70, 25]) + usd([7, 5], [21_100, 0.5], [150, 10], [40, 25]),
        agents: [
          {
            agentId: 'a7e5c0ffee0123456',
            agentType: 'Explore',
            workflow: null,
            toolUseId: 'toolu_20G',
            transcript: '20-2.1.167-workflow/subagents/agent-a7e5c0ffee0123456.jsonl',
            requests: 2,
            usage: { input: 8_030, cacheRead: 9_000, cacheCreation: 1_100, output: 100 },
            cost: usd([8_000, 1], [1_000, 1.25], [60, 5]) + usd([30, 1], [9_000, 0.1], [100, 1.25], [40, 5]),
          },
          {
            agentId: 'a0b0c0d0e0f001122',
            agentType: 'workflow-subagent',
            workflow: 'wf_9f8e7d6c-b5a',
            toolUseId: null,
            transcript: '20-2.1.167-workflow/subagents/workflows/wf_9f8e7d6c-b5a/agent-a0b0c0d0e0f001122.jsonl',
            requests: 1,
            usage: { input: 5_000, cacheRead: 0, cacheCreation: 500, output: 30 },
            cost: usd([5_000, 3], [500, 3.75], [30, 15]),
          },
        ],
      },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => {
      // the session sums its main loop and the four agents that wrote (the empty file and the run's journal are no agent)
      assert.equal(s.agents.files, 4);
      assert.equal(s.agents.requests, 6);
      assert.deepEqual(s.agents.usage, { input: 34_050, cacheRead: 24_000, cacheCreation: 7_000, output: 580 });
      assert.deepEqual(s.totals, { requests: 11, usage: { input: 34_075, cacheRead: 106_500, cacheCreation: 28_250, output: 1_140 } });
      // the Agent call's subagent named by the call's result (toolUseResult.agentId): its transcript is the call's
      const explore = s.turns[1]!.calls.find((c) => c.name === 'Agent')!;
      assert.equal(explore.agent?.transcript, path.join(DIR, '20-2.1.167-workflow/subagents/agent-a7e5c0ffee0123456.jsonl'));
      // the window is the main loop's: an agent's larger context does not move it
      assert.equal(s.next.context?.tokens, 7 + 21_100 + 150);
    },
  },
  {
    // 2.0.x: subagents' transcripts beside the sessions (`<project>/agent-ID.jsonl`), this session's by the session
    // their records name: the startup's Warmup agent in turn 1, the Task call's subagent by its result; another
    // session's agent in the same folder is not counted
    file: '21-2.0.64-project/21a6e064-0000-4000-8000-000000000021.jsonl',
    version: '2.0.64',
    turns: [
      {
        prompt: 'Where do the lantern presets live?',
        requests: 2,
        usage: { input: 16, cacheRead: 18_000, cacheCreation: 18_300, output: 120 },
        cost: usd([10, 5], [18_000, 6.25], [80, 25]) + usd([6, 5], [18_000, 0.5], [300, 6.25], [40, 25]),
        agents: [
          {
            agentId: '0a0a0a21',
            agentType: null,
            workflow: null,
            toolUseId: null,
            transcript: '21-2.0.64-project/agent-0a0a0a21.jsonl',
            requests: 1,
            usage: { input: 2_000, cacheRead: 0, cacheCreation: 9_000, output: 20 },
            cost: usd([2_000, 1], [9_000, 1.25], [20, 5]),
          },
          {
            agentId: '5eed0a21',
            agentType: null,
            workflow: null,
            toolUseId: 'toolu_21T',
            transcript: '21-2.0.64-project/agent-5eed0a21.jsonl',
            requests: 2,
            usage: { input: 3_020, cacheRead: 5_000, cacheCreation: 2_100, output: 80 },
            cost: usd([3_000, 1], [2_000, 1.25], [50, 5]) + usd([20, 1], [5_000, 0.1], [100, 1.25], [30, 5]),
          },
        ],
      },
    ],
    window: 200_000,
    autoCompactAt: 167_000,
    check: (s) => {
      assert.equal(s.agents.files, 2, 'the other session\'s agent beside it is not this session\'s');
      assert.equal(s.agents.requests, 3);
    },
  },
];

const close = (a: number | null | undefined, b: number | null, what: string) => {
  if (b === null) return assert.equal(a, null, what);
  assert.ok(typeof a === 'number' && Math.abs(a - b) < 1e-9, `${what}: ${a} ≠ ${b}`);
};

describe('real-shaped transcripts: requests, usage, cost, cache, window, layers (session --json)', () => {
  test('the corpus covers at least 18 fixtures across at least 10 versions from 1.0.x to 2.1.33x', () => {
    const top = fs.readdirSync(DIR);
    const files = top.filter((f) => f.endsWith('.jsonl'));
    // a project folder of its own (sessions beside their agents' transcripts): its sessions, not a session's folder
    for (const d of top) if (fs.statSync(path.join(DIR, d)).isDirectory() && !top.includes(`${d}.jsonl`)) files.push(...fs.readdirSync(path.join(DIR, d)).filter((f) => f.endsWith('.jsonl') && !f.startsWith('agent-')).map((f) => `${d}/${f}`));
    assert.deepEqual(files.sort(), CASES.map((c) => c.file).sort(), 'every fixture has its case');
    assert.ok(CASES.length >= 18);
    const versions = new Set(CASES.map((c) => c.version));
    assert.ok(versions.size >= 10 && [...versions].some((v) => v.startsWith('1.0.')) && [...versions].some((v) => /^2\.1\.33\d$/.test(v)));
  });
  for (const c of CASES) {
    test(`${c.file}`, () => {
      const s = read(c.file);
      assert.equal(s.version, c.version);
      assert.deepEqual(s.problems, []);
      let total = 0;
      for (const w of c.turns) {
        const t = s.turns.find((x) => x.prompt.startsWith(w.prompt));
        assert.ok(t, `turn "${w.prompt}" in ${JSON.stringify(s.turns.map((x) => x.prompt))}`);
        assert.equal(t.requests, w.requests, `${w.prompt}: requests`);
        assert.deepEqual(t.usage, w.usage, `${w.prompt}: usage`);
        close(t.cost, w.cost, `${w.prompt}: cost`);
        if (w.cost !== null) total += w.cost;
        assert.equal(t.cache?.break?.cause, w.breakCause, `${w.prompt}: cache break ${JSON.stringify(t.cache?.break)}`);
        const ctx = w.usage.input + w.usage.cacheRead + w.usage.cacheCreation;
        close(t.cache?.hitRatio, ctx ? w.usage.cacheRead / ctx : null, `${w.prompt}: hit ratio`);
        if (w.hooks) assert.deepEqual(t.hooks, w.hooks, `${w.prompt}: hooks`);
        const agents = t.agents ?? [];
        assert.deepEqual(
          agents.map(({ cost: _, transcript, ...a }) => ({ ...a, transcript: path.relative(DIR, transcript) })),
          (w.agents ?? []).map(({ cost: _, ...a }) => a),
          `${w.prompt}: agents`,
        );
        agents.forEach((a, i) => close(a.cost, w.agents![i]!.cost, `${w.prompt}: agent ${a.agentId} cost`));
        // the session's cost holds its agents' too
        for (const a of w.agents ?? []) if (a.cost !== null) total += a.cost;
      }
      // turns with no request of their own (a local command) add nothing
      for (const t of s.turns) if (!c.turns.some((w) => t.prompt.startsWith(w.prompt))) assert.equal(t.cost ?? 0, 0, `${t.prompt}: no cost`);
      close(s.cost, c.turns.every((w) => w.cost === null) ? null : total, 'session cost');
      const cx = s.next.context!;
      assert.equal(cx.window, c.window, `window (${cx.windowWhy})`);
      assert.equal(cx.autoCompactAt, c.autoCompactAt, `auto-compaction (${cx.autoCompactWhy})`);
      if (c.autoWhy) assert.match(cx.autoCompactWhy ?? '', c.autoWhy);
      assert.ok(cx.fraction >= 0 && cx.fraction <= 1);
      c.check?.(s);
    });
  }
});

describe("subagents' and workflow agents' own transcripts", () => {
  const WF = '20-2.1.167-workflow';
  const AGENT = `${WF}/subagents/workflows/wf_1a2b3c4d-5e6/agent-a1f00d0000000bbb2.jsonl`;
  /** the fixture copied, to be changed */
  const copy = (): string => {
    const to = fs.mkdtempSync(path.join(tmp, 'wf-'));
    fs.cpSync(path.join(DIR, `${WF}.jsonl`), path.join(to, `${WF}.jsonl`));
    fs.cpSync(path.join(DIR, WF), path.join(to, WF), { recursive: true });
    return to;
  };
  const agentOf = (s: ReturnType<typeof readLiveSession>, id: string) => s.turns.flatMap((t) => t.agents ?? []).find((a) => a.agentId === id);

  test('the text shows the session cost with its agents, each run under its Workflow call and each agent on its own line', () => {
    const out = sessionCommand(['--transcript', path.join(DIR, `${WF}.jsonl`), '--cwd', path.join(tmp, 'cwd'), '--home', path.join(tmp, 'home')], makeStyle(false)).output;
    assert.match(out.split('\n')[0]!, / · \$0\.391 \(with 4 agents \$0\.123\) · /);
    assert.match(out, /\n {2}Workflow Survey plugins → workflow wf_1a2b3c4d-5e6: 2 agents, 3 requests, \$0\.095\n {4}agent a1f00d0000000aaa1 \(workflow wf_1a2b3c4d-5e6\): 2 requests · 12,020 in \+ 15,000 cache read \+ 3,400 cache write, 370 out · \$0\.059\n {4}agent a1f00d0000000bbb2 /);
    assert.match(out, /\n {2}Agent Explore → subagent Explore: no instruction file\n {4}agent a7e5c0ffee0123456 \(Explore\): 2 requests · /);
    // a run no call names: under the turn, not under a call
    assert.match(out, /\n {2}agent a0b0c0d0e0f001122 \(workflow wf_9f8e7d6c-b5a\): 1 request · 5,000 in \+ 0 cache read \+ 500 cache write, 30 out · \$0\.017\n/);
  });

  test("a line of an agent's transcript that is not JSON is a problem of that file, with its line; the rest is counted", () => {
    const to = copy();
    fs.appendFileSync(path.join(to, AGENT), '{"type":"assistant","message":\n');
    const s = readLiveSession(nodeFileAccess, path.join(to, `${WF}.jsonl`), NEWEST_PROFILE);
    const lines = fs.readFileSync(path.join(DIR, AGENT), 'utf8').split('\n').length;
    assert.deepEqual(s.problems, [{ line: lines, reason: 'not JSON', file: path.join(to, AGENT) }]);
    assert.equal(agentOf(s, 'a1f00d0000000bbb2')?.requests, 1);
    const r = sessionCommand(['--transcript', path.join(to, `${WF}.jsonl`), '--cwd', path.join(tmp, 'cwd'), '--home', path.join(tmp, 'home')], makeStyle(false));
    assert.match(r.output, new RegExp(`\n {2}agent-a1f00d0000000bbb2\.jsonl line ${lines}: not JSON\n`));
  });

  test("an agent's transcript past the bound is not read: a problem naming it, as the session's own file would be", () => {
    const big = path.join(DIR, AGENT);
    const asked: number[] = [];
    const fa: FileAccess = {
      ...nodeFileAccess,
      readFile: (p, max) => {
        if (p !== big) return nodeFileAccess.readFile(p, max);
        asked.push(max);
        return { ok: false, code: 'EFBIG', message: 'file is 300000000 bytes' };
      },
    };
    const s = readLiveSession(fa, path.join(DIR, `${WF}.jsonl`), NEWEST_PROFILE);
    assert.deepEqual(asked, [256 * 1024 * 1024]);
    assert.deepEqual(s.problems, [{ line: 0, file: big, reason: `cannot read ${big}: file is 300000000 bytes, past the 268435456 bytes a subagent's transcript is read to` }]);
    assert.equal(agentOf(s, 'a1f00d0000000bbb2'), undefined);
    assert.equal(s.figures.agents.files, 3);
  });

  test('followed: an agent that writes again is read again (its new request counted), the others are not', () => {
    const to = copy();
    const reads: string[] = [];
    const fa: FileAccess = { ...nodeFileAccess, readFile: (p, max) => (reads.push(path.relative(to, p)), nodeFileAccess.readFile(p, max)) };
    const reader = new LiveReader(fa, path.join(to, `${WF}.jsonl`));
    const first = reader.read(NEWEST_PROFILE);
    assert.equal(first.figures.totals.requests, 11);
    reads.length = 0;
    const last = fs.readFileSync(path.join(to, AGENT), 'utf8').trim().split('\n').pop()!;
    const rec = JSON.parse(last) as { uuid: string; message: { id: string } };
    fs.appendFileSync(path.join(to, AGENT), JSON.stringify({ ...rec, uuid: 'a1f00d00-0000-4000-8000-00000000ffff', parentUuid: rec.uuid, message: { ...rec.message, id: 'msg_W2B' } }) + '\n');
    const again = reader.read(NEWEST_PROFILE);
    assert.deepEqual(reads.filter((f) => f.endsWith('.jsonl')), [AGENT]);
    assert.equal(agentOf(again, 'a1f00d0000000bbb2')?.requests, 2);
    assert.equal(again.figures.totals.requests, 12);
    assert.equal(again.turns[0]!.agents?.length, 2, 'still under the Workflow call');
  });
});

describe('prices and the managed modelPricing', () => {
  test('every dated, Bedrock and [1m] spelling finds its family; an unknown id has no price', () => {
    assert.equal(listPrice('claude-opus-4-5-20251101', NEWEST_PROFILE)?.family, 'claude-opus-4-5');
    assert.equal(listPrice('us.anthropic.claude-haiku-4-5-20251001-v1:0', NEWEST_PROFILE)?.family, 'claude-haiku-4-5');
    assert.equal(listPrice('claude-sonnet-4-5[1m]', NEWEST_PROFILE)?.family, 'claude-sonnet-4-5');
    assert.equal(listPrice('claude-opus-4-20250514', NEWEST_PROFILE)?.family, 'claude-opus-4-0');
    assert.equal(listPrice('claude-opus-5-5', NEWEST_PROFILE)?.family, 'claude-opus-5-5');
    assert.equal(listPrice('claude-opus-5', NEWEST_PROFILE)?.family, 'claude-opus-5');
    assert.equal(listPrice('claude-lyric-9', NEWEST_PROFILE), undefined);
    // every alias and measured id of the newest profile has a price, but the ones no page lists
    for (const id of [...Object.values(NEWEST_PROFILE.models.aliases), ...NEWEST_PROFILE.models.measured]) assert.ok(listPrice(id, NEWEST_PROFILE), id);
  });
  test('Haiku 5.5 is charged at its long-prompt rates past 100,000 prompt tokens', () => {
    const p = priceOf('claude-haiku-5-5', NEWEST_PROFILE)!;
    const u = (input: number) => ({ input, cacheRead: 0, cacheCreation: 0, output: 1_000, cacheWrite5m: null, cacheWrite1h: null });
    close(costOf(u(100_000), p), usd([100_000, 0.1], [1_000, 0.5]), 'at 100,000');
    close(costOf(u(100_001), p), usd([100_001, 0.5], [1_000, 2.5]), 'past it');
  });
  test('modelPricing from managed settings overrides the list (exact id, then the family) and scales by its multiplier; other layers are ignored', () => {
    const settings = (layer: 'policy' | 'user', mp: unknown) => ({ layers: [{ name: layer, path: 'x', data: { modelPricing: mp } }] }) as unknown as Settings;
    const mp = { multiplier: 0.5, overrides: { 'claude-sonnet-4-6': { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.5 }, bad: { input: 1 } } };
    const o = pricingOverride(settings('policy', mp))!;
    assert.equal(o.rows.size, 1, 'a row without its four rates is left out');
    const p = priceOf('claude-sonnet-4-6-20260101', NEWEST_PROFILE, o)!;
    assert.equal(p.from, 'modelPricing');
    const u = { input: 1_000, cacheRead: 10_000, cacheCreation: 2_000, output: 500, cacheWrite5m: 1_000, cacheWrite1h: 1_000 };
    close(costOf(u, p), usd([1_000, 1], [10_000, 0.1], [2_000, 1.5], [500, 2]) * 0.5, 'override × multiplier');
    close(costOf(u, priceOf('claude-haiku-4-5', NEWEST_PROFILE, o)!), usd([1_000, 1], [10_000, 0.1], [1_000, 1.25], [1_000, 2], [500, 5]) * 0.5, 'list price × multiplier');
    assert.equal(pricingOverride(settings('user', mp)), undefined, 'Claude Code honours it only from managed settings');
  });
});

describe('the built CLI', () => {
  const cli = path.join(ROOT, 'dist', 'cli.js');
  const run = (file: string, json: boolean) =>
    spawnSync(process.execPath, [cli, 'session', ...(json ? ['--json'] : []), '--transcript', path.join(DIR, file), '--cwd', path.join(tmp, 'cwd'), '--home', path.join(tmp, 'home')], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  test('session --json on three versions gives the same figures as the function', { skip: !fs.existsSync(cli) && 'npm run build first' }, () => {
    for (const f of ['01-1.0.17-multi-request.jsonl', '10-2.1.50-one-million.jsonl', '12-2.1.101-hook-attachments.jsonl']) {
      const r = run(f, true);
      assert.equal(r.status, 0, r.stderr);
      const s = (JSON.parse(r.stdout) as SessionJson).session;
      const want = read(f);
      assert.deepEqual(s.turns.map((t) => [t.requests, t.usage, t.cost, t.cache, t.hooks]), want.turns.map((t) => [t.requests, t.usage, t.cost, t.cache, t.hooks]));
      assert.equal(s.cost, want.cost);
      assert.deepEqual(s.next.context, want.next.context);
    }
  });
  test('the text shows per turn its requests, tokens, cost and a cache break, and the session cost in the header', { skip: !fs.existsSync(cli) && 'npm run build first' }, () => {
    const r = run('04-2.0.14-pause.jsonl', false);
    assert.equal(r.status, 0, r.stderr);
    const header = r.stdout.split('\n')[0]!;
    assert.match(header, /· \$0\.237 ·/);
    assert.match(r.stdout, /\n {2}2 requests · 7 in \+ 30,000 cache read \+ 30,120 cache write, 100 out · \$0\.123 · cache hit 50%\n/);
    assert.match(r.stdout, /\n {2}cache break at request 1: 30,120 cached tokens not read, 30,200 written again · 6 min without a request, longer than the cache's life \(5 minutes\)\n/);
    const hooks = run('12-2.1.101-hook-attachments.jsonl', false).stdout;
    assert.match(hooks, /hook UserPromptSubmit python3 hooks\/ticket\.py: 0 chars to the model · output dropped/);
    const mcp = run('13-2.1.120-mcp-deltas.jsonl', false).stdout;
    assert.match(mcp, /MCP claude\.ai Linear: instructions 79 chars · 2 deferred tool\(s\)/);
  });
});

describe('subagents beside the sessions (versions up to 2.1.1)', () => {
  const P = '21-2.0.64-project';
  const SID = '21a6e064-0000-4000-8000-000000000021';
  test('followed: an agent file that comes beside the session later is read; a file that names no session yet is looked at again when the folder changes; the folder is not listed at every read while it rests', () => {
    const to = fs.mkdtempSync(path.join(tmp, 'proj-'));
    for (const f of [`${SID}.jsonl`, 'agent-0a0a0a21.jsonl']) fs.cpSync(path.join(DIR, P, f), path.join(to, f));
    let listed = 0;
    const fa: FileAccess = { ...nodeFileAccess, readDir: (p) => (p === to && listed++, nodeFileAccess.readDir(p)) };
    const reader = new LiveReader(fa, path.join(to, `${SID}.jsonl`));
    const agents = () => reader.read(NEWEST_PROFILE).turns.flatMap((t) => t.agents ?? []).map((a) => `${a.agentId}:${a.requests}`);
    assert.deepEqual(agents(), ['0a0a0a21:1']);
    assert.deepEqual(agents(), ['0a0a0a21:1']);
    assert.equal(listed, 1, 'the resting folder is listed once');
    // an agent file created empty (its first record not written yet), then written
    const late = path.join(to, 'agent-5eed0a21.jsonl');
    fs.writeFileSync(late, '');
    assert.deepEqual(agents(), ['0a0a0a21:1']);
    fs.writeFileSync(late, fs.readFileSync(path.join(DIR, P, 'agent-5eed0a21.jsonl')));
    // another file in the folder moves its time: the unnamed one is looked at again
    fs.writeFileSync(path.join(to, 'notes.txt'), 'x');
    fs.utimesSync(to, new Date(), new Date(Date.now() + 5000));
    assert.deepEqual(agents(), ['0a0a0a21:1', '5eed0a21:2']);
  });
});
