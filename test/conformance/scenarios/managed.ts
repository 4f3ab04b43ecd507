// §2.1, §10 (and the managed parts of §6, §8, §9): /etc/claude-code, bind-mounted inside `unshare -m`.
import type { Scenario, Tree } from '../scenario.js';

const managedTree: Tree = {
  'CLAUDE.md': 'MARK_MGD_CLAUDEMD\n',
  'managed-settings.json': JSON.stringify({ claudeMd: 'MARK_MGD_SETTINGS_CLAUDEMD' }),
  '.claude/rules/m1.md': 'MARK_MGD_RULE_M1\n',
  '.claude/rules/sub/m2.md': 'MARK_MGD_RULE_M2\n',
  '.claude/CLAUDE.md': 'MARK_MGD_NOT_DOTCLAUDE\n',
  'CLAUDE.local.md': 'MARK_MGD_NOT_LOCAL\n',
};

const userAndProject: Tree = {
  'home/.claude/CLAUDE.md': 'MARK_MGD_USER\n',
  'repo/CLAUDE.md': 'MARK_MGD_REPO\n',
  'repo/CLAUDE.local.md': 'MARK_MGD_REPO_LOCAL\n',
};

const managedStartup = [
  'M /etc/claude-code/CLAUDE.md',
  'M <managed-settings>',
  ['M /etc/claude-code/.claude/rules/m1.md', 'M /etc/claude-code/.claude/rules/sub/m2.md'],
];

export const managed: Scenario[] = [
  {
    name: 'managed_basic',
    spec: ['§2', '§10'],
    description: 'managed CLAUDE.md, the policy claudeMd string and managed rules come first; .claude/CLAUDE.md and CLAUDE.local.md there are not read',
    git: ['repo'],
    cwd: 'repo',
    managed: managedTree,
    files: userAndProject,
    expect: {
      startup: [...managedStartup, 'U home/.claude/CLAUDE.md', 'P repo/CLAUDE.md', 'L repo/CLAUDE.local.md'],
      contains: ['Contents of <managed-settings> (organization-managed policy instructions):\n\nMARK_MGD_SETTINGS_CLAUDEMD'],
      absent: ['MARK_MGD_NOT_'],
    },
  },
  {
    name: 'managed_srcuser',
    spec: ['§2', '§9', '§10'],
    description: '--setting-sources user: managed still loads, project and local do not',
    git: ['repo'],
    cwd: 'repo',
    settingSources: 'user',
    managed: managedTree,
    files: userAndProject,
    expect: { startup: [...managedStartup, 'U home/.claude/CLAUDE.md'] },
  },
  {
    name: 'managed_srcempty',
    spec: ['§9', '§10'],
    description: '--setting-sources "": only managed files load',
    git: ['repo'],
    cwd: 'repo',
    settingSources: '',
    managed: managedTree,
    files: userAndProject,
    expect: { startup: managedStartup },
  },
  {
    name: 'managed_disable',
    spec: ['§2', '§9', '§10'],
    description: 'CLAUDE_CODE_DISABLE_CLAUDE_MDS=1 disables managed files too',
    git: ['repo'],
    cwd: 'repo',
    env: { CLAUDE_CODE_DISABLE_CLAUDE_MDS: '1' },
    managed: { ...managedTree, '.claude/rules/mcond.md': '---\npaths: "**/*.ts"\n---\nMARK_MGD_COND\n' },
    files: { ...userAndProject, 'repo/src/x.ts': 'export {};\n' },
    touches: [{ tool: 'Read', path: 'repo/src/x.ts' }],
    expect: { startup: null, touches: [[]] },
  },
  {
    name: 'managed_bare',
    spec: ['§2', '§9', '§10'],
    description: '--bare disables managed files too',
    git: ['repo'],
    cwd: 'repo',
    bare: true,
    managed: managedTree,
    files: userAndProject,
    expect: { startup: null },
  },
  {
    name: 'managed_cond',
    spec: ['§6', '§7', '§10'],
    description: 'a conditional managed rule matches relative to cwd and is injected lazily, before user rules and nested files',
    git: ['repo'],
    cwd: 'repo',
    managed: {
      '.claude/rules/mcond.md': '---\npaths: "**/*.ts"\n---\nMARK_MGD_COND\n',
      '.claude/rules/mcond_no.md': '---\npaths: "repo/src/*.ts"\n---\nMARK_MGD_COND_NOMATCH\n',
    },
    files: {
      'home/.claude/rules/ucond.md': '---\npaths: "src/**"\n---\nMARK_MGD_USER_COND\n',
      'repo/CLAUDE.md': 'MARK_MGDC_REPO\n',
      'repo/src/CLAUDE.md': 'MARK_MGDC_SRC\n',
      'repo/src/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/src/x.ts' }],
    expect: {
      startup: ['P repo/CLAUDE.md'],
      touches: [['/etc/claude-code/.claude/rules/mcond.md', 'home/.claude/rules/ucond.md', 'repo/src/CLAUDE.md']],
    },
  },
  {
    name: 'managed_include',
    spec: ['§8', '§10'],
    description: 'managed3: includes of the managed CLAUDE.md follow the inside-cwd rule; an included file gets the Managed suffix',
    git: ['repo'],
    cwd: 'repo',
    managed: {
      'CLAUDE.md': 'MARK_MGDI_ROOT\n@./minc.md\n@{ROOT}/repo/inrepo_from_mgd.md\n@{ROOT}/outside/out_from_mgd.md\n',
      'minc.md': 'MARK_MGDI_MINC\n',
      '.claude/rules/mr.md': 'MARK_MGDI_RULE\n@{ROOT}/repo/inrepo_from_mgd_rule.md\n',
    },
    files: {
      'repo/inrepo_from_mgd.md': 'MARK_MGDI_INREPO\n',
      'repo/inrepo_from_mgd_rule.md': 'MARK_MGDI_INREPO_RULE\n',
      'outside/out_from_mgd.md': 'MARK_MGDI_OUTSIDE\n',
      'repo/CLAUDE.md': 'MARK_MGDI_REPO\n',
    },
    expect: {
      startup: [
        'M /etc/claude-code/CLAUDE.md',
        'M repo/inrepo_from_mgd.md',
        'M /etc/claude-code/.claude/rules/mr.md',
        'M repo/inrepo_from_mgd_rule.md',
        'P repo/CLAUDE.md',
      ],
      absent: ['MARK_MGDI_MINC', 'MARK_MGDI_OUTSIDE'],
    },
  },
  {
    name: 'managed_excludes',
    spec: ['§9', '§10'],
    description: 'claudeMdExcludes from policy and project settings do not apply to managed files; the policy list does apply to project files',
    git: ['repo'],
    cwd: 'repo',
    managed: {
      'CLAUDE.md': 'MARK_MGDX_CLAUDEMD\n',
      'managed-settings.json': JSON.stringify({ claudeMdExcludes: ['/etc/claude-code/CLAUDE.md', '/etc/claude-code/**', '**/repo/CLAUDE.md'] }),
      '.claude/rules/m.md': 'MARK_MGDX_RULE\n',
    },
    files: {
      'repo/CLAUDE.md': 'MARK_MGDX_REPO_EXCLUDED\n',
      'repo/CLAUDE.local.md': 'MARK_MGDX_REPO_LOCAL\n',
      'repo/.claude/settings.json': JSON.stringify({ claudeMdExcludes: ['/etc/claude-code/.claude/rules/m.md'] }),
    },
    expect: {
      startup: ['M /etc/claude-code/CLAUDE.md', 'M /etc/claude-code/.claude/rules/m.md', 'L repo/CLAUDE.local.md'],
      absent: ['MARK_MGDX_REPO_EXCLUDED'],
    },
  },
];
