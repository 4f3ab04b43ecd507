// §3.5 (frontmatter) and the frontmatter-key part of §5.
import type { Scenario } from '../scenario.js';

export const frontmatter: Scenario[] = [
  {
    name: 'fm_strip',
    spec: ['§3.5', '§3.7'],
    description: 'frontmatter is stripped from every kind of file; blank lines after it go; an indented --- is text; a second --- block stays; invalid YAML is still stripped',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'home/.claude/CLAUDE.md': '---\nname: user\n---\nMARK_FMS_USER\n',
      'repo/CLAUDE.md': '---\npaths: "nomatch/**"\n---\nMARK_FMS_ROOT_PATHS_IGNORED\n',
      'repo/.claude/CLAUDE.md': '---\ndescription: dot\n---\n\n\n\nMARK_FMS_DOT_BLANKS\n',
      'repo/.claude/rules/indent.md': '  ---\npaths: "pkg/**"\n  ---\nMARK_FMS_INDENTED\n',
      'repo/.claude/rules/dashes.md': '---\ndescription: a\n---\n---\nMARK_FMS_SECOND_DASHES\n---\n',
      'repo/.claude/rules/badyaml.md': '---\npaths: "bad/**"\nfoo: [unclosed\n---\nMARK_FMS_BADYAML\n',
      'repo/.claude/rules/badyaml_nopaths.md': '---\nfoo: [unclosed\n---\nMARK_FMS_BADYAML_UNCOND\n',
      'repo/CLAUDE.local.md': '---\npaths:\n  - "nomatch/**"\n---\nMARK_FMS_LOCAL_PATHS_IGNORED\n',
      'repo/bad/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/bad/x.ts' }],
    expect: {
      startup: [
        'U home/.claude/CLAUDE.md',
        'P repo/CLAUDE.md',
        'P repo/.claude/CLAUDE.md',
        ['P repo/.claude/rules/indent.md', 'P repo/.claude/rules/dashes.md', 'P repo/.claude/rules/badyaml_nopaths.md'],
        'L repo/CLAUDE.local.md',
      ],
      touches: [['repo/.claude/rules/badyaml.md']],
      contains: [
        '(project instructions, checked into the codebase):\n\nMARK_FMS_DOT_BLANKS',
        ':\n\n---\npaths: "pkg/**"\n  ---\nMARK_FMS_INDENTED',
        ':\n\n---\nMARK_FMS_SECOND_DASHES\n---',
        'Contents of {ROOT}/repo/.claude/rules/badyaml.md:\n\nMARK_FMS_BADYAML\n',
      ],
      absent: ['name: user', 'description:', 'nomatch', 'unclosed'],
    },
  },
  {
    name: 'fm_keys',
    spec: ['§5', '§6'],
    description: 'only the lowercase key paths matters: globs, Paths, description, alwaysApply are ignored (unconditional, frontmatter stripped); paths "**" and [] are unconditional',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/.claude/rules/globskey.md': '---\nglobs: "nomatch/**"\n---\nMARK_FMK_GLOBS\n',
      'repo/.claude/rules/capkey.md': '---\nPaths: "nomatch/**"\n---\nMARK_FMK_CAPKEY\n',
      'repo/.claude/rules/nopaths.md': '---\ndescription: "d"\nalwaysApply: false\n---\nMARK_FMK_NOPATHS\n',
      'repo/.claude/rules/starstar.md': '---\npaths: "**"\n---\nMARK_FMK_STARSTAR\n',
      'repo/.claude/rules/starstarlist.md': '---\npaths:\n  - "**"\n  - "**/**"\n---\nMARK_FMK_STARSTARLIST\n',
      'repo/.claude/rules/emptylist.md': '---\npaths: []\n---\nMARK_FMK_EMPTYLIST\n',
      'repo/.claude/rules/emptystr.md': '---\npaths: ""\n---\nMARK_FMK_EMPTYSTR\n',
      'repo/.claude/rules/real_cond.md': '---\npaths: "only/**"\n---\nMARK_FMK_REAL_COND\n',
      'repo/only/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/only/x.ts' }],
    expect: {
      startup: [
        [
          'P repo/.claude/rules/globskey.md',
          'P repo/.claude/rules/capkey.md',
          'P repo/.claude/rules/nopaths.md',
          'P repo/.claude/rules/starstar.md',
          'P repo/.claude/rules/starstarlist.md',
          'P repo/.claude/rules/emptylist.md',
          'P repo/.claude/rules/emptystr.md',
        ],
      ],
      touches: [['repo/.claude/rules/real_cond.md']],
      absent: ['globs:', 'Paths:', 'alwaysApply', 'paths:'],
    },
  },
  {
    name: 'fm_lazy',
    spec: ['§3.5', '§6', '§7'],
    description:
      'nestfmt2/nestpaths: lazily loaded files have frontmatter and the whitespace after it stripped (also the indentation of the first body line: binary vs spec), content otherwise untrimmed; paths: in a nested CLAUDE.md has no effect',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/pkg/CLAUDE.md': '---\npaths: "nomatch/**"\n---\n\n\nMARK_FML_NESTED_PATHS_IGNORED\n\n',
      'repo/pkg/CLAUDE.local.md': '---\ndescription: x\n---\n  MARK_FML_NESTED_LOCAL_INDENT\n',
      'repo/pkg/.claude/rules/cond.md': '---\npaths:\n  - "*.ts"\n---\n\nMARK_FML_NESTED_COND\n\n\n',
      'repo/pkg/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/pkg/x.ts' }],
    expect: {
      startup: null,
      touches: [['repo/pkg/CLAUDE.md', 'repo/pkg/CLAUDE.local.md', 'repo/pkg/.claude/rules/cond.md']],
      // BINARY vs SPEC: not only blank lines but all whitespace after the closing --- goes (328 regex
      // /^---\s*\n([\s\S]*?)---\s*\n?/), including the indentation of the first body line
      contains: [
        'pkg/CLAUDE.md:\n\nMARK_FML_NESTED_PATHS_IGNORED\n\n',
        'pkg/CLAUDE.local.md:\n\nMARK_FML_NESTED_LOCAL_INDENT\n',
        'cond.md:\n\nMARK_FML_NESTED_COND\n\n\n',
      ],
    },
  },
  {
    name: 'fm_unspecified',
    spec: ['§3.5'],
    description: 'frontmatter shapes the spec does not list (the binary decides): unclosed, empty, trailing spaces on the fences, ... as closing fence, YAML comments, a paths key with a comment',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/.claude/rules/unclosed.md': '---\ndescription: never closed\nMARK_FMU_UNCLOSED\n',
      'repo/.claude/rules/emptyfm.md': '---\n---\nMARK_FMU_EMPTY_FM\n',
      'repo/.claude/rules/trailsp.md': '---   \npaths: "tsp/**"\n---  \nMARK_FMU_TRAILING_SPACES\n',
      'repo/.claude/rules/dots.md': '---\npaths: "dots/**"\n...\nMARK_FMU_DOTS_CLOSE\n---\n',
      'repo/.claude/rules/comment.md': '---\n# a yaml comment\npaths: "cmt/**" # trailing comment\n---\nMARK_FMU_YAML_COMMENT\n',
      'repo/.claude/rules/fourdash.md': '----\npaths: "fd/**"\n----\nMARK_FMU_FOUR_DASHES\n',
      'repo/.claude/rules/nonl.md': '---\npaths: "nonl/**"\n---MARK_FMU_NO_NEWLINE_AFTER_FENCE\n',
      'repo/.claude/rules/early.md': '---\ndescription: a---b\npaths: "early/**"\n---\nMARK_FMU_EARLY_CLOSE\n',
      'repo/.claude/rules/indentbody.md': '---\npaths: "ib/**"\n---\n\n\t  MARK_FMU_INDENTED_BODY\n  second\n',
      'repo/nonl/a.ts': 'export {};\n',
      'repo/early/a.ts': 'export {};\n',
      'repo/ib/a.ts': 'export {};\n',
      'repo/tsp/a.ts': 'export {};\n',
      'repo/cmt/a.ts': 'export {};\n',
      'repo/dots/a.ts': 'export {};\n',
    },
    touches: [
      { tool: 'Read', path: 'repo/tsp/a.ts' },
      { tool: 'Read', path: 'repo/cmt/a.ts' },
      { tool: 'Read', path: 'repo/dots/a.ts' },
      { tool: 'Read', path: 'repo/nonl/a.ts' },
      { tool: 'Read', path: 'repo/early/a.ts' },
      { tool: 'Read', path: 'repo/ib/a.ts' },
    ],
  },

  {
    name: 'fm_badyaml',
    spec: ['§3.5', '§6'],
    description:
      'cond2 badyaml. BINARY vs SPEC: invalid YAML is always stripped, but paths is honoured only for some errors ' +
      '(an unclosed [ or {); a tab, an unterminated quote, ": : :", a broken list or a flow map make the rule unconditional',
    git: ['repo'],
    cwd: 'repo',
    files: {
      ...bad('b1', 'paths: "b1/**"\nfoo: [unclosed'),
      ...bad('b2', 'paths: "b2/**"\n: : :'),
      ...bad('b3', 'paths: "b3/**"\n\tbad: tab'),
      ...bad('b4', 'paths: b4/**\nfoo: "unterminated'),
      ...bad('b5', 'paths: "b5/**"\npaths: "dup/**"'),
      ...bad('b6', 'foo: {bad\npaths: "b6/**"'),
      ...bad('b7', 'paths: {b7/**}'),
      ...bad('b8', 'paths: b8/*.{ts,js}'),
      ...bad('b9', 'paths:\n  - b9/**\n  bad'),
      'repo/dup/a.ts': 'export {};\n',
    },
    touches: ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9', 'dup'].map((n) => ({ tool: 'Read' as const, path: `repo/${n}/a.ts` })),
    expect: {
      startup: [['P repo/.claude/rules/b2.md', 'P repo/.claude/rules/b3.md', 'P repo/.claude/rules/b4.md', 'P repo/.claude/rules/b7.md', 'P repo/.claude/rules/b9.md']],
      touches: [['repo/.claude/rules/b1.md'], [], [], [], [], ['repo/.claude/rules/b6.md'], [], ['repo/.claude/rules/b8.md'], [], ['repo/.claude/rules/b5.md']],
      absent: ['b2/**', 'unterminated', 'unclosed'],
    },
  },
];

/** A rule with the given (possibly invalid) frontmatter YAML, and a file repo/N/a.ts to touch. */
function bad(n: string, yaml: string): Record<string, string> {
  return { [`repo/.claude/rules/${n}.md`]: `---\n${yaml}\n---\nMARK_FMB_${n.toUpperCase()}\n`, [`repo/${n}/a.ts`]: 'export {};\n' };
}
