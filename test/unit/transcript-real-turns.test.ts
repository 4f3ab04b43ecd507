// Real-shaped transcripts (issue 31, part A): turns as a user lived them, across Claude Code 1.0.17 to
// 2.1.333. Each fixture of test/fixtures/transcripts/real-shapes/turns/ (our own content, the record
// structure real transcripts have; written by generate.mjs there) is read through the function the CLI
// uses (sessionJson) and, for a few, through the built CLI itself; each has its expected turns (kind,
// prompt label, tool_use ids), marks (local commands, interrupts, rewinds, compactions, resumes) and the
// time it ended (its last record's own time).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from '../../src/cli/args.js';
import { engineOptions } from '../../src/cli/engine-options.js';
import { sessionJson, sessionText, type SessionJson } from '../../src/cli/session-command.js';
import { makeStyle } from '../../src/cli/style.js';
import { memoryKey } from '../../src/engine/memory/memory.js';
import { isRunning, RUNNING_MS } from '../../src/engine/transcript/session.js';
import { run } from '../cli/helpers.js';

const DIR = path.join(__dirname, '..', 'fixtures', 'transcripts', 'real-shapes', 'turns');
const plain = makeStyle(false);
const HOME = fs.mkdtempSync(path.join(os.tmpdir(), 'ccl-real-turns-'));
after(() => fs.rmSync(HOME, { recursive: true, force: true }));

type TurnRow = [kind: string, prompt: string, callIds: string[], markKinds: string[]];
interface Case {
  file: string;
  endedAt: string;
  /** marks before the first turn */
  marks?: string[];
  /** more than one version wrote it */
  versions?: string[];
  turns: TurnRow[];
}

const CASES: Case[] = [
  { file: "a9e7c0de-0000-4000-8000-000000000074.jsonl", endedAt: "2026-03-12T08:59:35.000Z",
    turns: [
      ["prompt", "where is the station list loaded?", ["toolu_01Ag26"], []],
    ] },
  { file: "ansi-local-2.1.212.jsonl", endedAt: "2026-07-19T05:38:03.000Z",
    turns: [
      ["prompt", "where is the heap walked?", [], ["local-command","local-command"]],
      ["prompt", "and where is it checked?", [], []],
    ] },
  { file: "auto-compact-2.1.19.jsonl", endedAt: "2026-01-24T09:01:10.000Z",
    turns: [
      ["prompt", "port the whole parser to rust", ["toolu_01Rd13","toolu_01Wr13"], ["compaction"]],
      ["prompt", "run the tests", [], []],
    ] },
  { file: "bash-mode-2.1.167.jsonl", endedAt: "2026-06-06T08:50:49.000Z",
    turns: [
      ["prompt", "summarise the exploration notes", [], ["local-command"]],
      ["prompt", "why is gc.md so short?", [], []],
    ] },
  { file: "builtin-review-2.0.76.jsonl", endedAt: "2025-12-23T09:00:49.000Z",
    turns: [
      ["command", "/review", ["toolu_01Bs27"], ["local-command"]],
    ] },
  { file: "copied-old-2.1.144.jsonl", endedAt: "2026-05-20T13:00:21.000Z",
    turns: [
      ["prompt", "summarise the open issues", [], []],
    ] },
  { file: "custom-command-1.0.44.jsonl", endedAt: "2025-07-03T08:01:03.000Z",
    turns: [
      ["command", "/review-pr 42", ["toolu_01Bs2"], []],
      ["prompt", "write the tests you suggested", ["toolu_01Wr2"], []],
    ] },
  { file: "elsewhere-2.1.181.jsonl", endedAt: "2026-06-03T09:00:42.000Z",
    turns: [
      ["prompt", "read the config and tell me the port", ["toolu_01Rd20","toolu_01Ed20"], []],
    ] },
  { file: "glued-2.1.12.jsonl", endedAt: "2026-01-15T09:00:56.000Z",
    turns: [
      ["prompt", "count the stations", ["toolu_01Bs11"], []],
      ["prompt", "and how many are active?", ["toolu_01Gr11"], []],
    ] },
  { file: "headless-local-2.1.335.jsonl", endedAt: "2026-12-03T22:01:31.000Z",
    turns: [
      ["prompt", "check the tide table", ["toolu_01Rd28"], ["local-command","local-command"]],
      ["prompt", "sort it by height", [], ["interrupt"]],
      ["prompt", "sort it by date", [], []],
    ] },
  { file: "image-only-2.0.14.jsonl", endedAt: "2025-10-09T09:30:28.000Z",
    turns: [
      ["image", "[image]", [], []],
      ["prompt", "so what failed?", [], []],
    ] },
  { file: "image-text-2.0.76.jsonl", endedAt: "2025-12-20T09:30:42.000Z",
    turns: [
      ["image", "make the header look like this +1 image", ["toolu_01Rd8"], []],
      ["image", "before and after +2 images", [], []],
    ] },
  { file: "init-1.0.88.jsonl", endedAt: "2025-08-21T14:00:49.000Z",
    turns: [
      ["command", "/init", ["toolu_01Gl3","toolu_01Wr3"], []],
    ] },
  { file: "inline-subagent-1.0.44.jsonl", endedAt: "2025-07-05T11:00:56.000Z",
    turns: [
      ["prompt", "find every caller of parseTide", ["toolu_01Tk4"], []],
    ] },
  { file: "interrupt-1.0.88.jsonl", endedAt: "2025-08-25T16:01:03.000Z",
    turns: [
      ["prompt", "rename Tide to TideEntry everywhere", ["toolu_01Gr5"], ["interrupt"]],
      ["prompt", "only in src/, not in tests", ["toolu_01Ed5"], []],
    ] },
  { file: "interrupt-model-2.1.181.jsonl", endedAt: "2026-06-04T09:00:56.000Z",
    turns: [
      ["prompt", "rewrite the README in French", [], ["interrupt","local-command"]],
      ["prompt", "rewrite the README in German", ["toolu_01Wr25"], []],
    ] },
  { file: "interrupt-tool-2.1.45.jsonl", endedAt: "2026-02-11T09:00:56.000Z",
    turns: [
      ["prompt", "run the full test suite", ["toolu_01Bs15"], ["interrupt"]],
      ["prompt", "just the unit tests", ["toolu_01Bs15b"], []],
    ] },
  { file: "leading-local-2.1.235.jsonl", endedAt: "2026-06-20T09:00:56.000Z", marks: ["local-command"],
    turns: [
      ["prompt", "what does the alerts module do?", ["toolu_01Rd21"], ["local-command"]],
    ] },
  { file: "local-commands-2.0.14.jsonl", endedAt: "2025-10-08T09:31:24.000Z", marks: ["local-command"],
    turns: [
      ["prompt", "list the open TODOs", ["toolu_01Gr6"], ["local-command"]],
      ["prompt", "resolve it", [], []],
    ] },
  { file: "manual-compact-cut-2.1.45.jsonl", endedAt: "2026-02-10T09:01:10.000Z",
    turns: [
      ["prompt", "where were we?", [], []],
      ["command", "/compact", [], ["compaction"]],
      ["prompt", "continue with the alerts", ["toolu_01Ed14"], []],
    ] },
  { file: "plan-clear-2.1.37.jsonl", endedAt: "2026-02-09T22:58:35.000Z",
    turns: [
      ["prompt", "Implement the following plan:\n\n# Plan: tide table on Sundays\n\n1. Keep day 0 in the filter.", ["toolu_01Rd33"], []],
    ] },
  { file: "plain-1.0.17.jsonl", endedAt: "2025-06-02T10:00:56.000Z",
    turns: [
      ["prompt", "why does the tide table skip Sundays?", ["toolu_01Rd1"], []],
      ["prompt", "fix it", ["toolu_01Ed1"], []],
    ] },
  { file: "plugin-command-2.1.101.jsonl", endedAt: "2026-04-02T09:01:10.000Z",
    turns: [
      ["command", "/release-tools:changelog v2.3.0", ["toolu_01Bs17","toolu_01Ed17"], []],
      ["prompt", "tag it", [], []],
    ] },
  { file: "project-command-2.1.333.jsonl", endedAt: "2026-11-30T09:01:03.000Z",
    turns: [
      ["command", "/fix-issue 118 --quick", ["toolu_01Gr22","toolu_01Mc22"], []],
      ["prompt", "commit it", [], []],
    ] },
  { file: "queued-last-2.1.167.jsonl", endedAt: "2026-06-13T06:30:31.500Z",
    turns: [
      ["prompt", "rebuild the emulator image", [], []],
    ] },
  { file: "quoted-command-2.1.167.jsonl", endedAt: "2026-06-07T08:46:14.000Z",
    turns: [
      ["prompt", "<observed>\n  <what>Bash</what>\n  <output>{\"type\":\"user\",\"message\":{\"content\":\"<command-name>/context</command-name>\\n<command-message>context</command-message>\"}}</output>\n</observed>\n\nRecord what was learned.", [], []],
    ] },
  { file: "resume-2.1.7-2.1.12.jsonl", endedAt: "2026-01-13T08:00:07.000Z", versions: ["2.1.7","2.1.12"],
    turns: [
      ["prompt", "start the migration script", ["toolu_01Wr10"], []],
      ["prompt", "carry on with the migration", [], ["resume"]],
    ] },
  { file: "rewind-2.0.76.jsonl", endedAt: "2025-12-22T10:01:24.000Z",
    turns: [
      ["prompt", "add a tide chart page", ["toolu_01Wr9"], ["rewind"]],
      ["prompt", "use SVG for the chart", ["toolu_01Ed9b"], []],
    ] },
  { file: "rewind-progress-2.1.144.jsonl", endedAt: "2026-05-21T09:01:17.000Z",
    turns: [
      ["prompt", "draft the release notes", [], ["rewind"]],
      ["prompt", "make them longer, with examples", [], []],
    ] },
  { file: "rewind-start-2.1.333.jsonl", endedAt: "2026-12-01T09:01:10.000Z",
    turns: [
      ["prompt", "move the legacy folder to archive/ instead", ["toolu_01Bs23b"], ["rewind"]],
    ] },
  { file: "unknown-command-2.0.76.jsonl", endedAt: "2026-01-01T09:30:42.000Z",
    turns: [
      ["prompt", "restart the panel", [], ["local-command"]],
      ["prompt", "resume", [], []],
    ] },
  { file: "spans-days-2.1.101.jsonl", endedAt: "2026-04-07T08:15:07.000Z",
    turns: [
      ["prompt", "profile the chart rendering", ["toolu_01Bs18"], []],
      ["prompt", "good morning: fix the layout cost", [], []],
    ] },
  { file: "synthetic-last-2.1.9.jsonl", endedAt: "2026-01-17T20:00:42.000Z",
    turns: [
      ["prompt", "list the stations without a tide gauge", ["toolu_01Gr34"], []],
      ["prompt", "and the ones with two?", [], []],
    ] },
  { file: "system-local-2.1.12.jsonl", endedAt: "2026-01-16T09:01:10.000Z",
    turns: [
      ["prompt", "explain the build", [], ["local-command","local-command"]],
      ["prompt", "now make it faster", ["toolu_01Ed12"], []],
    ] },
  { file: "a9e7c0de-0000-4000-8000-000000000074/subagents/agent-a3f29c1.jsonl", endedAt: "2026-03-12T09:00:42.000Z",
    turns: [
      ["prompt", "Find where the station list is loaded and report the file and line.", ["toolu_01Gr16","toolu_01Rd16"], []],
    ] },
  { file: "notifications-2.1.200.jsonl", endedAt: "2026-09-02T09:01:10.000Z",
    turns: [
      ["prompt", "start the dev server in the background and watch the log", ["toolu_01Bg28"], ["queued","notification","notification"]],
      ["prompt", "now run the linter", [], []],
    ] },
  { file: "caveat-plain-1.0.24.jsonl", endedAt: "2025-06-20T09:00:49.000Z",
    turns: [
      ["prompt", "what is in the config folder?", [], ["local-command"]],
      ["prompt", "summarise them", [], []],
    ] },
  { file: "stop-after-2.1.167.jsonl", endedAt: "2026-06-06T13:50:49.000Z",
    turns: [
      ["prompt", "write the heap notes", ["toolu_01Wr39"], []],
    ] },
  { file: "stop-hook-2.1.235.jsonl", endedAt: "2026-07-01T09:00:42.000Z",
    turns: [
      ["prompt", "fix the failing date test", ["toolu_01Ts30"], []],
    ] },
  { file: "compact-short-2.1.235.jsonl", endedAt: "2026-07-02T09:00:49.000Z",
    turns: [
      ["prompt", "what does tides.csv hold?", [], ["local-command"]],
      ["prompt", "add a third column", [], []],
    ] },
  { file: "notify-first-2.1.39.jsonl", endedAt: "2026-02-13T08:01:10.000Z", marks: ["local-command","notification"],
    turns: [
      ["prompt", "why did the watcher stop?", ["toolu_01Rd41"], []],
    ] },
  { file: "stop-progress-2.1.75.jsonl", endedAt: "2026-03-15T09:01:03.000Z",
    turns: [
      ["prompt", "add a test for the empty tide table", ["toolu_01Ed42"], []],
    ] },
  { file: "checkpoints-2.1.218.jsonl", endedAt: "2026-07-24T08:17:42.000Z",
    turns: [
      ["prompt", "make the tide chart legend bigger", ["toolu_01Ed45"], []],
      ["prompt", "and the axis labels too", [], []],
    ] },
  { file: "compact-typed-2.1.232.jsonl", endedAt: "2026-08-19T16:04:16.000Z",
    turns: [
      ["prompt", "where were we?", [], []],
      ["command", "/compact", [], ["compaction"]],
      ["prompt", "continue with the alerts", ["toolu_01Ed46"], []],
      ["command", "/compact", [], ["compaction"]],
      ["prompt", "run the alert tests", [], []],
    ] },
  { file: "worktree-2.1.233.jsonl", endedAt: "2026-08-15T17:00:42.000Z",
    turns: [
      ["prompt", "work on the legend in a worktree", ["toolu_01Wt47"], []],
      ["prompt", "make the legend bigger", [], []],
    ] },
  { file: "bash-answered-2.1.232.jsonl", endedAt: "2026-08-20T01:01:52.000Z",
    turns: [
      ["prompt", "!cat README.md", [], []],
      ["prompt", "summarise the build steps", ["toolu_01Rd48"], []],
      ["prompt", "!git status --short", ["toolu_01Bs48"], ["local-command"]],
      ["prompt", "now push it", [], []],
    ] },
  { file: "goal-2.1.199.jsonl", endedAt: "2026-06-28T11:26:24.000Z", marks: ["local-command"],
    turns: [
      ["command", "/goal make the tide tests pass", ["toolu_01Bs49"], []],
      ["prompt", "and the lint", [], []],
    ] },
  { file: "micro-2.1.20.jsonl", endedAt: "2026-01-28T09:01:03.000Z",
    turns: [
      ["prompt", "read every parser module and list the entry points", ["toolu_01Rd43a","toolu_01Rd43b","toolu_01Rd43c"], ["compaction"]],
    ] },
];

/** the session as `claude-layers session --json --transcript FILE --home HOME` builds it (no --cwd: the session's own folder) */
function read(file: string, extra: string[] = []): SessionJson['session'] {
  const options = engineOptions(parseArgs(['--home', HOME, ...extra], { home: { value: true }, cwd: { value: true } }));
  return sessionJson({ file, options, ...(extra[0] === '--cwd' && { cwdGiven: path.resolve(extra[1]!) }) }).session;
}

test('at least 25 fixtures across at least 12 versions from 1.0.x to 2.1.33x', () => {
  assert.ok(CASES.length >= 25, `${CASES.length} fixtures`);
  const versions = new Set<string>();
  for (const c of CASES) for (const line of fs.readFileSync(path.join(DIR, c.file), 'utf8').split('\n')) for (const m of line.matchAll(/"version":"([^"]+)"/g)) versions.add(m[1]!);
  assert.ok(versions.size >= 12, [...versions].join(', '));
  assert.ok([...versions].some((v) => v.startsWith('1.0.')) && versions.has('2.1.333'));
});

for (const c of CASES) {
  test(`${c.file}: turns, calls, marks and the end as the user lived them`, () => {
    const s = read(path.join(DIR, c.file));
    assert.deepEqual(
      s.turns.map((t): TurnRow => [t.kind, t.prompt, t.calls.map((x) => x.id), t.marks.map((m) => m.kind)]),
      c.turns,
    );
    assert.deepEqual(s.marks.map((m) => m.kind), c.marks ?? []);
    assert.equal(s.endedAt, c.endedAt);
    assert.deepEqual(s.versions, c.versions);
    assert.deepEqual(s.problems, [], 'every line read');
    // every turn's time is its prompt record's own
    const lines = fs.readFileSync(path.join(DIR, c.file), 'utf8');
    for (const t of s.turns) assert.ok(t.timestamp && lines.includes(`"timestamp":"${t.timestamp}"`), t.prompt);
    for (const t of s.turns) for (const m of t.marks) assert.ok(m.at && lines.includes(`"timestamp":"${m.at}"`), `${m.kind} at ${m.at}`);
  });
}

test('a notification answered before the first prompt (2.1.39, after /clear): its request counts in the first turn', () => {
  const s = read(path.join(DIR, 'notify-first-2.1.39.jsonl'));
  const t = s.turns[0]!;
  assert.equal(t.requests, 3);
  assert.deepEqual(t.usage, { input: 3 + 4 + 2, cacheRead: 21000 + 30000 + 30300, cacheCreation: 9000 + 300 + 100, output: 12 + 40 + 8 });
  assert.equal(s.marks[1]!.kind, 'notification');
  assert.equal(s.marks[1]!.text, 'Background command "Tide watcher" was stopped');
});

test('2.1.12 to 2.1.75: a Stop hook\'s progress record and the stop_hook_summary naming it are one run each', () => {
  const s = read(path.join(DIR, 'stop-progress-2.1.75.jsonl'));
  assert.deepEqual(s.turns[0]!.hooks!.map((h) => [h.event, h.command, h.chars]), [
    ['SessionStart', 'node .claude/hooks/start.mjs', null],
    ['PostToolUse', 'callback', null],
    ['Stop', 'node .claude/hooks/stop.mjs', null],
    ['Stop', 'callback', null],
  ]);
});

test('2.1.20: a microcompaction is a mark (trigger micro, results cleared, tokens saved) and explains the cache break after it', () => {
  const s = read(path.join(DIR, 'micro-2.1.20.jsonl'));
  const t = s.turns[0]!;
  assert.deepEqual(t.marks[0], { kind: 'compaction', at: '2026-01-28T09:00:56.000Z', trigger: 'micro', preTokens: 62000, cleared: 2, saved: 31000 });
  assert.equal(t.compacted, null, 'no summary replaced the conversation');
  assert.equal(t.cache?.break?.cause, 'compaction');
  assert.match(t.cache?.break?.why ?? '', /microcompaction/);
  const text = sessionText({ session: s }, HOME, plain);
  assert.match(text, /old tool results cleared \(microcompaction: 2 result\(s\), 31,000 tokens saved of 62,000\)/);
});

test('2.1.20 records no request: the derived breakdown counts a long tool result whole and leaves out the results a microcompaction cleared', () => {
  // the fixture as written, and a copy whose result that stays is long (past what the reader holds of one) with a reminder appended
  const fixture = path.join(DIR, 'micro-2.1.20.jsonl');
  const long = path.join(fs.mkdtempSync(path.join(HOME, 'micro-long-')), 'micro-long.jsonl');
  const body = 'export function c() {}\n'.repeat(2000) + '\n\n<system-reminder>\nA note Claude Code appends to a read.\n</system-reminder>\n';
  fs.writeFileSync(long, fs.readFileSync(fixture, 'utf8').replace('"content":"export function c() {}"', `"content":${JSON.stringify(body)}`));
  for (const file of [fixture, long]) {
    const recs = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { message?: { content?: unknown } });
    // every character the records add to the conversation, and the results of the two calls the microcompaction names
    let all = 0;
    let cleared = 0;
    for (const r of recs) {
      const c = r.message?.content;
      if (typeof c === 'string') all += c.length;
      else if (Array.isArray(c))
        for (const b of c as { type: string; text?: string; content?: string; input?: unknown; tool_use_id?: string }[]) {
          const n = b.type === 'text' ? b.text!.length : b.type === 'tool_result' ? b.content!.length : b.type === 'tool_use' ? JSON.stringify(b.input).length : 0;
          all += n;
          if (b.type === 'tool_result' && (b.tool_use_id === 'toolu_01Rd43a' || b.tool_use_id === 'toolu_01Rd43b')) cleared += n;
        }
    }
    assert.equal(cleared, 2 * 'export function a() {}'.length);
    if (file === long) assert.ok(all > body.length);
    const conversation = read(file).breakdown?.layers.find((l) => l.layer === 'conversation');
    assert.equal(conversation?.chars, all - cleared, path.basename(file));
  }
});

test('a prompt-type command: shown as /name args, its expanded text counted as the prompt\'s size', () => {
  const s = read(path.join(DIR, 'custom-command-1.0.44.jsonl'));
  assert.equal(s.turns[0]!.promptChars, 'Review pull request 42 of this repository: read the diff, list risks, suggest tests.\n\nARGUMENTS: 42'.length);
  assert.equal(s.turns[1]!.promptChars, 'write the tests you suggested'.length);
  const init = read(path.join(DIR, 'init-1.0.88.jsonl'));
  assert.ok(init.turns[0]!.promptChars > 100);
});

test('local commands and interrupts carry what they said; a rewind what the abandoned branch held', () => {
  const lc = read(path.join(DIR, 'system-local-2.1.12.jsonl'));
  assert.deepEqual(lc.turns[0]!.marks.map((m) => [m.text, m.output]), [['/model opus', 'Set model to opus (claude-opus-4-5-20251101)'], ['/plugin', '(no content)']]);
  // -p on 2.1.235 to 2.1.335 (measured by the session suite): a command the mode cannot run is written as its bare name
  const hl = read(path.join(DIR, 'headless-local-2.1.335.jsonl'));
  assert.deepEqual(hl.turns[0]!.marks.map((m) => [m.text, m.output]), [['/usage', 'Estimated cost: $0.0001'], ['/status', "/status isn't available in this environment."]]);
  // what the terminal showed, without its escape sequences (2.0.60 to 2.1.212 write them into the output)
  const ansi = read(path.join(DIR, 'ansi-local-2.1.212.jsonl'));
  assert.deepEqual(ansi.turns[0]!.marks.map((m) => [m.text, m.output]), [['/model', 'Kept model as Opus'], ['/context', 'Context Usage\n⛁ ⛶   claude-opus-4-5 · 19k/200k tokens (10%)']]);
  // bash mode (`!cmd`, 2.1.167): a mark with the command and what it printed
  const bash = read(path.join(DIR, 'bash-mode-2.1.167.jsonl'));
  assert.deepEqual(bash.turns[0]!.marks.map((m) => [m.text, m.output]), [['!wc -l docs/notes/*.md', '40 docs/notes/heap.md\n  12 docs/notes/gc.md\n  52 total']]);
  // a slash command Claude Code does not know (2.0.76: its own /rate-limit-options): a mark, not a turn
  const unknown = read(path.join(DIR, 'unknown-command-2.0.76.jsonl'));
  assert.deepEqual(unknown.turns[0]!.marks.map((m) => [m.text, m.output]), [['/rate-limit-options', 'Unknown slash command: rate-limit-options']]);
  const it = read(path.join(DIR, 'interrupt-tool-2.1.45.jsonl'));
  assert.equal(it.turns[0]!.marks[0]!.text, '[Request interrupted by user for tool use]');
  const rw = read(path.join(DIR, 'rewind-2.0.76.jsonl'));
  assert.deepEqual({ ...rw.turns[0]!.marks[0], at: undefined }, { kind: 'rewind', at: undefined, prompts: ['use canvas for the chart'], calls: 1, requests: 2 });
  const rp = read(path.join(DIR, 'rewind-progress-2.1.144.jsonl'));
  assert.deepEqual(rp.turns[0]!.marks[0]!.prompts, ['make them shorter', 'even shorter']);
  const cp = read(path.join(DIR, 'auto-compact-2.1.19.jsonl'));
  assert.deepEqual({ ...cp.turns[0]!.marks[0], at: undefined }, { kind: 'compaction', at: undefined, trigger: 'auto', preTokens: 167003, summaryChars: 143 });
  const rs = read(path.join(DIR, 'resume-2.1.7-2.1.12.jsonl'));
  assert.deepEqual([rs.turns[1]!.marks[0]!.from, rs.turns[1]!.marks[0]!.to], ['2.1.7', '2.1.12']);
  assert.match(sessionText({ session: rs }, HOME, plain), /Claude Code 2\.1\.7 → 2\.1\.12 \(resumed by another binary\)/);
});

test('a subagent\'s own transcript says so and shows its turns; its main session does not take them', () => {
  const sub = read(path.join(DIR, 'a9e7c0de-0000-4000-8000-000000000074/subagents/agent-a3f29c1.jsonl'));
  assert.deepEqual(sub.subagent, { agentId: 'a3f29c1' });
  assert.equal(sub.warnings.filter((w) => /subagent's own transcript \(agent a3f29c1\)/.test(w)).length, 1);
  // its answers are its requests (2.0.72 and 2.1.1 subagent files read 0 requests and $0 before: their records are all sidechain ones)
  assert.equal(sub.turns[0]!.requests, 3);
  assert.deepEqual(sub.turns[0]!.usage, { input: 12, cacheRead: 14300 + 14600 + 14900, cacheCreation: 3600, output: 270 });
  assert.ok(sub.cost !== null && sub.cost > 0 && sub.turns[0]!.cost === sub.cost);
  // a call without a file, skill, agent or command is named by its pattern, query, url or description
  assert.match(sessionText({ session: sub }, '/home/dev/projects/tidepool', plain), /^ {2}Grep loadStations$/m);
  const main = read(path.join(DIR, 'inline-subagent-1.0.44.jsonl'));
  assert.equal(main.subagent, undefined);
  assert.equal(main.turns.length, 1, '1.0.x inline sidechain records are not turns');
});

test('the launch folder not on this machine: said once, everything the transcript holds, nothing from another folder', () => {
  const s = read(path.join(DIR, 'elsewhere-2.1.181.jsonl'));
  assert.equal(s.cwd, '/Users/marin/work/harbour-lights');
  assert.equal(s.cwdOnDisk, false);
  assert.equal(s.warnings.filter((w) => w.includes('/Users/marin/work/harbour-lights') && /not on this machine/.test(w)).length, 1);
  assert.ok(s.turns.every((t) => t.instructions === null), 'no startup block taken from another folder');
  assert.deepEqual(s.next.held.map((h) => [h.path, h.how, h.deleted]), [['/Users/marin/work/harbour-lights/config/app.json', 'written', undefined]]);
  assert.deepEqual(s.findings, []);
  const text = sessionText({ session: s }, s.cwd, plain);
  assert.equal(text.split('not on this machine').length - 1, 1, text);
});

test('time: ended at the last record, running only when both the file and its last record are recent', () => {
  const tmp = fs.mkdtempSync(path.join(HOME, 'copied-'));
  const copy = path.join(tmp, 'copied.jsonl');
  fs.copyFileSync(path.join(DIR, 'copied-old-2.1.144.jsonl'), copy);
  const s = read(copy);
  assert.equal(s.endedAt, '2026-05-20T13:00:21.000Z');
  assert.equal(s.running, false, 'an old session copied now is not running');
  const now = Date.now();
  assert.equal(isRunning(now - 1000, new Date(now - 2000).toISOString(), now), true);
  assert.equal(isRunning(now - 1000, '2025-06-01T00:00:00.000Z', now), false);
  assert.equal(isRunning(now - RUNNING_MS - 1, new Date(now - 2000).toISOString(), now), false);
  assert.equal(isRunning(now - 1000, undefined, now), true, 'records without times: the file decides');
  const days = read(path.join(DIR, 'spans-days-2.1.101.jsonl'));
  const text = sessionText({ session: days }, HOME, plain);
  assert.match(text, /Turn 1 "profile the chart rendering" 2026-04-06 22:50:07/);
  assert.match(text, /Turn 2 "good morning: fix the layout cost" 2026-04-07 08:15:00/);
  assert.match(text, /ended 2026-04-07 08:15/);
});

test('the built CLI: session --json --transcript on real shapes, and --cwd / --list for a folder not on this machine', () => {
  for (const [file, prompts] of [
    ['glued-2.1.12.jsonl', ['count the stations', 'and how many are active?']],
    ['plugin-command-2.1.101.jsonl', ['/release-tools:changelog v2.3.0', 'tag it']],
    ['rewind-start-2.1.333.jsonl', ['move the legacy folder to archive/ instead']],
  ] as const) {
    const r = run(['session', '--json', '--transcript', path.join(DIR, file), '--home', HOME]);
    assert.equal(r.code, 0, r.stderr);
    const s = (JSON.parse(r.stdout) as SessionJson).session;
    assert.deepEqual(s.turns.map((t) => t.prompt), prompts);
    assert.ok(s.turns.every((t) => typeof t.timestamp === 'string' && Array.isArray(t.marks) && ['prompt', 'command', 'image'].includes(t.kind)));
    assert.ok(s.turns.every((t) => t.calls.every((c) => /^toolu_/.test(c.id))));
    assert.equal(typeof s.endedAt, 'string');
  }
  // a launch folder that is not on this machine: its transcripts are found by its key
  const gone = '/Users/marin/work/harbour-lights';
  const projects = path.join(HOME, '.claude', 'projects', memoryKey(gone));
  fs.mkdirSync(projects, { recursive: true });
  fs.copyFileSync(path.join(DIR, 'elsewhere-2.1.181.jsonl'), path.join(projects, '0d1e5e00-0000-4000-8000-000000000181.jsonl'));
  const list = run(['session', '--list', '--cwd', gone, '--home', HOME]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /0d1e5e00-0000-4000-8000-000000000181 {2}ended 2026-06-03 09:00/);
  assert.match(list.stdout, /\(not on this machine\)/);
  assert.doesNotMatch(list.stdout, /running/);
  const j = run(['session', '--json', '--cwd', gone, '--home', HOME]);
  assert.equal(j.code, 0, j.stderr);
  const s = (JSON.parse(j.stdout) as SessionJson).session;
  assert.equal(s.cwd, gone);
  assert.deepEqual(s.turns.map((t) => t.calls.map((c) => c.id)), [['toolu_01Rd20', 'toolu_01Ed20']]);
  assert.equal(s.warnings.filter((w) => w.includes(gone)).length, 1);
  // the transcript named as people type it: a bare FILE, or a session id (whole or its first characters)
  const bare = run(['session', '--json', path.join(projects, '0d1e5e00-0000-4000-8000-000000000181.jsonl'), '--home', HOME]);
  assert.equal(bare.code, 0, bare.stderr);
  assert.deepEqual((JSON.parse(bare.stdout) as SessionJson).session.turns.map((t) => t.prompt), s.turns.map((t) => t.prompt));
  const byId = run(['session', '--json', '0d1e5e00', '--cwd', gone, '--home', HOME]);
  assert.equal(byId.code, 0, byId.stderr);
  // (the file is named by the session id; this fixture's records carry another one)
  assert.deepEqual((JSON.parse(byId.stdout) as SessionJson).session.turns.map((t) => t.calls.map((c) => c.id)), [['toolu_01Rd20', 'toolu_01Ed20']]);
  const unknown = run(['session', 'ffff', '--cwd', gone, '--home', HOME]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /ffff is neither a file nor a session of \/Users\/marin\/work\/harbour-lights/);
  const twice = run(['session', 'a.jsonl', '--transcript', 'b.jsonl', '--home', HOME]);
  assert.equal(twice.code, 2);
  assert.match(twice.stderr, /give the transcript once/);
});

test('--check compares only what the engine models: plugin, bundled and claude.ai skills and MCP tools are listed once, never a difference', () => {
  const repo = fs.mkdtempSync(path.join(HOME, 'repo-'));
  fs.mkdirSync(path.join(repo, '.claude', 'skills', 'tidy'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.claude', 'skills', 'tidy', 'SKILL.md'), '---\nname: tidy\ndescription: Tidy the imports\n---\nSort the imports.\n');
  const base = { isSidechain: false, userType: 'external', cwd: repo, sessionId: 'c4ec0000-0000-4000-8000-000000000235', version: '2.1.235', gitBranch: 'main' };
  let n = 0;
  const at = () => new Date(Date.parse('2026-06-21T09:00:00.000Z') + 7000 * ++n).toISOString();
  const lines: unknown[] = [{ ...base, type: 'user', uuid: 'u0', parentUuid: null, timestamp: at(), message: { role: 'user', content: 'release it' } }];
  const skill = (id: string, name: string, body: string | null) => {
    lines.push({ ...base, type: 'assistant', uuid: `a-${id}`, timestamp: at(), message: { id: `msg_${id}`, role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id, name: 'Skill', input: { skill: name } }], usage: { input_tokens: 3, cache_read_input_tokens: 100, cache_creation_input_tokens: 10, output_tokens: 5 } } });
    lines.push({ ...base, type: 'user', uuid: `r-${id}`, timestamp: at(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `Launching skill: ${name}` }] } });
    if (body !== null) lines.push({ ...base, type: 'user', uuid: `m-${id}`, isMeta: true, sourceToolUseID: id, timestamp: at(), message: { role: 'user', content: [{ type: 'text', text: body }] } });
  };
  skill('toolu_01Sk1', 'release-tools:notes', 'Base directory for this skill: /home/dev/.claude/plugins/cache/release-tools/skills/notes\n\nWrite the notes.');
  skill('toolu_01Sk2', 'pdf', 'Base directory for this skill: /opt/claude/bundled/pdf\n\nRead PDFs.');
  skill('toolu_01Sk3', 'pdf', 'Base directory for this skill: /opt/claude/bundled/pdf\n\nRead PDFs.');
  skill('toolu_01Sk4', 'tidy', `Base directory for this skill: ${path.join(repo, '.claude', 'skills', 'tidy')}\n\nSort the imports.`);
  lines.push({ ...base, type: 'assistant', uuid: 'a-mcp', timestamp: at(), message: { id: 'msg_mcp', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_01Mc1', name: 'mcp__tracker__get_issue', input: { id: 7 } }] } });
  lines.push({ ...base, type: 'user', uuid: 'r-mcp', timestamp: at(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01Mc1', content: 'open' }] } });
  const file = path.join(repo, 'session.jsonl');
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const s = read(file, ['--cwd', repo]);
  assert.equal(s.cwdOnDisk, true);
  assert.deepEqual(s.findings.filter((f) => !f.explained), [], JSON.stringify(s.findings));
  assert.deepEqual(
    s.notModelled.map((m) => [m.kind, m.name, m.calls]),
    [
      ['skill', 'release-tools:notes', 1],
      ['skill', 'pdf', 2],
      ['mcp-tool', 'mcp__tracker__get_issue', 1],
    ],
  );
  const text = sessionText({ session: s }, repo, plain);
  assert.equal(text.split('\n').filter((l) => l.includes('not modelled (not compared)')).length, 1, text);
  // the built CLI: --check exits 0 on them
  const r = run(['session', '--check', '--transcript', file, '--cwd', repo, '--home', HOME]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  // a real difference says what was predicted and what came, with both sizes: the project skill's body is gone from the disk
  fs.rmSync(path.join(repo, '.claude', 'skills', 'tidy'), { recursive: true });
  fs.mkdirSync(path.join(repo, '.claude', 'skills', 'tidy'));
  fs.writeFileSync(path.join(repo, '.claude', 'skills', 'tidy', 'SKILL.md'), '---\nname: tidy\ndescription: Tidy\ndisable-model-invocation: true\n---\nSort.\n');
  const d = read(file, ['--cwd', repo]);
  const f = d.findings.find((x) => x.kind === 'skill');
  assert.ok(f, JSON.stringify(d.findings));
  assert.match(sessionText({ session: d }, repo, plain), /tidy: skill body predicted none, came \d+ chars/);
});

test('the session is the file\'s own: plan mode\'s "clear context" opens the new file with the previous session\'s last record (2.1.37 to 2.1.39), not a mark of this one', () => {
  const s = read(path.join(DIR, 'plan-clear-2.1.37.jsonl'));
  assert.equal(s.sessionId, 'c1ea0000-0000-4000-8000-000000000037');
  assert.equal(s.turns.length, 1);
  // the previous session's interrupt is not this session's mark
  assert.deepEqual(s.marks, []);
});

test('an answer Claude Code wrote itself (<synthetic>, a rate limit) is no request: the model and the context stay the last real answer\'s', () => {
  const s = read(path.join(DIR, 'synthetic-last-2.1.9.jsonl'));
  assert.equal(s.model, 'claude-opus-4-5-20251101');
  assert.equal(s.next.context?.model, 'claude-opus-4-5-20251101');
  assert.equal(s.next.context?.tokens, 4 + 1200 + 14000 + 300 * 2);
  assert.equal(s.next.context?.window, 200000);
  assert.deepEqual(s.turns.map((t) => t.requests), [2, 0]);
});

test('what Claude Code sends by itself is a mark, never a turn: a task\'s end, a prompt typed while the model worked, a blocking Stop hook', () => {
  const n = read(path.join(DIR, 'notifications-2.1.200.jsonl'));
  assert.deepEqual(n.turns[0]!.marks.map((m) => [m.kind, m.text]), [
    ['queued', 'and check the port'],
    ['notification', 'Background command "Dev server" completed (exit code 0)'],
    ['notification', 'task b8a1 failed'],
  ]);
  // the notification's answer is a request of the turn it arrived in
  assert.equal(n.turns[0]!.requests, 3);
  const text = sessionText({ session: n }, '/home/dev/projects/tidepool', plain);
  assert.match(text, /typed while it worked \(sent to the model in this turn\): "and check the port"/);
  assert.match(text, /notification \(sent to the model\): task b8a1 failed/);
  // 2.1.167: the Stop hook's attachment and then its summary are one run; a non-blocking error's stderr reaches only the user
  const after = read(path.join(DIR, 'stop-after-2.1.167.jsonl'));
  assert.deepEqual((after.turns[0]!.hooks ?? []).map((h) => [h.event, h.chars, h.dropped]), [['PostToolUse', 0, true], ['Stop', 0, true]]);
  const stop = read(path.join(DIR, 'stop-hook-2.1.235.jsonl'));
  assert.deepEqual(stop.turns[0]!.hooks, [{ event: 'Stop', command: 'bash .claude/hooks/check.sh', chars: 73, dropped: false }]);
});

test('prompts typed while the model worked and taken out of the queue unsent (popAll) are marks of the turn they were typed in; a remove with no text says nothing', () => {
  const s = read(path.join(DIR, 'withdrawn-2.1.167.jsonl'));
  assert.deepEqual(s.turns.map((t) => t.prompt), ['map the sensor modules', 'only the imu sensor modules']);
  assert.deepEqual(s.turns[0]!.marks.map((m) => [m.kind, m.text, m.at]), [
    ['withdrawn', 'only the imu ones', '2026-06-06T07:40:18.000Z'],
    ['withdrawn', '/context', '2026-06-06T07:40:18.500Z'],
    ['interrupt', '[Request interrupted by user for tool use]', s.turns[0]!.marks[2]!.at],
  ]);
  assert.deepEqual(s.turns[1]!.marks, []);
  const text = sessionText({ session: s }, '/home/dev/projects/tidepool', plain);
  assert.match(text, /typed while it worked, taken back unsent: "only the imu ones"/);
  assert.doesNotMatch(text, /sent to the model in this turn/);
});

test('2.1.218 to 2.1.235: bridge-session, file-history-delta and frame-link are bookkeeping the reader knows, not unknown types', () => {
  const s = read(path.join(DIR, 'checkpoints-2.1.218.jsonl'));
  assert.deepEqual(s.unknownTypes, {});
  assert.equal(s.turns[0]!.requests, 2);
  const text = sessionText({ session: s }, '/home/dev/projects/tidepool', plain);
  assert.doesNotMatch(text, /record types this reader does not know/);
});

test('2.1.212 and 2.1.233: agent-color, agent-setting, worktree-state and relocated are bookkeeping the reader knows, not unknown types', () => {
  const s = read(path.join(DIR, 'worktree-2.1.233.jsonl'));
  assert.deepEqual(s.unknownTypes, {});
  assert.equal(s.turns.reduce((n, t) => n + t.requests, 0), 3);
});


test('2.1.207 on: a bash-mode command the model answers is a turn (its requests and usage its own, the first input included); one nothing answers stays a mark', () => {
  const s = read(path.join(DIR, 'bash-answered-2.1.232.jsonl'));
  assert.deepEqual(s.turns.map((t) => t.requests), [1, 2, 2, 1]);
  assert.equal(s.turns[0]!.promptChars, 'cat README.md'.length + '# Tidepool\nTide tables for the harbour.'.length);
  assert.deepEqual(s.turns[2]!.marks.map((m) => [m.text, m.output]), [['!git log -1 --oneline', '0a1b2c3 legend']]);
  assert.deepEqual(s.marks, []);
});


test('2.1.167 and 2.1.199: /goal, a local command that sends a text (isMeta) the model answers, is a command turn with its requests; /model before it stays a mark', () => {
  const s = read(path.join(DIR, 'goal-2.1.199.jsonl'));
  assert.deepEqual(s.turns.map((t) => t.requests), [2, 1]);
  assert.equal(s.turns[0]!.promptChars, 'A session-scoped Stop hook is now active with condition: "make the tide tests pass". Work toward it; the hook checks it when you stop.'.length);
  assert.deepEqual(s.marks.map((m) => [m.text, m.output]), [['/model', 'Set model to Opus']]);
});
