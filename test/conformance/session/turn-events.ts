// Session scenarios of what a user does besides typing prompts (issue 31, Tests): a prompt-type slash command,
// local commands that send nothing themselves, an interrupt while the model is slow to answer, and hooks that add
// context. Each runs through the real binaries like every session scenario (session.test.ts: the engine predicts
// every request, and `claude-layers session --json` reads the transcript back); `readBack` then checks what the
// turn list shows against what the binary sent: a command is a turn of kind `command` sized by its expanded text
// as sent, a local command and an interrupt are marks inside a turn (never turns), a hook is its turn's `hooks[]`
// entry whose characters are what reached the model. Shapes measured: docs/session.md, "Commands, interrupts and
// hooks in the transcript".
import type { DriverTurn } from '../../../src/ground-truth/session-driver.js';
import type { SessionJson } from '../../../src/cli/session-command.js';
import { fm, type Tree } from '../scenario.js';
import type { SessionOutcome, SessionScenario } from './run.js';

const R = '{ROOT}/repo';
type Call = NonNullable<DriverTurn['calls']>[number];
type ReadBack = NonNullable<SessionScenario['readBack']>;
type Turn = SessionJson['session']['turns'][number];
const read = (p: string): Call => ({ name: 'Read', input: { file_path: `${R}/${p}` } });
const T = (prompt: string, calls: Call[] = [], extra: Partial<DriverTurn> = {}): DriverTurn => ({ prompt, calls, ...extra });

function base(m: string): Tree {
  return {
    'home/.claude/CLAUDE.md': `MARK_${m}_USER user instructions\n`,
    'repo/CLAUDE.md': `MARK_${m}_ROOT root instructions\n`,
    'repo/pkg/CLAUDE.md': `MARK_${m}_PKG nested instructions\n`,
    'repo/src/a.ts': 'a1\na2\n',
    'repo/pkg/x.ts': 'x1\n',
  };
}

// ---------------------------------------------------------------- what the binary sent
type WireMsg = { role?: string; content?: string | { type?: string; text?: string; content?: unknown }[] };

/** the main-loop requests of a scripted turn, parsed */
function sent(o: SessionOutcome, turn: number): { messages?: WireMsg[] }[] {
  return o.claude.requests.filter((r) => r.kind === 'main' && r.turn === turn).map((r) => {
    try {
      return JSON.parse(r.body) as { messages?: WireMsg[] };
    } catch {
      return {};
    }
  });
}

/** the text blocks of a message (a string content is one block) */
function texts(m: WireMsg | undefined): string[] {
  if (!m) return [];
  if (typeof m.content === 'string') return [m.content];
  return (m.content ?? []).flatMap((b) => (typeof b.text === 'string' ? [b.text] : typeof b.content === 'string' ? [b.content] : []));
}

/** every text of a request's messages, joined */
const wireText = (b: { messages?: WireMsg[] }) => (b.messages ?? []).flatMap(texts).join('\n');

/** the read-back turns and the scripted turns they stand for: `prompts` names each read-back turn's prompt */
function turnsAre(s: SessionJson['session'], prompts: string[]): string[] {
  const got = s.turns.map((t) => t.prompt);
  return JSON.stringify(got) === JSON.stringify(prompts) ? [] : [`read-back turns ${JSON.stringify(got)}, expected ${JSON.stringify(prompts)} (a local command or an interrupt is a mark, never a turn)`];
}

const at = (s: SessionJson['session'], k: number): Turn | undefined => s.turns[k];

// ---------------------------------------------------------------- read-back checks
/** read-back turn `k` (scripted turn `scripted`) is the command `label`, its size the expanded text it sent */
const commandTurn = (k: number, scripted: number, label: string, expandedHas: string): ReadBack => (s, o) => {
  const t = at(s, k);
  if (!t) return [`no read-back turn ${k + 1}`];
  const errs: string[] = [];
  if (t.kind !== 'command') errs.push(`turn ${k + 1}: kind ${t.kind}, expected command`);
  if (t.prompt !== label) errs.push(`turn ${k + 1}: shown as ${JSON.stringify(t.prompt)}, expected ${JSON.stringify(label)}`);
  const first = sent(o, scripted)[0];
  // the last user message (a first request ends with a system message: the environment)
  const lastUser = [...(first?.messages ?? [])].reverse().find((m) => m.role === 'user');
  const expanded = texts(lastUser).filter((x) => x.startsWith(expandedHas));
  if (expanded.length !== 1) errs.push(`turn ${k + 1}: the request of the command carries ${expanded.length} text blocks starting with ${expandedHas} (expected 1)`);
  else if (t.promptChars !== expanded[0]!.length) errs.push(`turn ${k + 1}: promptChars ${t.promptChars}, the expanded text sent is ${expanded[0]!.length} characters`);
  if (t.marks.length) errs.push(`turn ${k + 1}: marks ${JSON.stringify(t.marks)}`);
  return errs;
};

/** read-back turn `k` holds exactly these marks, in order (kind and text) */
const marksAre = (k: number, ...want: { kind: string; text: string }[]): ReadBack => (s) => {
  const t = at(s, k);
  if (!t) return [`no read-back turn ${k + 1}`];
  const got = t.marks.map((m) => ({ kind: m.kind, text: m.text }));
  return JSON.stringify(got) === JSON.stringify(want) ? [] : [`turn ${k + 1}: marks ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`];
};

/** scripted turns that must have sent no main-loop request (a local command) */
const sendsNothing = (...scripted: number[]): ReadBack => (_s, o) =>
  scripted.flatMap((k) => (sent(o, k).length ? [`scripted turn ${k + 1} (${o.turns[k]!.prompt}) sent ${sent(o, k).length} main-loop request(s): not a local command`] : []));

/** read-back turn `k` counts as many requests as the binary sent in scripted turn `scripted` (a version that records
 *  no request, 2.1.235, counts answers: an interrupted request has none, docs/session.md) */
const requestsAre = (k: number, scripted: number): ReadBack => (s, o) => {
  const t = at(s, k);
  if (!t) return [`no read-back turn ${k + 1}`];
  if (s.source === 'attachments') return [];
  const n = sent(o, scripted).length;
  return t.requests === n ? [] : [`turn ${k + 1}: ${t.requests} requests read back, ${n} sent`];
};

/** the hooks of read-back turn `k`, each with the text that reached the model, found in that turn's first request after
 *  its label (`UserPromptSubmit hook success`, `SessionStart:startup hook success`, `… hook additional context`); `label`
 *  null: nothing of it reached the model (`text` is what it printed, counted as dropped) */
type WantHook = { event: string; command: string; text: string; label: string | null; commandFrom?: 'settings' };
const hooksAre = (k: number, scripted: number, ...want: WantHook[]): ReadBack => (s, o) => {
  const t = at(s, k);
  if (!t) return [`no read-back turn ${k + 1}`];
  const errs: string[] = [];
  const got = (t.hooks ?? []).map((h) => ({ event: h.event, command: h.command, commandFrom: h.commandFrom, chars: h.chars, dropped: h.dropped }));
  const exp = want.map((w) => ({ event: w.event, command: w.command, commandFrom: w.commandFrom, chars: w.label ? w.text.length : 0, dropped: !w.label }));
  if (JSON.stringify(got) !== JSON.stringify(exp)) errs.push(`turn ${k + 1}: hooks ${JSON.stringify(got)}, expected ${JSON.stringify(exp)}`);
  const first = sent(o, scripted)[0];
  const wire = first ? wireText(first) : '';
  const every = sent(o, scripted).map(wireText).join('\n');
  for (const w of want) {
    if (w.label && !wire.includes(`${w.label}: ${w.text}`)) errs.push(`turn ${k + 1}: the request does not carry ${JSON.stringify(`${w.label}: ${w.text}`)}`);
    if (!w.label && every.includes(w.text)) errs.push(`turn ${k + 1}: a request carries ${JSON.stringify(w.text)}, read back as dropped`);
  }
  return errs;
};

const all = (...rs: ReadBack[]): ReadBack => (s, o, v) => rs.flatMap((r) => r(s, o, v));

// ---------------------------------------------------------------- typed while the model worked
const STEER = 'MARK_ST_STEER also look at the README';

// ---------------------------------------------------------------- the hooks
const UPS_TEXT = 'MARK_HK_UPS the prompt hook printed this';
const UPS = `echo ${UPS_TEXT}`;
const SS_TEXT = 'MARK_HK_SS session start context';
const SS = `printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: SS_TEXT } })}'`;
const SSP_TEXT = 'MARK_HK_SSP plain start text';
const SSP = `echo ${SSP_TEXT}`;
const UPJ_TEXT = 'MARK_HK_UPJ json prompt context';
const UPJ = `printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: UPJ_TEXT } })}'`;
const PTU_TEXT = 'MARK_HK_PTU after the read';
const PTU = `echo ${PTU_TEXT}`;
/** hooks that print on both streams and exit 1: a non-blocking error */
const failing = (tag: string) => ({ out: `MARK_HE_${tag}_OUT printed before failing`, err: `MARK_HE_${tag}_ERR the failure`, command: `echo MARK_HE_${tag}_OUT printed before failing; echo MARK_HE_${tag}_ERR the failure >&2; exit 1` });
const HE_SS = failing('SS');
const HE_UPS = failing('UPS');
const HE_PTU = failing('PTU');
/** hooks printing JSON: a systemMessage (shown to the user) and an additionalContext (sent) */
const jsonHook = (o: unknown) => `printf '%s' '${JSON.stringify(o)}'`;
const HS_UPS_CTX = 'MARK_HS_UPS context for the model';
const HS_UPS_SYS = 'MARK_HS_UPS_SYS for the user only';
const HS_PTU_CTX = 'MARK_HS_PTU context after the read';
const HS_PTU_SYS = 'MARK_HS_PTU_SYS for the user only';
const HS_UPS_A = jsonHook({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: HS_UPS_CTX } });
const HS_UPS_B = jsonHook({ systemMessage: HS_UPS_SYS });
const HS_PTU = jsonHook({ systemMessage: HS_PTU_SYS, hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: HS_PTU_CTX } });
const hookSettings = (hooks: Record<string, string[]>, matchers: Record<string, string> = {}) =>
  JSON.stringify({ hooks: Object.fromEntries(Object.entries(hooks).map(([ev, cmds]) => [ev, [{ ...(matchers[ev] && { matcher: matchers[ev] }), hooks: cmds.map((command) => ({ type: 'command', command })) }]])) }, null, 1);

export const turnEventScenarios: SessionScenario[] = [
  {
    name: 'sess_event_prompt_command',
    description: 'a custom command with $ARGUMENTS as a turn (with a call), one without arguments later: each a turn of kind command shown as /name args, its size the expanded text sent, its call in it',
    files: {
      ...base('PC'),
      'repo/.claude/commands/greet.md': fm('description: greet someone', 'MARK_PC_GREET say hello to [$ARGUMENTS] politely\n'),
      'repo/.claude/commands/plain.md': 'MARK_PC_PLAIN a command without arguments\nsecond line\n',
    },
    turns: [T('turn one', [read('src/a.ts')]), T('/greet Alice and Bob', [read('pkg/x.ts')]), T('turn three'), T('/plain')],
    readBack: all(
      (s) => turnsAre(s, ['turn one', '/greet Alice and Bob', 'turn three', '/plain']),
      commandTurn(1, 1, '/greet Alice and Bob', 'MARK_PC_GREET'),
      commandTurn(3, 3, '/plain', 'MARK_PC_PLAIN'),
      (s) => (s.turns[1]?.calls.length === 1 ? [] : [`turn 2: ${s.turns[1]?.calls.length} calls, expected the command's one`]),
    ),
  },
  {
    name: 'sess_event_command_first',
    description: 'a session that opens with a custom command: the first turn is the command (not lost, not a mark)',
    files: { ...base('CF'), 'repo/.claude/commands/start.md': 'MARK_CF_START begin with [$ARGUMENTS]\n' },
    turns: [T('/start the work', [read('src/a.ts')]), T('turn two')],
    readBack: all((s) => turnsAre(s, ['/start the work', 'turn two']), commandTurn(0, 0, '/start the work', 'MARK_CF_START')),
  },
  {
    name: 'sess_event_local_commands',
    description: '/cost and /status between two prompts: they send no request; both are marks inside the first turn (never turns): /cost written as /usage, /status (not available headless) written as plain system records',
    files: base('LC'),
    turns: [T('turn one', [read('src/a.ts')]), T('/cost'), T('/status'), T('turn four', [read('pkg/x.ts')])],
    readBack: all(
      sendsNothing(1, 2),
      (s) => turnsAre(s, ['turn one', 'turn four']),
      marksAre(0, { kind: 'local-command', text: '/usage' }, { kind: 'local-command', text: '/status' }),
      marksAre(1),
    ),
  },
  {
    name: 'sess_event_interrupt',
    description: 'the model slow to answer, the user interrupts (control_request interrupt): a mark [Request interrupted by user] inside that turn, the next prompt a turn of its own',
    files: base('IN'),
    turns: [T('turn one', [read('src/a.ts')]), T('turn two slow', [], { delayMs: 8000, interruptAfterMs: 1500 }), T('turn three', [read('pkg/x.ts')])],
    readBack: all(
      (s) => turnsAre(s, ['turn one', 'turn two slow', 'turn three']),
      marksAre(0),
      marksAre(1, { kind: 'interrupt', text: '[Request interrupted by user]' }),
      marksAre(2),
      requestsAre(1, 1),
      requestsAre(2, 2),
    ),
  },
  {
    name: 'sess_event_interrupt_tool',
    description: 'the user interrupts while a Bash call runs: the call is rejected and a mark [Request interrupted by user for tool use] sits inside that turn, with its call; the next prompt a turn of its own',
    files: base('IT'),
    turns: [T('turn one', [read('src/a.ts')]), T('turn two sleeps', [{ name: 'Bash', input: { command: 'sleep 15', description: 'wait' } }], { interruptAfterMs: 4000 }), T('turn three', [read('pkg/x.ts')])],
    readBack: all(
      (s) => turnsAre(s, ['turn one', 'turn two sleeps', 'turn three']),
      marksAre(1, { kind: 'interrupt', text: '[Request interrupted by user for tool use]' }),
      marksAre(2),
      (s) => (s.turns[1]?.calls.map((c) => c.name).join(',') === 'Bash' ? [] : [`turn 2: calls ${JSON.stringify(s.turns[1]?.calls.map((c) => c.name))}, expected the interrupted Bash`]),
      requestsAre(1, 1),
    ),
  },
  {
    name: 'sess_event_steer',
    description: 'the user types a message while a Bash call runs (a second user message on the stream-json input): the binary sends it inside the running turn, after that call\'s result, and records it as a queued_command attachment: read back as a queued mark inside that turn (never a turn), the call after it still that turn\'s; the next prompt a turn of its own',
    files: base('ST'),
    turns: [
      T('turn one', [read('src/a.ts')]),
      T('turn two sleeps', [{ name: 'Bash', input: { command: 'sleep 4', description: 'wait' } }, read('pkg/x.ts')], { steer: { afterMs: 1500, text: STEER } }),
      T('turn three'),
    ],
    readBack: all(
      (s) => turnsAre(s, ['turn one', 'turn two sleeps', 'turn three']),
      marksAre(0),
      marksAre(1, { kind: 'queued', text: STEER }),
      marksAre(2),
      (s) => (s.turns[1]?.calls.map((c) => c.name).join(',') === 'Bash,Read' ? [] : [`turn 2: calls ${JSON.stringify(s.turns[1]?.calls.map((c) => c.name))}, expected Bash then Read`]),
      requestsAre(1, 1),
      // the binary did send it, inside turn two and in no other turn
      (_s, o) => {
        const carries = (k: number) => sent(o, k).some((r) => wireText(r).includes(STEER));
        return [
          ...(carries(1) ? [] : ['turn 2: no request carries the message typed while it worked']),
          ...(carries(0) ? ['turn 1: a request carries the message typed in turn 2'] : []),
        ];
      },
    ),
  },
  {
    name: 'sess_event_hooks_context',
    description: 'a SessionStart hook adding context (JSON additionalContext) and a UserPromptSubmit hook printing plain text: each its turn\'s hooks[] entry, its characters what reached the model',
    files: { ...base('HK'), 'repo/.claude/settings.json': hookSettings({ SessionStart: [SS], UserPromptSubmit: [UPS] }) },
    turns: [T('turn one', [read('src/a.ts')]), T('turn two', [read('pkg/x.ts')])],
    readBack: all(
      (s) => turnsAre(s, ['turn one', 'turn two']),
      hooksAre(0, 0, { event: 'SessionStart', command: SS, text: SS_TEXT, label: 'SessionStart hook additional context' }, { event: 'UserPromptSubmit', command: UPS, text: UPS_TEXT, label: 'UserPromptSubmit hook success' }),
      hooksAre(1, 1, { event: 'UserPromptSubmit', command: UPS, text: UPS_TEXT, label: 'UserPromptSubmit hook success' }),
    ),
  },
  {
    name: 'sess_event_hooks_json_post',
    description: 'a SessionStart hook printing plain text, a UserPromptSubmit hook printing JSON additionalContext, a PostToolUse hook on Read printing plain text: the first two reach the model (the JSON one recorded without its command), the PostToolUse output is recorded and never sent: read back as dropped',
    files: { ...base('HJ'), 'repo/.claude/settings.json': hookSettings({ SessionStart: [SSP], UserPromptSubmit: [UPJ], PostToolUse: [PTU] }, { PostToolUse: 'Read' }) },
    turns: [T('turn one', [read('src/a.ts')]), T('turn two')],
    readBack: all(
      (s) => turnsAre(s, ['turn one', 'turn two']),
      // a JSON additionalContext of UserPromptSubmit is written as a hook_additional_context alone, which names no command:
      // the reader names it from the settings' one UserPromptSubmit hook (commandFrom "settings")
      hooksAre(0, 0, { event: 'SessionStart', command: SSP, text: SSP_TEXT, label: 'SessionStart:startup hook success' }, { event: 'UserPromptSubmit', command: UPJ, commandFrom: 'settings', text: UPJ_TEXT, label: 'UserPromptSubmit hook additional context' }, { event: 'PostToolUse', command: PTU, text: PTU_TEXT, label: null }),
      hooksAre(1, 1, { event: 'UserPromptSubmit', command: UPJ, commandFrom: 'settings', text: UPJ_TEXT, label: 'UserPromptSubmit hook additional context' }),
    ),
  },
  {
    name: 'sess_event_hooks_system',
    description: 'hooks printing JSON: two UserPromptSubmit hooks (an additionalContext; a systemMessage) and a PostToolUse hook on Read with both: each additionalContext is sent, each systemMessage is shown to the user only: the systemMessage-only hook read back as 0 characters, dropped; the PostToolUse hook as one run with its additionalContext sent (its hook_success, hook_additional_context and hook_system_message are one run); the hooks run side by side: their order is not compared',
    files: { ...base('HS'), 'repo/.claude/settings.json': hookSettings({ UserPromptSubmit: [HS_UPS_A, HS_UPS_B], PostToolUse: [HS_PTU] }, { PostToolUse: 'Read' }) },
    turns: [T('turn one', [read('src/a.ts')]), T('turn two')],
    readBack: all(
      (s) => turnsAre(s, ['turn one', 'turn two']),
      (s, o) => {
        const errs: string[] = [];
        const got = (k: number) => JSON.stringify((at(s, k)?.hooks ?? []).map((h) => `${h.event} ${h.chars} ${h.dropped}`).sort());
        const want = (...x: string[]) => JSON.stringify(x.sort());
        const one = want(`UserPromptSubmit ${HS_UPS_CTX.length} false`, 'UserPromptSubmit 0 true', `PostToolUse ${HS_PTU_CTX.length} false`);
        if (got(0) !== one) errs.push(`turn 1: hooks ${got(0)}, expected ${one}`);
        const two = want(`UserPromptSubmit ${HS_UPS_CTX.length} false`, 'UserPromptSubmit 0 true');
        if (got(1) !== two) errs.push(`turn 2: hooks ${got(1)}, expected ${two}`);
        const every = o.turns.flatMap((_t, k) => sent(o, k)).map(wireText).join('\n');
        for (const x of [HS_UPS_CTX, HS_PTU_CTX]) if (!every.includes(x)) errs.push(`no request carries ${JSON.stringify(x)}, an additionalContext`);
        for (const x of [HS_UPS_SYS, HS_PTU_SYS]) if (every.includes(x)) errs.push(`a request carries ${JSON.stringify(x)}, a systemMessage`);
        return errs;
      },
    ),
  },
  {
    name: 'sess_event_hooks_error',
    description: 'SessionStart, UserPromptSubmit and PostToolUse (on Read) hooks that print on stdout and stderr and exit 1, a non-blocking error: recorded as hook_non_blocking_error with both streams, neither sent: each read back dropped, 0 characters',
    files: { ...base('HE'), 'repo/.claude/settings.json': hookSettings({ SessionStart: [HE_SS.command], UserPromptSubmit: [HE_UPS.command], PostToolUse: [HE_PTU.command] }, { PostToolUse: 'Read' }) },
    turns: [T('turn one', [read('src/a.ts')]), T('turn two')],
    readBack: all(
      (s) => turnsAre(s, ['turn one', 'turn two']),
      hooksAre(0, 0, { event: 'SessionStart', command: HE_SS.command, text: HE_SS.out, label: null }, { event: 'UserPromptSubmit', command: HE_UPS.command, text: HE_UPS.out, label: null }, { event: 'PostToolUse', command: HE_PTU.command, text: HE_PTU.out, label: null }),
      hooksAre(1, 1, { event: 'UserPromptSubmit', command: HE_UPS.command, text: HE_UPS.out, label: null }),
      // what they printed on stderr does not go out either
      (_s, o) => {
        const every = o.turns.flatMap((_t, k) => sent(o, k)).map(wireText).join('\n');
        return [HE_SS, HE_UPS, HE_PTU].filter((h) => every.includes(h.err)).map((h) => `a request carries ${JSON.stringify(h.err)}, a non-blocking error's stderr`);
      },
    ),
  },
];
