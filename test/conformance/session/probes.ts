// Probe sessions (probe.ts): questions measured on the binaries before they become suite scenarios.
import type { DriverTurn } from '../../../src/ground-truth/session-driver.js';
import { fm, type Tree } from '../scenario.js';
import type { SessionScenario } from './run.js';

const R = '{ROOT}/repo';
type Call = NonNullable<DriverTurn['calls']>[number];
const read = (p: string): Call => ({ name: 'Read', input: { file_path: `${R}/${p}` } });
const skill = (name: string, args?: string): Call => ({ name: 'Skill', input: { skill: name, ...(args !== undefined && { args }) } });
const put = (p: string, content: string) => ({ write: `${R}/${p}`, content });
const del = (p: string) => ({ delete: `${R}/${p}` });
const T = (prompt: string, calls: Call[] = [], before?: DriverTurn['before'], extra: Partial<DriverTurn> = {}): DriverTurn => ({ prompt, calls, ...(before && { before }), ...extra });
const skillFile = (desc: string, body: string, extra = '') => fm(`description: ${desc}${extra ? '\n' + extra : ''}`, body);

function base(m: string): Tree {
  return {
    'home/.claude/CLAUDE.md': `MARK_${m}_USER user instructions\n`,
    'repo/CLAUDE.md': `MARK_${m}_ROOT root instructions\n`,
    'repo/.claude/rules/api.md': fm('paths:\n  - "src/api/**"', `MARK_${m}_API api rule\n`),
    'repo/pkg/CLAUDE.md': `MARK_${m}_PKG nested instructions\n`,
    'repo/src/api/client.ts': `export const client${m} = 1;\n`,
    'repo/src/a.ts': 'a1\n',
    'repo/pkg/x.ts': 'x1\n',
  };
}

export const probes: SessionScenario[] = [
  {
    name: 'p_nested_skill',
    description: 'a nested skill found by a Read below it, then invoked by its plain name, by pkg:name',
    files: { ...base('PNS'), 'repo/pkg/.claude/skills/deploy/SKILL.md': skillFile('MARK_PNS_DESC deploy', 'MARK_PNS_BODY $ARGUMENTS\n') },
    turns: [T('turn one', [skill('deploy', 'early'), read('pkg/x.ts')]), T('turn two', [skill('deploy', 'a1'), skill('pkg:deploy', 'a2')])],
  },
  {
    name: 'p_nested_shadow',
    description: 'a nested skill with the name of a project skill: what is listed, which body each name gets',
    files: {
      ...base('PSH'),
      'repo/.claude/skills/deploy/SKILL.md': skillFile('MARK_PSH_TOP top deploy', 'MARK_PSH_TOPBODY $ARGUMENTS\n'),
      'repo/pkg/.claude/skills/deploy/SKILL.md': skillFile('MARK_PSH_NESTED nested deploy', 'MARK_PSH_NESTEDBODY $ARGUMENTS\n'),
    },
    turns: [T('turn one', [read('pkg/x.ts')]), T('turn two', [skill('pkg:deploy', 'q1'), skill('deploy', 'q2')])],
  },
  {
    name: 'p_skill_created',
    description: 'a SKILL.md created, edited, deleted mid-session',
    files: { ...base('PSC'), 'repo/.claude/skills/old/SKILL.md': skillFile('MARK_PSC_OLD', 'MARK_PSC_OLDBODY v1\n') },
    turns: [
      T('turn one'),
      T('turn two', [skill('late', 'x')], [put('.claude/skills/late/SKILL.md', skillFile('MARK_PSC_LATE', 'MARK_PSC_LATEBODY\n')), put('.claude/skills/old/SKILL.md', skillFile('MARK_PSC_OLD2', 'MARK_PSC_OLDBODY v2\n'))]),
      T('turn three', [skill('old')]),
      T('turn four', [skill('gone')], [put('.claude/skills/gone/SKILL.md', skillFile('MARK_PSC_GONE', 'MARK_PSC_GONEBODY\n'))]),
    ],
  },
  {
    name: 'p_skill_deleted',
    description: 'a SKILL.md deleted mid-session, then invoked; another edited before its first invocation',
    files: { ...base('PSD'), 'repo/.claude/skills/del/SKILL.md': skillFile('MARK_PSD_DEL', 'MARK_PSD_DELBODY\n'), 'repo/.claude/skills/ed/SKILL.md': skillFile('MARK_PSD_ED', 'MARK_PSD_EDBODY v1\n') },
    turns: [T('turn one'), T('turn two', [skill('del'), skill('ed')], [del('.claude/skills/del'), put('.claude/skills/ed/SKILL.md', skillFile('MARK_PSD_ED', 'MARK_PSD_EDBODY v2\n'))])],
  },
  {
    name: 'p_skill_again',
    description: 'the same skill: same args, other args, no args, after /compact, fork twice',
    files: {
      ...base('PSA'),
      'repo/.claude/skills/rep/SKILL.md': skillFile('MARK_PSA_DESC', 'MARK_PSA_BODY [$ARGUMENTS]\n'),
      'repo/.claude/skills/tail/SKILL.md': skillFile('MARK_PSA_TDESC', 'MARK_PSA_TBODY\n'),
      'repo/.claude/skills/fk/SKILL.md': skillFile('MARK_PSA_FDESC', 'MARK_PSA_FBODY $ARGUMENTS\n', 'context: fork'),
    },
    turns: [
      T('turn one', [skill('rep', 'A1'), skill('rep', 'A1'), skill('rep', 'B2'), skill('rep'), skill('tail', 'T1'), skill('tail', 'T2')]),
      T('turn two', [skill('rep', 'B2'), skill('fk', 'F1'), skill('fk', 'F1'), skill('fk', 'F2')]),
      T('/compact'),
      T('turn four', [skill('rep', 'B2'), skill('rep', 'C3')]),
    ],
  },
  {
    name: 'p_autocompact',
    description: 'usage reported near the window: does Claude Code compact on its own',
    files: base('PAC'),
    turns: [T('turn one', [read('src/a.ts')], undefined, { usage: { input: 100, cacheRead: 195_000, cacheCreation: 0 } }), T('turn two', [read('pkg/x.ts')]), T('turn three')],
  },
  {
    name: 'p_skill_again2',
    description: '$0-only skill with other args but the same body; identical repeat and recency; after /compact: other args first, no args',
    files: {
      ...base('PSB'),
      'repo/.claude/skills/pos/SKILL.md': skillFile('MARK_PSB_PDESC', 'MARK_PSB_PBODY [$0]\n'),
      'repo/.claude/skills/a/SKILL.md': skillFile('MARK_PSB_ADESC', 'MARK_PSB_ABODY [$ARGUMENTS]\n'),
      'repo/.claude/skills/b/SKILL.md': skillFile('MARK_PSB_BDESC', 'MARK_PSB_BBODY\n'),
    },
    turns: [
      T('turn one', [skill('pos', 'X Y'), skill('pos', 'X Z'), skill('a', 'A1'), skill('b'), skill('a', 'A1')]),
      T('/compact'),
      T('turn three', [skill('a', 'A2'), skill('b'), skill('b'), skill('pos', 'X Y')]),
    ],
  },
  {
    name: 'p_skill_created_clear',
    description: 'a SKILL.md created mid-session, then /clear, then /compact: invocable?',
    files: { ...base('PCC'), 'repo/.claude/skills/old/SKILL.md': skillFile('MARK_PCC_OLD', 'MARK_PCC_OLDBODY v1\n') },
    turns: [
      T('turn one', [read('src/a.ts')]),
      T('/compact', [], [put('.claude/skills/late/SKILL.md', skillFile('MARK_PCC_LATE', 'MARK_PCC_LATEBODY\n')), put('.claude/skills/old/SKILL.md', skillFile('MARK_PCC_OLD', 'MARK_PCC_OLDBODY v2\n'))]),
      T('turn three', [skill('late'), skill('old')]),
      T('/clear'),
      T('turn five', [skill('late'), skill('old')]),
    ],
  },
  {
    name: 'p_nested_same_turn',
    description: 'a nested skill invoked in the same turn as the Read that finds it; its SKILL.md edited after discovery; a nested skill beside a user skill of the same name',
    files: {
      ...base('PNT'),
      'repo/pkg/.claude/skills/ship/SKILL.md': skillFile('MARK_PNT_SHIP', 'MARK_PNT_SHIPBODY v1\n'),
      'home/.claude/skills/ship/SKILL.md': skillFile('MARK_PNT_USHIP', 'MARK_PNT_USHIPBODY\n'),
      'repo/lib/.claude/skills/lone/SKILL.md': skillFile('MARK_PNT_LONE', 'MARK_PNT_LONEBODY v1\n'),
      'repo/lib/y.ts': 'y1\n',
    },
    turns: [
      T('turn one', [read('lib/y.ts'), skill('lone'), read('pkg/x.ts')]),
      T('turn two', [skill('pkg:ship'), skill('ship'), skill('lone', 'again')], [put('lib/.claude/skills/lone/SKILL.md', skillFile('MARK_PNT_LONE', 'MARK_PNT_LONEBODY v2\n'))]),
    ],
  },
  ...([
    ['p_ac_s199', 'claude-sonnet-4-5', 199_000],
    ['p_ac_s170', 'claude-sonnet-4-5', 170_000],
    ['p_ac_s160', 'claude-sonnet-4-5', 160_000],
    ['p_ac_d990', '', 990_000],
    ['p_ac_d900', '', 900_000],
    ['p_ac_s990', 'claude-sonnet-4-5', 990_000],
    ['p_ac_h199', 'claude-haiku-4-5', 199_000],
    ['p_ac_d966', '', 966_000],
    ['p_ac_d968', '', 968_000],
    ['p_ac_d960', '', 960_000],
    ['p_ac_d975', '', 975_000],
    ['p_ac_d990_off', '', 990_000, { DISABLE_AUTO_COMPACT: '1' }],
    ['p_ac_s990_w', 'claude-sonnet-4-5', 190_000, { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '200000' }],
    ['p_ac_s5_199', 'claude-sonnet-5', 199_000],
    ['p_ac_s1m', 'claude-sonnet-4-5[1m]', 990_000],
    ['p_ac_s5_990', 'claude-sonnet-5', 990_000],
    ['p_ac_s4_5m', 'claude-sonnet-4-5', 5_000_000],
    ['p_ac_o5_190', 'claude-opus-5', 190_000],
    ['p_ac_o5_990', 'claude-opus-5', 990_000],
    ['p_ac_o5_960', 'claude-opus-5', 960_000],
  ] as [string, string, number, Record<string, string>?][]).map(([name, model, tokens, env]): SessionScenario => ({
    name,
    description: `${model || 'the default model'}: ${tokens} tokens reported in turn one`,
    files: base('PAX'),
    env: { ...(model && { ANTHROPIC_MODEL: model }), ...env },
    turns: [T('turn one', [read('src/a.ts'), read('src/api/client.ts')], undefined, { usage: { input: 100, cacheRead: tokens - 100, cacheCreation: 0 } }), T('turn two', [read('pkg/x.ts')]), T('turn three')],
  })),
  {
    name: 'p_resume2',
    description: 'resume: a changed rule and an unchanged nested file touched again; an always-on rule edited; a held nested file edited after the resume',
    files: { ...base('PR2'), 'repo/.claude/rules/always.md': 'MARK_PR2_ALWAYS\n', 'repo/lib/CLAUDE.md': 'MARK_PR2_LIB\n', 'repo/lib/y.ts': 'y1\n' },
    turns: [
      T('turn one', [read('src/api/client.ts'), read('pkg/x.ts'), read('lib/y.ts'), read('src/a.ts')]),
      T('turn two', [read('src/api/client.ts'), read('pkg/x.ts')], [put('.claude/rules/api.md', fm('paths:\n  - "src/api/**"', 'MARK_PR2_API2\n')), put('.claude/rules/always.md', 'MARK_PR2_ALWAYS2\n'), put('src/a.ts', 'a2\n')], { restart: 'resume' }),
      T('turn three', [read('lib/y.ts')], [put('pkg/CLAUDE.md', 'MARK_PR2_PKG3\n')]),
      T('turn four', [], [], { restart: 'continue' }),
    ],
  },
  {
    name: 'p_resume',
    description: 'a session ended and continued (--continue, --resume): what the first request holds',
    files: { ...base('PRE'), 'repo/.claude/skills/kept/SKILL.md': skillFile('MARK_PRE_DESC', 'MARK_PRE_BODY\n') },
    turns: [
      T('turn one', [read('src/api/client.ts'), read('pkg/x.ts'), skill('kept')]),
      T('turn two', [read('src/api/client.ts'), read('pkg/x.ts'), skill('kept')], [put('CLAUDE.md', 'MARK_PRE_NEWROOT\n'), put('pkg/CLAUDE.md', 'MARK_PRE_PKG2\n')], { restart: 'continue' }),
      T('turn three', [], [put('.claude/rules/api.md', fm('paths:\n  - "src/api/**"', 'MARK_PRE_API3\n'))], { restart: 'resume' }),
    ],
  },
  {
    name: 'p_reinvoke',
    description: 'a skill called again with other arguments: without a placeholder, with $ARGUMENTS, with $0 only, with ${CLAUDE_SKILL_DIR}, with !`cmd` output that changes, and after /compact',
    files: {
      ...base('PRI'),
      'repo/.claude/skills/tail/SKILL.md': skillFile('MARK_PRI_TDESC', 'MARK_PRI_TBODY no placeholder\nsecond line\n'),
      'repo/.claude/skills/rep/SKILL.md': skillFile('MARK_PRI_RDESC', 'MARK_PRI_RBODY [$ARGUMENTS]\n'),
      'repo/.claude/skills/pos/SKILL.md': skillFile('MARK_PRI_PDESC', 'MARK_PRI_PBODY [$0]\n'),
      'repo/.claude/skills/dir/SKILL.md': skillFile('MARK_PRI_DDESC', 'MARK_PRI_DBODY at ${CLAUDE_SKILL_DIR}/x\n'),
      'repo/.claude/skills/bang/SKILL.md': skillFile('MARK_PRI_BDESC', 'MARK_PRI_BBODY now: !`cat {ROOT}/repo/counter.txt` end\n'),
      'repo/counter.txt': 'MARK_PRI_COUNT_1',
    },
    turns: [
      T('turn one', [skill('tail', 'T1'), skill('tail', 'T2'), skill('tail'), skill('tail', 'T2'), skill('rep', 'A1'), skill('rep', 'B2'), skill('pos', 'X'), skill('pos', 'Y'), skill('dir', 'd1'), skill('dir', 'd2'), skill('bang'), skill('bang', 'Q1')]),
      T('turn two', [skill('bang', 'Q1'), skill('bang'), skill('tail', 'T3')], [put('counter.txt', 'MARK_PRI_COUNT_2')]),
      T('/compact'),
      T('turn four', [skill('tail', 'T4'), skill('tail', 'T5'), skill('rep', 'C3'), skill('dir', 'd3')]),
    ],
  },
  {
    name: 'p_reinvoke_cut',
    description: 'a skill over the per-skill limit of the compaction (brought back cut), called again after /compact: with the same (no) arguments, then with others',
    files: {
      ...base('PRC'),
      'repo/.claude/skills/big/SKILL.md': skillFile('MARK_PRC_BIG', Array.from({ length: 1500 }, (_, i) => `skill line yyyyyyyyyy ${i + 1}`).join('\n') + '\n'),
      'repo/.claude/skills/big2/SKILL.md': skillFile('MARK_PRC_BIG2', Array.from({ length: 1500 }, (_, i) => `other line zzzzzzzzzz ${i + 1}`).join('\n') + '\n'),
    },
    turns: [T('turn one', [skill('big'), skill('big2', 'A1')]), T('/compact'), T('turn three', [skill('big'), skill('big2', 'A2'), skill('big2', 'A2')])],
  },
];
