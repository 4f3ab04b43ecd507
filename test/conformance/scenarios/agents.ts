// §12 item 6: AGENTS.md fallback (2.1.328 only; 2.1.235 ignores AGENTS.md). Run on both versions.
import type { Scenario } from '../scenario.js';

export const agents: Scenario[] = [
  {
    name: 'agents_fallback',
    spec: ['§2', '§12'],
    description:
      'agents: no CLAUDE.md/.claude/CLAUDE.md/CLAUDE.local.md in any ancestor: AGENTS.md and .claude/AGENTS.md load as Project entries (328), placed around Project entries by directory; ~/.claude/AGENTS.md ignored. ' +
      'BINARY vs SPEC: the @includes of a startup AGENTS.md ARE followed (spec: not followed)',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'AGENTS.md': 'MARK_AG_ROOTDIR_AGENTS\n',
      'home/.claude/AGENTS.md': 'MARK_AG_NEVER_USER_AGENTS\n',
      'repo/AGENTS.md': 'MARK_AG_REPO_AGENTS\n@inc.md\n',
      'repo/inc.md': 'MARK_AG_INCLUDED_FROM_AGENTS\n',
      'repo/.claude/AGENTS.md': 'MARK_AG_REPO_DOT_AGENTS\n',
      'repo/.claude/rules/r.md': 'MARK_AG_REPO_RULE\n',
      'repo/pkg/AGENTS.md': 'MARK_AG_NESTED_AGENTS\n',
      'repo/pkg/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/pkg/x.ts' }],
    expectByVersion: {
      '2.1.336': {
        startup: ['P AGENTS.md', 'P repo/.claude/rules/r.md', 'P repo/AGENTS.md', 'P repo/inc.md', 'P repo/.claude/AGENTS.md'],
        touches: [['repo/pkg/AGENTS.md']],
        absent: ['MARK_AG_NEVER'],
      },
      '2.1.333': {
        startup: ['P AGENTS.md', 'P repo/.claude/rules/r.md', 'P repo/AGENTS.md', 'P repo/inc.md', 'P repo/.claude/AGENTS.md'],
        touches: [['repo/pkg/AGENTS.md']],
        absent: ['MARK_AG_NEVER'],
      },
      '2.1.332': {
        startup: ['P AGENTS.md', 'P repo/.claude/rules/r.md', 'P repo/AGENTS.md', 'P repo/inc.md', 'P repo/.claude/AGENTS.md'],
        touches: [['repo/pkg/AGENTS.md']],
        absent: ['MARK_AG_NEVER'],
      },
      '2.1.328': {
        startup: ['P AGENTS.md', 'P repo/.claude/rules/r.md', 'P repo/AGENTS.md', 'P repo/inc.md', 'P repo/.claude/AGENTS.md'],
        touches: [['repo/pkg/AGENTS.md']],
        absent: ['MARK_AG_NEVER'],
      },
      '2.1.235': { startup: ['P repo/.claude/rules/r.md'], touches: [[]], absent: ['AGENTS'] },
    },
  },
  {
    name: 'agents_with_claudemd',
    spec: ['§12'],
    description: 'agents2: an ancestor CLAUDE.md disables the fallback; a directory with its own CLAUDE.md does not get its AGENTS.md',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/CLAUDE.md': 'MARK_AGC_REPO\n',
      'repo/AGENTS.md': 'MARK_AGC_REPO_AGENTS\n',
      'repo/pkg/CLAUDE.md': 'MARK_AGC_PKG\n',
      'repo/pkg/AGENTS.md': 'MARK_AGC_PKG_AGENTS\n',
      'repo/pkg/x.ts': 'export {};\n',
      'repo/lib/AGENTS.md': 'MARK_AGC_LIB_AGENTS\n',
      'repo/lib/y.ts': 'export {};\n',
    },
    touches: [
      { tool: 'Read', path: 'repo/pkg/x.ts' },
      { tool: 'Read', path: 'repo/lib/y.ts' },
    ],
    expect: { startup: ['P repo/CLAUDE.md'], touches: [['repo/pkg/CLAUDE.md'], []], absent: ['AGENTS'] },
  },
  {
    name: 'agents_local_disables',
    spec: ['§12'],
    description: 'agents3: a root CLAUDE.local.md disables the whole fallback',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/CLAUDE.local.md': 'MARK_AGL_LOCAL\n',
      'repo/AGENTS.md': 'MARK_AGL_REPO_AGENTS\n',
      'repo/pkg/AGENTS.md': 'MARK_AGL_PKG_AGENTS\n',
      'repo/pkg/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/pkg/x.ts' }],
    expect: { startup: ['L repo/CLAUDE.local.md'], absent: ['MARK_AGL_REPO_AGENTS'] },
  },
  {
    name: 'agents_nested_mix',
    spec: ['§7', '§12'],
    description:
      'fallback active: after a Read, nested CLAUDE.md files come as reminders and nested AGENTS.md as a role:system hook message after them (328); a dir with its own CLAUDE.md does not get its AGENTS.md. ' +
      'BINARY vs SPEC: the includes of a nested AGENTS.md are followed, in the same hook message (entries joined by a single \\n)',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/AGENTS.md': 'MARK_AGN_REPO_AGENTS\n',
      'repo/pkg/AGENTS.md': 'MARK_AGN_PKG_AGENTS\n@pkg_inc.md\n@pkg_inc2.md\n\n\n',
      'repo/pkg/pkg_inc.md': 'MARK_AGN_PKG_INC_NO_TRAILING_NL',
      'repo/pkg/pkg_inc2.md': 'MARK_AGN_PKG_INC2\n',
      'repo/pkg/sub/CLAUDE.md': 'MARK_AGN_SUB_CLAUDE\n',
      'repo/pkg/sub/AGENTS.md': 'MARK_AGN_SUB_AGENTS\n',
      'repo/pkg/sub/.claude/AGENTS.md': 'MARK_AGN_SUB_DOT_AGENTS\n',
      'repo/pkg/sub/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/pkg/sub/x.ts' }],
    expectByVersion: {
      '2.1.336': {
        startup: ['P repo/AGENTS.md'],
        touches: [['repo/pkg/sub/CLAUDE.md', 'repo/pkg/AGENTS.md', 'repo/pkg/pkg_inc.md', 'repo/pkg/pkg_inc2.md']],
        contains: ['pkg/AGENTS.md:\n\nMARK_AGN_PKG_AGENTS\n@pkg_inc.md\n@pkg_inc2.md\n\n\n', 'pkg_inc.md:\n\nMARK_AGN_PKG_INC_NO_TRAILING_NL'],
      },
      '2.1.333': {
        startup: ['P repo/AGENTS.md'],
        touches: [['repo/pkg/sub/CLAUDE.md', 'repo/pkg/AGENTS.md', 'repo/pkg/pkg_inc.md', 'repo/pkg/pkg_inc2.md']],
        contains: ['pkg/AGENTS.md:\n\nMARK_AGN_PKG_AGENTS\n@pkg_inc.md\n@pkg_inc2.md\n\n\n', 'pkg_inc.md:\n\nMARK_AGN_PKG_INC_NO_TRAILING_NL'],
      },
      '2.1.332': {
        startup: ['P repo/AGENTS.md'],
        touches: [['repo/pkg/sub/CLAUDE.md', 'repo/pkg/AGENTS.md', 'repo/pkg/pkg_inc.md', 'repo/pkg/pkg_inc2.md']],
        contains: ['pkg/AGENTS.md:\n\nMARK_AGN_PKG_AGENTS\n@pkg_inc.md\n@pkg_inc2.md\n\n\n', 'pkg_inc.md:\n\nMARK_AGN_PKG_INC_NO_TRAILING_NL'],
      },
      '2.1.328': {
        startup: ['P repo/AGENTS.md'],
        touches: [['repo/pkg/sub/CLAUDE.md', 'repo/pkg/AGENTS.md', 'repo/pkg/pkg_inc.md', 'repo/pkg/pkg_inc2.md']],
        contains: ['pkg/AGENTS.md:\n\nMARK_AGN_PKG_AGENTS\n@pkg_inc.md\n@pkg_inc2.md\n\n\n', 'pkg_inc.md:\n\nMARK_AGN_PKG_INC_NO_TRAILING_NL'],
      },
      '2.1.235': { startup: null, touches: [['repo/pkg/sub/CLAUDE.md']] },
    },
  },
];
