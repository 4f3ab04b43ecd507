// Session scenarios (issue 12): each a small tree and a script of turns, run through the real binaries
// (session.test.ts). Every file holds a unique marker. Guards check what the binary itself did, so a
// scenario whose fixture stops showing what it claims fails even before the engine is compared.
import type { DriverTurn } from '../../../src/ground-truth/session-driver.js';
import type { ExtractedTurn } from '../../../src/engine/transcript/wire-session.js';
import { fm, type Tree } from '../scenario.js';
import type { SessionScenario } from './run.js';
import { turnEventScenarios } from './turn-events.js';

const R = '{ROOT}/repo';
type Call = NonNullable<DriverTurn['calls']>[number];
const read = (p: string, extra: Record<string, unknown> = {}): Call => ({ name: 'Read', input: { file_path: `${R}/${p}`, ...extra } });
const edit = (p: string, o: string, n: string): Call => ({ name: 'Edit', input: { file_path: `${R}/${p}`, old_string: o, new_string: n } });
const write = (p: string, content: string): Call => ({ name: 'Write', input: { file_path: `${R}/${p}`, content } });
const bash = (command: string): Call => ({ name: 'Bash', input: { command: command.replaceAll('@', `${R}/`), description: 'show a file' } });
const skill = (name: string, args?: string): Call => ({ name: 'Skill', input: { skill: name, ...(args !== undefined && { args }) } });
const agent = (type: string, prompt: string): Call => ({ name: 'Agent', input: { description: 'look', prompt, subagent_type: type, run_in_background: false } });
const put = (p: string, content: string) => ({ write: p.startsWith('{') ? p : `${R}/${p}`, content });
const del = (p: string) => ({ delete: `${R}/${p}` });
const T = (prompt: string, calls: Call[] = [], before?: DriverTurn['before']): DriverTurn => ({ prompt, calls, ...(before && { before }) });

/** a project with every kind of instruction file; `m` makes its markers unique */
function base(m: string): Tree {
  return {
    'home/.claude/CLAUDE.md': `MARK_${m}_USER user instructions\n`,
    'repo/CLAUDE.md': `MARK_${m}_ROOT root instructions\nsecond line\n`,
    'repo/.claude/rules/always.md': `MARK_${m}_ALWAYS always rule\n`,
    'repo/.claude/rules/api.md': fm('paths:\n  - "src/api/**"', `MARK_${m}_API api rule\nsecond api line\n`),
    'repo/pkg/CLAUDE.md': `MARK_${m}_PKG nested instructions\n`,
    'repo/src/api/client.ts': `export const client${m} = 1;\n`,
    'repo/src/a.ts': 'a1\na2\na3\n',
    'repo/pkg/x.ts': 'x1\n',
  };
}

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n';

// ---------------------------------------------------------------- guards
type G = SessionScenario['guard'];
const all = (...gs: NonNullable<G>[]): G => (t, r, v) => gs.flatMap((g) => g(t, r, v));
const notes = (turn: number, ...has: string[]): NonNullable<G> => (t) =>
  has.filter((h) => !(t[turn]?.changedNotes ?? '').includes(h)).map((h) => `turn ${turn + 1}: no note mentioning ${h}`);
const noNotes = (turn: number): NonNullable<G> => (t) => (t[turn]?.changedNotes ? [`turn ${turn + 1}: a note was sent: ${t[turn].changedNotes.slice(0, 200)}`] : []);
const startupHas = (turn: number, s: string): NonNullable<G> => (t) => ((t[turn]?.instructions ?? '').includes(s) ? [] : [`turn ${turn + 1}: startup block lacks ${s}`]);
const startupLacks = (turn: number, s: string): NonNullable<G> => (t) => ((t[turn]?.instructions ?? '').includes(s) ? [`turn ${turn + 1}: startup block has ${s}`] : []);
const injects = (turn: number, call: number, s: string | null): NonNullable<G> => (t) => {
  const inj = (t[turn]?.calls[call]?.injected ?? []).join('\n');
  if (s === null) return inj ? [`turn ${turn + 1} call ${call + 1}: injected ${inj.slice(0, 200)}`] : [];
  return inj.includes(s) ? [] : [`turn ${turn + 1} call ${call + 1}: nothing injected with ${s}`];
};
const restores = (turn: number, ...paths: string[]): NonNullable<G> => (t, root) => {
  const got = (t[turn]?.restored?.files ?? []).map((f) => f.path.replace(root + '/', ''));
  return paths.join(',') === got.join(',') ? [] : [`turn ${turn + 1}: restored ${got.join(',')} (expected ${paths.join(',')})`];
};
const noBody = (turn: number, call: number): NonNullable<G> => (t) => (t[turn]?.calls[call]?.skillBody == null ? [] : [`turn ${turn + 1} call ${call + 1}: a skill body was sent`]);
const bodyHas = (turn: number, call: number, s: string): NonNullable<G> => (t) => ((t[turn]?.calls[call]?.skillBody ?? '').includes(s) ? [] : [`turn ${turn + 1} call ${call + 1}: skill body lacks ${s}`]);
const agentGets = (turn: number, call: number, s: string | null): NonNullable<G> => (t) => {
  const a = t[turn]?.calls[call]?.agent;
  if (!a) return [`turn ${turn + 1} call ${call + 1}: no subagent request found`];
  if (s === null) return a.instructions === null ? [] : [`turn ${turn + 1} call ${call + 1}: the subagent got instructions`];
  return (a.instructions ?? '').includes(s) ? [] : [`turn ${turn + 1} call ${call + 1}: the subagent's instructions lack ${s}`];
};
const skillsRestored = (turn: number, ...names: string[]): NonNullable<G> => (t) => {
  const s = t[turn]?.restored?.skills ?? '';
  const got = [...s.matchAll(/### Skill: (\S+)/g)].map((m) => m[1]);
  return got.join(',') === names.join(',') ? [] : [`turn ${turn + 1}: restored skills ${got.join(',')} (expected ${names.join(',')})`];
};

const skillFile = (desc: string, body: string, extra = '') => fm(`description: ${desc}${extra ? '\n' + extra : ''}`, body);

export const sessionScenarios: SessionScenario[] = [
  // ---------------------------------------------------------------- lazy injections across turns
  {
    name: 'sess_reads_across_turns',
    description: 'a rule comes with the first matching Read, never again in later turns; a nested file with the first touch below it',
    files: base('RAT'),
    turns: [T('turn one', [read('src/api/client.ts')]), T('turn two', [read('src/api/client.ts'), read('src/a.ts')]), T('turn three', [read('pkg/x.ts')])],
    guard: all(injects(0, 0, 'MARK_RAT_API'), injects(1, 0, null), injects(2, 0, 'MARK_RAT_PKG')),
  },
  {
    name: 'sess_edit_trigger',
    description: 'an Edit below a nested folder injects its CLAUDE.md on 2.1.328 and later (2.1.235 only on Read)',
    files: { ...base('EDT'), 'repo/pkg/x.ts': 'x1 EDIT_ME\n' },
    turns: [T('turn one', [edit('pkg/x.ts', 'EDIT_ME', 'EDITED')]), T('turn two', [read('pkg/x.ts')])],
  },
  {
    name: 'sess_write_trigger',
    description: 'a Write of a new file in a nested folder, then a Read there',
    files: base('WRT'),
    turns: [T('turn one', [write('pkg/new.ts', 'new file\n')]), T('turn two', [read('pkg/new.ts')])],
  },
  {
    name: 'sess_bash_trigger',
    description: 'a Bash cat of a file in a nested folder (2.1.328 and later inject on it)',
    files: base('BSH'),
    turns: [T('turn one', [bash('cat @pkg/x.ts')]), T('turn two', [read('pkg/x.ts')])],
  },
  // ---------------------------------------------------------------- edits between turns
  {
    name: 'sess_edit_rule_noted',
    description: 'a conditional rule injected earlier and edited between turns: a "changed on disk" note with the raw lines',
    files: base('ERN'),
    turns: [T('turn one', [read('src/api/client.ts')]), T('turn two', [], [put('.claude/rules/api.md', fm('paths:\n  - "src/api/**"', 'MARK_ERN_API api rule EDITED\nsecond api line\n'))])],
    guard: notes(1, 'api.md', 'EDITED'),
  },
  {
    name: 'sess_edit_nested_noted',
    description: 'a nested CLAUDE.md injected earlier and edited (a line added): a note',
    files: base('ENN'),
    turns: [T('turn one', [read('pkg/x.ts')]), T('turn two', [read('pkg/x.ts')], [put('pkg/CLAUDE.md', 'MARK_ENN_PKG nested instructions\nMARK_ENN_ADDED line\n')])],
    guard: notes(1, 'MARK_ENN_ADDED'),
  },
  {
    name: 'sess_edit_startup_unnoticed',
    description: 'the startup CLAUDE.md edited between turns: no note, and the next request keeps the old block',
    files: base('ESU'),
    turns: [T('turn one', [read('src/a.ts')]), T('turn two', [read('src/a.ts')], [put('CLAUDE.md', 'MARK_ESU_NEW root edited\n')])],
    guard: all(noNotes(1), startupHas(1, 'MARK_ESU_ROOT'), startupLacks(1, 'MARK_ESU_NEW')),
  },
  {
    name: 'sess_edit_user_unnoticed',
    description: "the user's ~/.claude/CLAUDE.md and an always-on rule edited between turns: no note",
    files: base('EUU'),
    turns: [T('turn one'), T('turn two', [], [put('{ROOT}/home/.claude/CLAUDE.md', 'MARK_EUU_NEWUSER\n'), put('.claude/rules/always.md', 'MARK_EUU_NEWALWAYS\n')])],
    guard: noNotes(1),
  },
  {
    name: 'sess_edit_read_file_unnoticed',
    description: 'a source file the model read, rewritten between turns: not noted (the model keeps the old text)',
    files: base('ERF'),
    turns: [T('turn one', [read('src/a.ts')]), T('turn two', [], [put('src/a.ts', 'a1\nA2 CHANGED\na3\n')])],
    guard: noNotes(1),
  },
  {
    name: 'sess_edit_written_file_noted',
    description: 'a file the model changed with Edit, then changed on disk: noted',
    files: { ...base('EWF'), 'repo/src/e.ts': 'e1 EDIT_ME\ne2\n' },
    turns: [T('turn one', [edit('src/e.ts', 'EDIT_ME', 'EDITED')]), T('turn two', [], [put('src/e.ts', 'e1 EDITED\ne2 MARK_EWF_DISK\n')])],
    guard: notes(1, 'MARK_EWF_DISK'),
  },
  {
    name: 'sess_write_then_disk_noted',
    description: 'a file the model created with Write, then changed on disk: noted',
    files: base('WTD'),
    turns: [T('turn one', [write('src/w.ts', 'w1\nw2\n')]), T('turn two', [], [put('src/w.ts', 'w1\nMARK_WTD_DISK\n')])],
    guard: notes(1, 'MARK_WTD_DISK'),
  },
  {
    name: 'sess_partial_read_unnoticed',
    description: 'a file read with offset and limit, changed on disk: not noted',
    files: { ...base('PRU'), 'repo/src/long.ts': lines('long', 30) },
    turns: [T('turn one', [read('src/long.ts', { offset: 5, limit: 5 })]), T('turn two', [], [put('src/long.ts', lines('LONG', 30))])],
    guard: noNotes(1),
  },
  {
    name: 'sess_note_hunks',
    description: 'a long rule changed in two distant places: two hunks with 8 lines of context, joined by ...',
    files: { ...base('NHK'), 'repo/.claude/rules/long.md': fm('paths:\n  - "src/**"', lines('rule line', 40)) },
    turns: [
      T('turn one', [read('src/a.ts')]),
      T('turn two', [], [put('.claude/rules/long.md', fm('paths:\n  - "src/**"', lines('rule line', 40).replace('rule line 3\n', 'RULE THREE\n').replace('rule line 30\n', 'RULE THIRTY\n')))]),
    ],
    guard: notes(1, 'RULE THREE', 'RULE THIRTY', '\n...\n'),
  },
  {
    name: 'sess_note_lines_removed',
    description: 'lines removed from a nested CLAUDE.md and others added: what the snippet shows of each',
    files: { ...base('NLR'), 'repo/pkg/CLAUDE.md': lines('MARK_NLR pkg line', 20) },
    turns: [T('turn one', [read('pkg/x.ts')]), T('turn two', [], [put('pkg/CLAUDE.md', lines('MARK_NLR pkg line', 20).replace('MARK_NLR pkg line 5\nMARK_NLR pkg line 6\n', '').replace('pkg line 15\n', 'pkg line 15\nINSERTED A\nINSERTED B\n'))])],
    guard: notes(1, 'INSERTED A'),
  },
  {
    name: 'sess_note_two_files_order',
    description: 'a rule and a nested CLAUDE.md both edited: two notes in one message, in the order Claude Code checks them',
    files: base('NTO'),
    turns: [
      T('turn one', [read('src/api/client.ts'), read('pkg/x.ts'), read('src/a.ts')]),
      T('turn two', [], [put('.claude/rules/api.md', fm('paths:\n  - "src/api/**"', 'MARK_NTO_API2\n')), put('pkg/CLAUDE.md', 'MARK_NTO_PKG2\n')]),
    ],
    guard: notes(1, 'MARK_NTO_API2', 'MARK_NTO_PKG2'),
  },
  {
    name: 'sess_note_raw_comment',
    description: 'an HTML comment added to a nested CLAUDE.md: the note shows it raw (the injection had stripped comments)',
    files: base('NRC'),
    turns: [T('turn one', [read('pkg/x.ts')]), T('turn two', [], [put('pkg/CLAUDE.md', 'MARK_NRC_PKG nested instructions\n<!-- MARK_NRC_COMMENT -->\nmore\n')])],
    guard: notes(1, 'MARK_NRC_COMMENT'),
  },
  {
    name: 'sess_note_twice',
    description: 'a rule edited before turn two and again before turn three: only the first edit is noted (BINARY vs session.md: a noted file is held like a read one)',
    files: base('NTW'),
    turns: [
      T('turn one', [read('src/api/client.ts')]),
      T('turn two', [], [put('.claude/rules/api.md', fm('paths:\n  - "src/api/**"', 'MARK_NTW_V2\nsecond api line\n'))]),
      T('turn three', [], [put('.claude/rules/api.md', fm('paths:\n  - "src/api/**"', 'MARK_NTW_V2\nMARK_NTW_V3\n'))]),
    ],
    guard: all(notes(1, 'MARK_NTW_V2'), noNotes(2)),
  },
  {
    name: 'sess_note_unchanged_rewrite',
    description: 'a nested CLAUDE.md rewritten with the same text: no note',
    files: base('NUR'),
    turns: [T('turn one', [read('pkg/x.ts')]), T('turn two', [], [put('pkg/CLAUDE.md', 'MARK_NUR_PKG nested instructions\n')])],
    guard: noNotes(1),
  },
  {
    name: 'sess_delete_nested_reinject',
    description: 'an injected nested CLAUDE.md deleted (no note), then created again: the next touch below it injects it anew',
    files: base('DNR'),
    turns: [T('turn one', [read('pkg/x.ts')]), T('turn two', [read('pkg/x.ts')], [del('pkg/CLAUDE.md')]), T('turn three', [read('pkg/x.ts')], [put('pkg/CLAUDE.md', 'MARK_DNR_BACK\n')])],
    guard: all(noNotes(1), injects(2, 0, 'MARK_DNR_BACK')),
  },
  {
    name: 'sess_delete_rule',
    description: 'an injected rule deleted between turns: no note, and nothing comes with the next matching Read',
    files: base('DRL'),
    turns: [T('turn one', [read('src/api/client.ts')]), T('turn two', [read('src/api/client.ts')], [del('.claude/rules/api.md')])],
    guard: all(noNotes(1), injects(1, 0, null)),
  },
  {
    name: 'sess_include_edit_noted',
    description: 'a file @-included by a nested CLAUDE.md, edited: noted like the nested file itself',
    files: { ...base('IEN'), 'repo/pkg/CLAUDE.md': 'MARK_IEN_PKG\n@inc.md\n', 'repo/pkg/inc.md': 'MARK_IEN_INC included\n' },
    turns: [T('turn one', [read('pkg/x.ts')]), T('turn two', [], [put('pkg/inc.md', 'MARK_IEN_INC included EDITED\n')])],
    guard: notes(1, 'inc.md'),
  },
  {
    name: 'sess_new_rule_mid_session',
    description: 'a conditional rule created between turns: the next matching Read injects it',
    files: base('NRM'),
    turns: [T('turn one', [read('src/a.ts')]), T('turn two', [read('src/a.ts')], [put('.claude/rules/late.md', fm('paths:\n  - "src/*.ts"', 'MARK_NRM_LATE\n'))])],
    guard: injects(1, 0, 'MARK_NRM_LATE'),
  },
  {
    name: 'sess_memory_edit',
    description: 'MEMORY.md (auto memory, a startup file) edited between turns: no note; the compaction brings the new text',
    files: { ...base('MEM'), 'home/.claude/projects/{SLUG:repo}/memory/MEMORY.md': '- MARK_MEM_OLD memory line\n' },
    turns: [T('turn one'), T('turn two', [], [put('{ROOT}/home/.claude/projects/{SLUG:repo}/memory/MEMORY.md', '- MARK_MEM_NEW memory line\n')]), T('/compact'), T('turn four')],
    guard: all(noNotes(1), startupHas(1, 'MARK_MEM_OLD'), startupHas(3, 'MARK_MEM_NEW')),
  },
  // ---------------------------------------------------------------- skills
  {
    name: 'sess_skill_args',
    description: 'a skill with $ARGUMENTS, $0, $1, $ARGUMENTS[1] and ${CLAUDE_SKILL_DIR}; quoted arguments',
    files: { ...base('SKA'), 'repo/.claude/skills/rel/SKILL.md': skillFile('MARK_SKA_DESC release', '# Release\nAll: [$ARGUMENTS]\nFirst: [$0] second: [$1] idx: [$ARGUMENTS[1]]\nDir: ${CLAUDE_SKILL_DIR}\n<!-- kept comment -->\nEND\n') },
    turns: [T('turn one', [skill('rel', '"v1 two" --dry')])],
    guard: bodyHas(0, 0, 'First: [v1 two]'),
  },
  {
    name: 'sess_skill_args_tail',
    description: 'a skill without a $ARGUMENTS placeholder called with arguments: ARGUMENTS: appended',
    files: { ...base('SKT'), 'repo/.claude/skills/tail/SKILL.md': skillFile('MARK_SKT_DESC', 'MARK_SKT_BODY no placeholder\n') },
    turns: [T('turn one', [skill('tail', 'A1 B2')])],
    guard: bodyHas(0, 0, 'ARGUMENTS: A1 B2'),
  },
  {
    name: 'sess_skill_positional_only',
    description: 'a skill with $0 but no $ARGUMENTS, called with arguments: does ARGUMENTS: come too?',
    files: { ...base('SKP'), 'repo/.claude/skills/pos/SKILL.md': skillFile('MARK_SKP_DESC', 'MARK_SKP_BODY first [$0]\n') },
    turns: [T('turn one', [skill('pos', 'P0 P1')])],
    guard: bodyHas(0, 0, 'MARK_SKP_BODY'),
  },
  {
    name: 'sess_skill_no_args',
    description: 'a skill with $ARGUMENTS called without arguments: the placeholder becomes empty',
    files: { ...base('SKN'), 'repo/.claude/skills/noarg/SKILL.md': skillFile('MARK_SKN_DESC', 'MARK_SKN_BODY [$ARGUMENTS] end\n') },
    turns: [T('turn one', [skill('noarg')])],
    guard: bodyHas(0, 0, 'MARK_SKN_BODY [] end'),
  },
  {
    name: 'sess_skill_twice',
    description: 'the same skill invoked twice: the second call gets a short "already loaded" text, not the body',
    files: { ...base('SKW'), 'repo/.claude/skills/twice/SKILL.md': skillFile('MARK_SKW_DESC', 'MARK_SKW_BODY\n') },
    turns: [T('turn one', [skill('twice')]), T('turn two', [skill('twice')])],
    guard: bodyHas(1, 0, 'already loaded'),
  },
  {
    name: 'sess_skill_bang',
    description: 'a skill with !`cmd`: Claude Code runs it when the skill loads; the engine leaves it unknown',
    files: { ...base('SKB'), 'repo/.claude/skills/bang/SKILL.md': skillFile('MARK_SKB_DESC', 'MARK_SKB_BODY now: !`echo MARK_SKB_OUT_$((40+2))` end\n') },
    turns: [T('turn one', [skill('bang')])],
    guard: bodyHas(0, 0, 'MARK_SKB_OUT_42'),
  },
  {
    name: 'sess_skill_fork_explore',
    description: 'a context: fork skill with agent: Explore runs as a subagent: no skill body in the session, no instructions in the subagent',
    files: { ...base('SKF'), 'repo/.claude/skills/fork/SKILL.md': skillFile('MARK_SKF_DESC', 'MARK_SKF_BODY $ARGUMENTS\n', 'context: fork\nagent: Explore') },
    turns: [T('turn one', [skill('fork', 'F1')])],
    guard: agentGets(0, 0, null),
  },
  {
    name: 'sess_skill_fork_default',
    description: 'a context: fork skill without agent: its subagent (general-purpose) gets the startup block',
    files: { ...base('SKG'), 'repo/.claude/skills/forkgp/SKILL.md': skillFile('MARK_SKG_DESC', 'MARK_SKG_BODY\n', 'context: fork') },
    turns: [T('turn one', [skill('forkgp')])],
    guard: agentGets(0, 0, 'MARK_SKG_ROOT'),
  },
  {
    name: 'sess_skill_edit_unnoticed',
    description: 'a SKILL.md edited after its invocation: no note; the compaction brings back the body as it was injected',
    files: { ...base('SKE'), 'repo/.claude/skills/ed/SKILL.md': skillFile('MARK_SKE_DESC', 'MARK_SKE_OLD body\n') },
    turns: [T('turn one', [skill('ed')]), T('turn two', [], [put('.claude/skills/ed/SKILL.md', skillFile('MARK_SKE_DESC', 'MARK_SKE_NEW body\n'))]), T('/compact'), T('turn four')],
    guard: all(noNotes(1), skillsRestored(3, 'ed')),
  },
  {
    name: 'sess_skill_user',
    description: "a user skill (~/.claude/skills) invoked, then /compact: its Path line in the restored section",
    files: { ...base('SKU'), 'home/.claude/skills/mine/SKILL.md': skillFile('MARK_SKU_DESC', 'MARK_SKU_BODY\n') },
    turns: [T('turn one', [skill('mine')]), T('/compact'), T('turn three')],
    guard: skillsRestored(2, 'mine'),
  },
  {
    name: 'sess_skill_disabled',
    description: 'a skill with disable-model-invocation: the Skill call fails, nothing is injected',
    files: { ...base('SKD'), 'repo/.claude/skills/dmi/SKILL.md': skillFile('MARK_SKD_DESC', 'MARK_SKD_BODY\n', 'disable-model-invocation: true') },
    turns: [T('turn one', [skill('dmi')])],
  },
  // ---------------------------------------------------------------- skills found, changed or invoked again mid-session (issue 21)
  {
    name: 'sess_skill_nested_found',
    description: 'a skill in pkg/.claude/skills: unknown before a touch below pkg/, then invocable by its plain name (pkg:deploy is not)',
    files: { ...base('SNF'), 'repo/pkg/.claude/skills/deploy/SKILL.md': skillFile('MARK_SNF_DESC deploy', 'MARK_SNF_BODY $ARGUMENTS\n') },
    turns: [T('turn one', [skill('deploy', 'early'), read('pkg/x.ts')]), T('turn two', [skill('deploy', 'a1'), skill('pkg:deploy', 'a2')])],
    guard: all(noBody(0, 0), bodyHas(1, 0, 'MARK_SNF_BODY a1'), noBody(1, 1)),
  },
  {
    name: 'sess_skill_nested_shadow',
    description: 'a nested skill with the name of a project skill: listed as pkg:deploy, which gets the nested body; the bare name gets the project one and a reminder naming the variant',
    files: {
      ...base('SNS'),
      'repo/.claude/skills/deploy/SKILL.md': skillFile('MARK_SNS_TOP top deploy', 'MARK_SNS_TOPBODY $ARGUMENTS\n'),
      'repo/pkg/.claude/skills/deploy/SKILL.md': skillFile('MARK_SNS_NESTED nested deploy', 'MARK_SNS_NESTEDBODY $ARGUMENTS\n'),
    },
    turns: [T('turn one', [read('pkg/x.ts')]), T('turn two', [skill('pkg:deploy', 'q1'), skill('deploy', 'q2')])],
    guard: all(bodyHas(1, 0, 'MARK_SNS_NESTEDBODY q1'), bodyHas(1, 1, 'MARK_SNS_TOPBODY q2'), (t) => (t[1]?.calls[1]?.skillNote ?? '').includes('`pkg:deploy`') ? [] : ['turn 2 call 2: no variants reminder']),
  },
  {
    name: 'sess_skill_nested_same_turn',
    description: 'a nested skill invoked right after the Read that finds it; edited afterwards (the text as found stays); a nested skill named like a user skill (pkg:ship)',
    files: {
      ...base('SNT'),
      'repo/pkg/.claude/skills/ship/SKILL.md': skillFile('MARK_SNT_SHIP', 'MARK_SNT_SHIPBODY v1\n'),
      'home/.claude/skills/ship/SKILL.md': skillFile('MARK_SNT_USHIP', 'MARK_SNT_USHIPBODY\n'),
      'repo/lib/.claude/skills/lone/SKILL.md': skillFile('MARK_SNT_LONE', 'MARK_SNT_LONEBODY v1\n'),
      'repo/lib/y.ts': 'y1\n',
    },
    turns: [
      T('turn one', [read('lib/y.ts'), skill('lone'), read('pkg/x.ts')]),
      T('turn two', [skill('pkg:ship'), skill('ship'), skill('lone', 'again')], [put('lib/.claude/skills/lone/SKILL.md', skillFile('MARK_SNT_LONE', 'MARK_SNT_LONEBODY v2\n'))]),
    ],
    guard: all(bodyHas(0, 1, 'MARK_SNT_LONEBODY v1'), bodyHas(1, 0, 'MARK_SNT_SHIPBODY'), bodyHas(1, 1, 'MARK_SNT_USHIPBODY'), bodyHas(1, 2, 'Re-invocation'), bodyHas(1, 2, 'LONEBODY v1')),
  },
  {
    name: 'sess_skill_created_mid',
    description: 'a SKILL.md created after the session started is unknown (also one created later); one edited before its first use gives its text as the session started',
    files: { ...base('SCM'), 'repo/.claude/skills/old/SKILL.md': skillFile('MARK_SCM_OLD', 'MARK_SCM_OLDBODY v1\n') },
    turns: [
      T('turn one'),
      T('turn two', [skill('late', 'x')], [put('.claude/skills/late/SKILL.md', skillFile('MARK_SCM_LATE', 'MARK_SCM_LATEBODY\n')), put('.claude/skills/old/SKILL.md', skillFile('MARK_SCM_OLD2', 'MARK_SCM_OLDBODY v2\n'))]),
      T('turn three', [skill('old')]),
      T('turn four', [skill('gone')], [put('.claude/skills/gone/SKILL.md', skillFile('MARK_SCM_GONE', 'MARK_SCM_GONEBODY\n'))]),
    ],
    guard: all(noBody(1, 0), bodyHas(2, 0, 'MARK_SCM_OLDBODY v1'), noBody(3, 0)),
  },
  {
    name: 'sess_skill_deleted_mid',
    description: 'a skill folder deleted mid-session is still invocable with its text as the session started',
    files: { ...base('SDM'), 'repo/.claude/skills/del/SKILL.md': skillFile('MARK_SDM_DEL', 'MARK_SDM_DELBODY\n'), 'repo/.claude/skills/ed/SKILL.md': skillFile('MARK_SDM_ED', 'MARK_SDM_EDBODY v1\n') },
    turns: [T('turn one'), T('turn two', [skill('del'), skill('ed')], [del('.claude/skills/del'), put('.claude/skills/ed/SKILL.md', skillFile('MARK_SDM_ED', 'MARK_SDM_EDBODY v2\n'))])],
    guard: all(bodyHas(1, 0, 'MARK_SDM_DELBODY'), bodyHas(1, 1, 'MARK_SDM_EDBODY v1')),
  },
  {
    name: 'sess_skill_created_clear',
    description: 'skills created and edited mid-session: /compact does not load them again, /clear does',
    files: { ...base('SCC'), 'repo/.claude/skills/old/SKILL.md': skillFile('MARK_SCC_OLD', 'MARK_SCC_OLDBODY v1\n') },
    turns: [
      T('turn one', [read('src/a.ts')]),
      T('/compact', [], [put('.claude/skills/late/SKILL.md', skillFile('MARK_SCC_LATE', 'MARK_SCC_LATEBODY\n')), put('.claude/skills/old/SKILL.md', skillFile('MARK_SCC_OLD', 'MARK_SCC_OLDBODY v2\n'))]),
      T('turn three', [skill('late'), skill('old')]),
      T('/clear'),
      T('turn five', [skill('late'), skill('old')]),
    ],
    guard: all(noBody(2, 0), bodyHas(2, 1, 'OLDBODY v1'), bodyHas(4, 0, 'MARK_SCC_LATEBODY'), bodyHas(4, 1, 'OLDBODY v2')),
  },
  {
    name: 'sess_skill_again_args',
    description: 'a skill again: same arguments (already loaded, arguments named), other or no arguments (re-invocation line, then the body), an ARGUMENTS: tail changed, a fork twice; after /compact the same body (loaded earlier) and another',
    files: {
      ...base('SAA'),
      'repo/.claude/skills/rep/SKILL.md': skillFile('MARK_SAA_DESC', 'MARK_SAA_BODY [$ARGUMENTS]\n'),
      'repo/.claude/skills/tail/SKILL.md': skillFile('MARK_SAA_TDESC', 'MARK_SAA_TBODY\n'),
      'repo/.claude/skills/fk/SKILL.md': skillFile('MARK_SAA_FDESC', 'MARK_SAA_FBODY $ARGUMENTS\n', 'context: fork'),
    },
    turns: [
      T('turn one', [skill('rep', 'A1'), skill('rep', 'A1'), skill('rep', 'B2'), skill('rep'), skill('tail', 'T1'), skill('tail', 'T2')]),
      T('turn two', [skill('rep', 'B2'), skill('fk', 'F1'), skill('fk', 'F1'), skill('fk', 'F2')]),
      T('/compact'),
      T('turn four', [skill('rep', 'B2'), skill('rep', 'C3')]),
    ],
    guard: all(bodyHas(0, 1, 'Arguments: A1'), bodyHas(0, 2, 'Re-invocation'), bodyHas(0, 2, '[B2]'), bodyHas(3, 0, 'loaded earlier'), bodyHas(3, 1, '[C3]'), agentGets(1, 2, 'MARK_SAA_ROOT'), skillsRestored(3, 'rep', 'tail')),
  },
  {
    name: 'sess_skill_again_body',
    description: 'a repeat is told apart by its body: $0 with other later arguments is "already loaded"; an identical repeat makes it the most recent for the compaction; after it: other arguments (re-invocation), the same body twice (loaded earlier both times)',
    files: {
      ...base('SAB'),
      'repo/.claude/skills/pos/SKILL.md': skillFile('MARK_SAB_PDESC', 'MARK_SAB_PBODY [$0]\n'),
      'repo/.claude/skills/a/SKILL.md': skillFile('MARK_SAB_ADESC', 'MARK_SAB_ABODY [$ARGUMENTS]\n'),
      'repo/.claude/skills/b/SKILL.md': skillFile('MARK_SAB_BDESC', 'MARK_SAB_BBODY\n'),
    },
    turns: [
      T('turn one', [skill('pos', 'X Y'), skill('pos', 'X Z'), skill('a', 'A1'), skill('b'), skill('a', 'A1')]),
      T('/compact'),
      T('turn three', [skill('a', 'A2'), skill('b'), skill('b'), skill('pos', 'X Y')]),
    ],
    guard: all(bodyHas(0, 1, 'already loaded'), skillsRestored(2, 'a', 'b', 'pos'), bodyHas(2, 0, 'Re-invocation'), bodyHas(2, 2, 'loaded earlier')),
  },
  // ---------------------------------------------------------------- the re-invocation rule (issue 33), each case on every version
  {
    name: 'sess_reinvoke_no_placeholder',
    description: 'a skill without a placeholder called again: other arguments, none, the earlier ones again: a re-invocation line, then the whole body with its ARGUMENTS: tail (not a short note alone: BINARY vs ISSUE 33); the same arguments twice: already loaded',
    files: { ...base('RNP'), 'repo/.claude/skills/tail/SKILL.md': skillFile('MARK_RNP_DESC', 'MARK_RNP_BODY no placeholder\nsecond line\n') },
    turns: [T('turn one', [skill('tail', 'T1'), skill('tail', 'T2'), skill('tail'), skill('tail', 'T2'), skill('tail', 'T2')]), T('turn two', [skill('tail', 'T3')])],
    guard: all(bodyHas(0, 1, '(Re-invocation of /tail'), bodyHas(0, 1, 'MARK_RNP_BODY'), bodyHas(0, 1, 'ARGUMENTS: T2'), bodyHas(0, 2, 'MARK_RNP_BODY'), bodyHas(0, 4, 'already loaded'), bodyHas(1, 0, 'ARGUMENTS: T3')),
  },
  {
    name: 'sess_reinvoke_positional',
    description: 'a skill with $0 only called again: another first argument re-invokes it (line, then the body); only a later argument changed leaves the body as it was: already loaded',
    files: { ...base('RPO'), 'repo/.claude/skills/pos/SKILL.md': skillFile('MARK_RPO_DESC', 'MARK_RPO_BODY first [$0]\n') },
    turns: [T('turn one', [skill('pos', 'X'), skill('pos', 'Y'), skill('pos', 'Y Z')])],
    guard: all(bodyHas(0, 1, '(Re-invocation of /pos'), bodyHas(0, 1, 'first [Y]'), bodyHas(0, 2, 'already loaded')),
  },
  {
    name: 'sess_reinvoke_skill_dir',
    description: 'a skill with ${CLAUDE_SKILL_DIR} and no placeholder called again with other arguments and without: the folder filled in, a re-invocation line, the whole body',
    files: { ...base('RSD'), 'repo/.claude/skills/dir/SKILL.md': skillFile('MARK_RSD_DESC', 'MARK_RSD_BODY at ${CLAUDE_SKILL_DIR}/x\n') },
    turns: [T('turn one', [skill('dir', 'd1'), skill('dir', 'd2'), skill('dir')])],
    guard: all(bodyHas(0, 1, '(Re-invocation of /dir'), bodyHas(0, 1, '.claude/skills/dir/x'), bodyHas(0, 2, 'MARK_RSD_BODY')),
  },
  {
    name: 'sess_reinvoke_dynamic',
    description: 'a skill with !`cmd` (output that does not change) called again: the same arguments: already loaded; others: a re-invocation line and the body with the output run again (the engine leaves the command unknown)',
    files: { ...base('RDY'), 'repo/.claude/skills/bang/SKILL.md': skillFile('MARK_RDY_DESC', 'MARK_RDY_BODY now: !`echo MARK_RDY_OUT_$((40+2))` end\n') },
    turns: [T('turn one', [skill('bang'), skill('bang'), skill('bang', 'Q1')]), T('turn two', [skill('bang', 'Q1')])],
    guard: all(bodyHas(0, 0, 'MARK_RDY_OUT_42'), bodyHas(0, 1, 'already loaded'), bodyHas(0, 2, '(Re-invocation of /bang'), bodyHas(0, 2, 'MARK_RDY_OUT_42'), bodyHas(1, 0, 'already loaded')),
  },
  {
    name: 'sess_reinvoke_after_compact',
    description: 'after /compact: the body the compaction brought back: loaded earlier; other arguments: a re-invocation line and the body; then the same again: already loaded',
    files: {
      ...base('RAC'),
      'repo/.claude/skills/tail/SKILL.md': skillFile('MARK_RAC_TDESC', 'MARK_RAC_TBODY no placeholder\n'),
      'repo/.claude/skills/rep/SKILL.md': skillFile('MARK_RAC_RDESC', 'MARK_RAC_RBODY [$ARGUMENTS]\n'),
    },
    turns: [T('turn one', [skill('tail', 'T1'), skill('rep', 'A1')]), T('/compact'), T('turn three', [skill('tail', 'T1'), skill('tail', 'T2'), skill('rep', 'B2'), skill('rep', 'B2')])],
    guard: all(skillsRestored(2, 'rep', 'tail'), bodyHas(2, 0, 'loaded earlier'), bodyHas(2, 1, '(Re-invocation of /tail'), bodyHas(2, 2, '[B2]'), bodyHas(2, 3, 'already loaded')),
  },
  {
    name: 'sess_reinvoke_cut',
    description: 'skills over the per-skill limit, brought back cut by /compact, called again: with the same arguments too, a line saying the copy was cut, then the whole body; then the same again: already loaded',
    files: {
      ...base('RCU'),
      'repo/.claude/skills/big/SKILL.md': skillFile('MARK_RCU_BIG', lines('skill line yyyyyyyyyy', 1500)),
      'repo/.claude/skills/big2/SKILL.md': skillFile('MARK_RCU_BIG2', lines('other line zzzzzzzzzz', 1500)),
    },
    turns: [T('turn one', [skill('big'), skill('big2', 'A1')]), T('/compact'), T('turn three', [skill('big'), skill('big2', 'A2'), skill('big2', 'A2')])],
    guard: all(bodyHas(2, 0, 'truncated by compaction'), bodyHas(2, 1, 'truncated by compaction'), bodyHas(2, 1, 'ARGUMENTS: A2'), bodyHas(2, 2, 'already loaded')),
  },
  // ---------------------------------------------------------------- resume (issue 21): a new process on the same session
  {
    name: 'sess_resume_continue',
    description: '--continue after edits: 2.1.235 rebuilds the block and forgets what was held; 2.1.328 on replays the block with a reminder of the changed startup file, re-injects only the changed nested file; an invoked skill is loaded whole again; no notes',
    files: { ...base('RSC'), 'repo/.claude/skills/kept/SKILL.md': skillFile('MARK_RSC_DESC', 'MARK_RSC_BODY\n') },
    turns: [
      T('turn one', [read('src/api/client.ts'), read('pkg/x.ts'), skill('kept')]),
      { ...T('turn two', [read('src/api/client.ts'), read('pkg/x.ts'), skill('kept')], [put('CLAUDE.md', 'MARK_RSC_NEWROOT\n'), put('pkg/CLAUDE.md', 'MARK_RSC_PKG2\n')]), restart: 'continue' },
      { ...T('turn three', [], [put('.claude/rules/api.md', fm('paths:\n  - "src/api/**"', 'MARK_RSC_API3\n'))]), restart: 'resume' },
    ],
    guard: all(noNotes(1), injects(1, 1, 'MARK_RSC_PKG2'), bodyHas(1, 2, 'MARK_RSC_BODY'), noNotes(2)),
  },
  {
    name: 'sess_resume_held',
    description: '--resume: a changed rule is injected again with its new text, unchanged nested files stay held (2.1.328 on) and get a note when edited later; an always-on rule edited comes in the reminder; a --continue with nothing changed adds none',
    files: { ...base('RSH'), 'repo/.claude/rules/always.md': 'MARK_RSH_ALWAYS\n', 'repo/lib/CLAUDE.md': 'MARK_RSH_LIB\n', 'repo/lib/y.ts': 'y1\n' },
    turns: [
      T('turn one', [read('src/api/client.ts'), read('pkg/x.ts'), read('lib/y.ts'), read('src/a.ts')]),
      { ...T('turn two', [read('src/api/client.ts'), read('pkg/x.ts')], [put('.claude/rules/api.md', fm('paths:\n  - "src/api/**"', 'MARK_RSH_API2\n')), put('.claude/rules/always.md', 'MARK_RSH_ALWAYS2\n'), put('src/a.ts', 'a2\n')]), restart: 'resume' },
      T('turn three', [read('lib/y.ts')], [put('pkg/CLAUDE.md', 'MARK_RSH_PKG3\n')]),
      { ...T('turn four'), restart: 'continue' },
    ],
    guard: all(injects(1, 0, 'MARK_RSH_API2'), (t, _r, v) => (v === '2.1.235' ? [] : (t[1]?.resumeReminder ?? '').includes('MARK_RSH_ALWAYS2') ? [] : ['turn 2: no resume reminder with the edited rule'])),
  },
  // ---------------------------------------------------------------- auto-compaction (issue 21): the usage the stand-in reports
  {
    name: 'sess_autocompact_default',
    description: 'the default model reports 990,000 tokens in turn one: 2.1.328 on compact before every later request of the turn and the next turn; 2.1.235 (claude-opus-5[1m]) never compacts on its own',
    files: base('ACD'),
    turns: [{ ...T('turn one', [read('src/a.ts'), read('src/api/client.ts')]), usage: { input: 100, cacheRead: 989_900, cacheCreation: 0 } }, T('turn two', [read('pkg/x.ts')]), T('turn three')],
    guard: (t, _r, v) => (v === '2.1.235' ? ((t[0]!.autoCompactions ?? []).length ? ['2.1.235 compacted'] : []) : (t[0]!.autoCompactions ?? []).map((a) => a.at).join(',') === '1,2' ? [] : [`turn 1 compacted before ${(t[0]!.autoCompactions ?? []).map((a) => a.at).join(',')}`]),
  },
  {
    name: 'sess_autocompact_window_env',
    description: 'claude-sonnet-4-5 with CLAUDE_CODE_AUTO_COMPACT_WINDOW=200000 reports 190,000 tokens: 2.1.328 on compact mid-turn; 2.1.235 stops the turn and compacts before the next one',
    files: base('ACW'),
    env: { ANTHROPIC_MODEL: 'claude-sonnet-4-5', CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000' },
    turns: [{ ...T('turn one', [read('src/a.ts'), read('src/api/client.ts')]), usage: { input: 100, cacheRead: 189_900, cacheCreation: 0 } }, T('turn two', [read('pkg/x.ts')]), T('turn three')],
    guard: (t) => ((t[1]!.autoCompactions ?? []).length === 1 ? [] : ['turn 2 did not start with a compaction']),
  },
  {
    name: 'sess_autocompact_sonnet45_never',
    description: 'claude-sonnet-4-5 (a 200,000-token window) reports 199,000 tokens: no compaction on any version (nor a stop)',
    files: base('ACS'),
    env: { ANTHROPIC_MODEL: 'claude-sonnet-4-5' },
    turns: [{ ...T('turn one', [read('src/a.ts'), read('src/api/client.ts')]), usage: { input: 100, cacheRead: 198_900, cacheCreation: 0 } }, T('turn two', [read('pkg/x.ts')])],
    guard: (t) => (t.some((x) => x.autoCompactions?.length) ? ['compacted'] : []),
  },
  // ---------------------------------------------------------------- subagents
  {
    name: 'sess_agent_explore',
    description: 'an Explore subagent: its first request carries no instruction file',
    files: base('AEX'),
    turns: [T('turn one', [agent('Explore', 'explore MARK_AEX_PROMPT')])],
    guard: agentGets(0, 0, null),
  },
  {
    name: 'sess_agent_plan',
    description: 'a Plan subagent: no instruction file either',
    files: base('APL'),
    turns: [T('turn one', [agent('Plan', 'plan MARK_APL_PROMPT')])],
    guard: agentGets(0, 0, null),
  },
  {
    name: 'sess_agent_claude',
    description: "the catch-all 'claude' subagent: the startup block, like general-purpose",
    files: base('ACL'),
    turns: [T('turn one', [agent('claude', 'catch all MARK_ACL_PROMPT')])],
    guard: agentGets(0, 0, 'MARK_ACL_ROOT'),
  },
  {
    name: 'sess_agent_statusline',
    description: 'the statusline-setup subagent: the startup block too',
    files: base('ASL'),
    turns: [T('turn one', [agent('statusline-setup', 'status MARK_ASL_PROMPT')])],
    guard: agentGets(0, 0, 'MARK_ASL_ROOT'),
  },
  {
    name: 'sess_agent_general',
    description: 'a general-purpose subagent: the same startup block as the main session (no lazily injected file)',
    files: base('AGP'),
    turns: [T('turn one', [read('pkg/x.ts'), agent('general-purpose', 'general MARK_AGP_PROMPT')])],
    guard: agentGets(0, 1, 'MARK_AGP_ROOT'),
  },
  {
    name: 'sess_agent_custom',
    description: 'a custom agent from .claude/agents: the startup block, its body as the system prompt',
    files: { ...base('ACU'), 'repo/.claude/agents/rev.md': fm('name: rev\ndescription: MARK_ACU_DESC reviewer', 'You are MARK_ACU_BODY a reviewer.\n') },
    turns: [T('turn one', [agent('rev', 'review MARK_ACU_PROMPT')])],
    guard: agentGets(0, 0, 'MARK_ACU_ROOT'),
  },
  {
    name: 'sess_agent_user_custom',
    description: 'a custom agent from ~/.claude/agents: the startup block',
    files: { ...base('AUC'), 'home/.claude/agents/helper.md': fm('name: helper\ndescription: MARK_AUC_DESC helper', 'You are MARK_AUC_BODY.\n') },
    turns: [T('turn one', [agent('helper', 'help MARK_AUC_PROMPT')])],
    guard: agentGets(0, 0, 'MARK_AUC_ROOT'),
  },
  {
    name: 'sess_agent_stale_startup',
    description: 'CLAUDE.md edited between turns, then a general-purpose subagent: it gets the block the session started with',
    files: base('AST'),
    turns: [T('turn one'), T('turn two', [agent('general-purpose', 'general MARK_AST_PROMPT')], [put('CLAUDE.md', 'MARK_AST_NEW edited root\n')])],
    guard: agentGets(1, 0, 'MARK_AST_ROOT'),
  },
  // ---------------------------------------------------------------- /compact
  {
    name: 'sess_compact_rule',
    description: 'an injected conditional rule, then /compact: it comes back as a Read of its raw text (frontmatter included)',
    files: base('CRL'),
    turns: [T('turn one', [read('src/api/client.ts')]), T('/compact'), T('turn three', [read('src/api/client.ts')])],
    guard: restores(2, 'repo/src/api/client.ts', 'repo/.claude/rules/api.md'),
  },
  {
    name: 'sess_compact_nested',
    description: 'an injected nested CLAUDE.md, then /compact: restored; touching below it again injects nothing',
    files: base('CNE'),
    turns: [T('turn one', [read('pkg/x.ts')]), T('/compact'), T('turn three', [read('pkg/x.ts')])],
    guard: injects(2, 0, null),
  },
  {
    name: 'sess_compact_startup_rebuilt',
    description: 'CLAUDE.md edited between turns (not noticed), then /compact: the next request carries the block rebuilt from disk',
    files: base('CSR'),
    turns: [T('turn one'), T('turn two', [], [put('CLAUDE.md', 'MARK_CSR_NEW edited root\n')]), T('/compact'), T('turn four')],
    guard: all(startupHas(1, 'MARK_CSR_ROOT'), startupHas(3, 'MARK_CSR_NEW')),
  },
  {
    name: 'sess_compact_edit_after',
    description: 'CLAUDE.md edited right after /compact, before the next prompt: the rebuilt block has the edit',
    files: base('CEA'),
    turns: [T('turn one'), T('turn two'), T('/compact'), T('turn four', [], [put('CLAUDE.md', 'MARK_CEA_NEW edited root\n')])],
  },
  {
    name: 'sess_compact_short',
    description: '/compact after a single exchange without tool calls: 2.1.235 sends no request and keeps the conversation, 2.1.328 compacts it',
    files: base('CSH'),
    turns: [T('turn one'), T('/compact'), T('turn three', [], [put('CLAUDE.md', 'MARK_CSH_NEW edited root\n')])],
  },
  {
    name: 'sess_compact_order_limit',
    description: 'seven files read in a mixed order: the five with the newest modification time come back, newest first',
    files: { ...base('COL'), ...Object.fromEntries([1, 2, 3, 4, 5, 6, 7].map((i) => [`repo/src/f${i}.ts`, `MARK_COL_F${i}\n`])) },
    turns: [T('turn one', [4, 7, 1, 6, 2, 5, 3].map((i) => read(`src/f${i}.ts`))), T('/compact'), T('turn three')],
    guard: restores(2, 'repo/src/f7.ts', 'repo/src/f6.ts', 'repo/src/f5.ts', 'repo/src/f4.ts', 'repo/src/f3.ts'),
  },
  {
    name: 'sess_compact_huge_reference',
    description: 'a file over the per-file token limit read before /compact: a reference note instead of its text',
    files: { ...base('CHR'), 'repo/src/huge.ts': lines('huge line xxxxxxxxxxxxxxxx', 2500) },
    turns: [T('turn one', [read('src/huge.ts'), read('src/a.ts')]), T('/compact'), T('turn three')],
    guard: (t) => ((t[2]?.restored?.references ?? []).length === 1 ? [] : ['turn 3: no reference note']),
  },
  {
    name: 'sess_compact_skills',
    description: 'two skills invoked, one over the per-skill token limit: most recent first, the big one cut with a note',
    files: {
      ...base('CSK'),
      'repo/.claude/skills/big/SKILL.md': skillFile('MARK_CSK_BIG', lines('skill line yyyyyyyyyy', 1500)),
      'repo/.claude/skills/small/SKILL.md': skillFile('MARK_CSK_SMALL', 'MARK_CSK_SMALL_BODY $ARGUMENTS\n'),
    },
    turns: [T('turn one', [skill('big'), read('src/a.ts'), skill('small', 'S1')]), T('/compact'), T('turn three')],
    guard: skillsRestored(2, 'small', 'big'),
  },
  {
    name: 'sess_compact_partial',
    description: 'a file read with offset and limit, then /compact: it comes back whole',
    files: { ...base('CPA'), 'repo/src/long.ts': lines('MARK_CPA long', 30) },
    turns: [T('turn one', [read('src/long.ts', { offset: 3, limit: 4 })]), T('/compact'), T('turn three')],
    guard: restores(2, 'repo/src/long.ts'),
  },
  {
    name: 'sess_compact_written',
    description: 'a file the model wrote, then /compact: restored with the written text',
    files: base('CWR'),
    turns: [T('turn one', [write('src/w.ts', 'MARK_CWR_WRITTEN\n')]), T('/compact'), T('turn three')],
    guard: restores(2, 'repo/src/w.ts'),
  },
  {
    name: 'sess_compact_then_note',
    description: 'a nested CLAUDE.md restored by /compact and edited afterwards: no note (restored files are held like read ones)',
    files: base('CTN'),
    turns: [T('turn one', [read('pkg/x.ts')]), T('/compact'), T('turn three'), T('turn four', [], [put('pkg/CLAUDE.md', 'MARK_CTN_PKG nested instructions\nMARK_CTN_AFTER\n')])],
    guard: noNotes(3),
  },
  {
    name: 'sess_compact_unrestored_rule',
    description: 'a rule injected early, then five newer files read: /compact does not bring the rule back; does the next matching Read inject it again?',
    files: { ...base('CUR'), ...Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`repo/src/n${i}.ts`, `MARK_CUR_N${i}\n`])) },
    turns: [T('turn one', [read('src/api/client.ts'), ...[1, 2, 3, 4, 5].map((i) => read(`src/n${i}.ts`))]), T('/compact'), T('turn three', [read('src/api/client.ts')])],
  },
  {
    name: 'sess_compact_twice',
    description: 'a skill invoked, /compact, another turn, /compact again: the skill still comes back',
    files: { ...base('CTW'), 'repo/.claude/skills/keep/SKILL.md': skillFile('MARK_CTW_DESC', 'MARK_CTW_BODY\n') },
    turns: [T('turn one', [skill('keep'), read('pkg/x.ts')]), T('/compact'), T('turn three'), T('/compact'), T('turn five')],
    guard: skillsRestored(4, 'keep'),
  },
  // ---------------------------------------------------------------- /clear
  {
    name: 'sess_clear_reset',
    description: 'a nested CLAUDE.md injected, /clear, a touch below it again: injected anew',
    files: base('CLR'),
    turns: [T('turn one', [read('pkg/x.ts')]), T('/clear'), T('turn three', [read('pkg/x.ts')])],
    guard: injects(2, 0, 'MARK_CLR_PKG'),
  },
  {
    name: 'sess_clear_startup_edit',
    description: 'CLAUDE.md edited, then /clear: the next request carries the block rebuilt from disk',
    files: base('CSE'),
    turns: [T('turn one'), T('/clear', [], [put('CLAUDE.md', 'MARK_CSE_NEW edited root\n')]), T('turn three')],
    guard: startupHas(2, 'MARK_CSE_NEW'),
  },
  {
    name: 'sess_clear_skill_again',
    description: 'a skill invoked, /clear, invoked again: the whole body again',
    files: { ...base('CSA'), 'repo/.claude/skills/again/SKILL.md': skillFile('MARK_CSA_DESC', 'MARK_CSA_BODY\n') },
    turns: [T('turn one', [skill('again')]), T('/clear'), T('turn three', [skill('again')])],
    guard: bodyHas(2, 0, 'MARK_CSA_BODY'),
  },
  {
    name: 'sess_clear_no_notes',
    description: 'a nested CLAUDE.md injected, /clear, then edited: no note (the session no longer holds it)',
    files: base('CNN'),
    turns: [T('turn one', [read('pkg/x.ts')]), T('/clear'), T('turn three', [], [put('pkg/CLAUDE.md', 'MARK_CNN_EDITED\n')])],
    guard: noNotes(2),
  },
  // ---------------------------------------------------------------- commands, interrupts, hooks (issue 31): turn-events.ts
  ...turnEventScenarios,
];

export type { ExtractedTurn };
