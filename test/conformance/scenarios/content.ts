// §3.1–3.4, §3.7–3.10: size limit, decoding, BOM, CRLF, trimming, empty files, non-regular files, permissions.
import type { Scenario } from '../scenario.js';

const MiB4 = 4 * 1024 * 1024;

/** A file of exactly `size` bytes: MARKER line, then 'a' padding, then a final newline. */
function sized(marker: string, size: number): Buffer {
  const head = Buffer.from(`${marker}\n`);
  const b = Buffer.alloc(size, 'a');
  head.copy(b, 0);
  b[size - 1] = 0x0a;
  return b;
}

export const content: Scenario[] = [
  {
    name: 'size_4mib',
    spec: ['§3.1'],
    description: 'big4m: exactly 4,194,304 bytes loads in full; 4,194,305 bytes is skipped with no header (startup and lazily)',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/CLAUDE.md': sized('MARK_BIG_EXACT', MiB4),
      'repo/CLAUDE.local.md': sized('MARK_BIG_OVER', MiB4 + 1),
      'repo/.claude/rules/r.md': 'MARK_BIG_RULE\n',
      'repo/pkg/CLAUDE.md': sized('MARK_BIG_NESTED_OVER', MiB4 + 1),
      'repo/pkg/CLAUDE.local.md': 'MARK_BIG_NESTED_LOCAL\n',
      'repo/pkg/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/pkg/x.ts' }],
    expect: {
      startup: ['P repo/CLAUDE.md', 'P repo/.claude/rules/r.md'],
      touches: [['repo/pkg/CLAUDE.local.md']],
      absent: ['MARK_BIG_OVER', 'MARK_BIG_NESTED_OVER'],
    },
  },
  {
    name: 'size_over40k',
    spec: ['§3.1'],
    description: 'sizes: 50,037 characters load untruncated, with no warning',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/CLAUDE.md': 'MARK_40K_START\n' + 'word '.repeat(10000) + '\nMARK_40K_END\n',
    },
    expect: { startup: ['P repo/CLAUDE.md'], contains: ['MARK_40K_END'] },
  },
  {
    name: 'encoding',
    spec: ['§3.2'],
    description: 'invalid UTF-8 becomes U+FFFD; NUL and control characters pass verbatim (startup and lazy)',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/CLAUDE.md': Buffer.concat([Buffer.from('MARK_ENC_INVALID caf'), Buffer.from([0xe9]), Buffer.from(' and '), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from(' end\n')]),
      'repo/.claude/rules/ctrl.md': 'MARK_ENC_NUL before\u0000\u0001\u0002\u001b[0m\u007f after\u000b\u000c tail\n',
      'repo/pkg/CLAUDE.md': Buffer.concat([Buffer.from('MARK_ENC_LAZY_INVALID '), Buffer.from([0xe2, 0x82]), Buffer.from(' \u0000 x\n\u0001\n')]),
      'repo/pkg/x.ts': 'export {};\n',
      'repo/CLAUDE.local.md': 'MARK_ENC_UNICODE é ü 漢字 😀 \u200b zero-width \u202e rtl\n',
    },
    touches: [{ tool: 'Read', path: 'repo/pkg/x.ts' }],
    expect: {
      startup: ['P repo/CLAUDE.md', 'P repo/.claude/rules/ctrl.md', 'L repo/CLAUDE.local.md'],
      touches: [['repo/pkg/CLAUDE.md']],
      contains: ['caf\uFFFD and', 'before\u0000\u0001\u0002'],
    },
  },
  {
    name: 'bom',
    spec: ['§3.3', '§3.5', '§3.7', '§12'],
    description:
      'nestfmt: 328 strips a BOM before frontmatter detection, 235 keeps BOM+frontmatter as text and makes such a rule unconditional. ' +
      'BINARY vs SPEC: a BOM NOT followed by frontmatter stays in lazy entries (both versions); startup trim() removes it',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/CLAUDE.md': '\uFEFFMARK_BOM_PLAIN\n',
      'repo/.claude/CLAUDE.md': '\uFEFF---\npaths: "x/**"\n---\nMARK_BOM_FM\n',
      'repo/.claude/rules/bom.md': '\uFEFF---\npaths: "pkg/**"\n---\nMARK_BOM_RULE_COND\n',
      'repo/.claude/rules/bomplain.md': '\uFEFFMARK_BOM_RULE_PLAIN\n',
      'repo/CLAUDE.local.md': '\uFEFFMARK_BOM_LOCAL\r\nline2 crlf\r\n',
      'repo/pkg/CLAUDE.md': '\uFEFFMARK_BOM_NESTED\n',
      'repo/pkg/.claude/CLAUDE.md': '\uFEFF---\ndescription: x\n---\nMARK_BOM_NESTED_FM\n',
      'repo/pkg/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/pkg/x.ts' }],
    expectByVersion: {
      '2.1.336': {
        startup: ['P repo/CLAUDE.md', 'P repo/.claude/CLAUDE.md', 'P repo/.claude/rules/bomplain.md', 'L repo/CLAUDE.local.md'],
        touches: [['repo/pkg/CLAUDE.md', 'repo/pkg/.claude/CLAUDE.md', 'repo/.claude/rules/bom.md']],
        absent: ['\uFEFFMARK_BOM_NESTED_FM', 'paths:', 'description: x', ':\n\n\uFEFFMARK_BOM_PLAIN'],
        contains: [':\n\n\uFEFFMARK_BOM_NESTED\n'],
      },
      '2.1.333': {
        startup: ['P repo/CLAUDE.md', 'P repo/.claude/CLAUDE.md', 'P repo/.claude/rules/bomplain.md', 'L repo/CLAUDE.local.md'],
        touches: [['repo/pkg/CLAUDE.md', 'repo/pkg/.claude/CLAUDE.md', 'repo/.claude/rules/bom.md']],
        absent: ['\uFEFFMARK_BOM_NESTED_FM', 'paths:', 'description: x', ':\n\n\uFEFFMARK_BOM_PLAIN'],
        contains: [':\n\n\uFEFFMARK_BOM_NESTED\n'],
      },
      '2.1.332': {
        startup: ['P repo/CLAUDE.md', 'P repo/.claude/CLAUDE.md', 'P repo/.claude/rules/bomplain.md', 'L repo/CLAUDE.local.md'],
        touches: [['repo/pkg/CLAUDE.md', 'repo/pkg/.claude/CLAUDE.md', 'repo/.claude/rules/bom.md']],
        absent: ['\uFEFFMARK_BOM_NESTED_FM', 'paths:', 'description: x', ':\n\n\uFEFFMARK_BOM_PLAIN'],
        contains: [':\n\n\uFEFFMARK_BOM_NESTED\n'],
      },
      '2.1.328': {
        startup: ['P repo/CLAUDE.md', 'P repo/.claude/CLAUDE.md', 'P repo/.claude/rules/bomplain.md', 'L repo/CLAUDE.local.md'],
        touches: [['repo/pkg/CLAUDE.md', 'repo/pkg/.claude/CLAUDE.md', 'repo/.claude/rules/bom.md']],
        absent: ['\uFEFFMARK_BOM_NESTED_FM', 'paths:', 'description: x', ':\n\n\uFEFFMARK_BOM_PLAIN'],
        contains: [':\n\n\uFEFFMARK_BOM_NESTED\n'],
      },
      '2.1.235': {
        startup: ['P repo/CLAUDE.md', 'P repo/.claude/CLAUDE.md', ['P repo/.claude/rules/bom.md', 'P repo/.claude/rules/bomplain.md'], 'L repo/CLAUDE.local.md'],
        touches: [['repo/pkg/CLAUDE.md', 'repo/pkg/.claude/CLAUDE.md']],
        contains: ['---\npaths: "x/**"\n---\nMARK_BOM_FM', '---\npaths: "pkg/**"\n---\nMARK_BOM_RULE_COND', ':\n\n\uFEFFMARK_BOM_NESTED\n', ':\n\n\uFEFF---\ndescription: x\n---\nMARK_BOM_NESTED_FM'],
      },
    },
  },
  {
    name: 'crlf',
    spec: ['§3.4', '§3.5', '§3.7'],
    description: 'CRLF is kept inside content; CRLF frontmatter is recognised; trailing \\r\\n goes at startup (trim) but stays lazily',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/CLAUDE.md': 'MARK_CRLF_ROOT\r\nsecond line\r\n\r\n',
      'repo/.claude/rules/fm.md': '---\r\ndescription: crlf fm\r\n---\r\nMARK_CRLF_RULE_FM\r\nnext\r\n',
      'repo/.claude/rules/cond.md': '---\r\npaths: "pkg/**"\r\n---\r\n\r\nMARK_CRLF_COND\r\nnext\r\n',
      'repo/pkg/CLAUDE.md': 'MARK_CRLF_NESTED\r\nline\r\n\r\n',
      'repo/pkg/x.ts': 'export {};\n',
      'repo/CLAUDE.local.md': 'MARK_CRLF_CR_ONLY\rold mac\r',
    },
    touches: [{ tool: 'Read', path: 'repo/pkg/x.ts' }],
    expect: {
      startup: ['P repo/CLAUDE.md', 'P repo/.claude/rules/fm.md', 'L repo/CLAUDE.local.md'],
      touches: [['repo/pkg/CLAUDE.md', 'repo/.claude/rules/cond.md']],
      contains: ['MARK_CRLF_ROOT\r\nsecond line', 'MARK_CRLF_NESTED\r\nline\r\n\r\n'],
      absent: ['description: crlf fm'],
    },
  },
  {
    name: 'trim_startup_vs_lazy',
    spec: ['§3.7', '§4'],
    description: 'startup entries are trimmed (JS whitespace at both ends), lazy entries keep leading and trailing whitespace; no trailing newline',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/CLAUDE.md': '\n\n  \t MARK_TRIM_ROOT  \n\n\n',
      'repo/CLAUDE.local.md': '\u00a0\u2003MARK_TRIM_NBSP\u3000\n',
      'repo/pkg/CLAUDE.md': 'MARK_TRIM_NOTRAILNL',
      'repo/pkg/.claude/CLAUDE.md': '\n\n  MARK_TRIM_NESTED  \n\n\n',
      'repo/pkg/CLAUDE.local.md': 'MARK_TRIM_LAST\n',
      'repo/pkg/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/pkg/x.ts' }],
    expect: {
      startup: ['P repo/CLAUDE.md', 'L repo/CLAUDE.local.md'],
      touches: [['repo/pkg/CLAUDE.md', 'repo/pkg/.claude/CLAUDE.md', 'repo/pkg/CLAUDE.local.md']],
      contains: ['checked into the codebase):\n\nMARK_TRIM_ROOT\n\n', ':\n\n\n\n  MARK_TRIM_NESTED  \n\n\n', ':\n\nMARK_TRIM_NOTRAILNL'],
    },
  },
  {
    name: 'empty_files',
    spec: ['§3.8'],
    description: 'empty, whitespace-only and frontmatter-only files are skipped with no header (startup, rules, nested)',
    git: ['repo'],
    cwd: 'repo/a',
    files: {
      'repo/CLAUDE.md': '',
      'repo/.claude/CLAUDE.md': '  \n\t\n\n',
      'repo/.claude/rules/empty.md': '',
      'repo/.claude/rules/ws.md': '\n \n',
      'repo/.claude/rules/fmonly.md': '---\ndescription: only frontmatter\n---\n',
      'repo/.claude/rules/fmonly_paths.md': '---\npaths: "a/**"\n---\n\n\n',
      'repo/.claude/rules/commentonly.md': '<!-- only a comment -->\n',
      'repo/.claude/rules/real.md': 'MARK_EMPTY_REAL_RULE\n',
      'repo/CLAUDE.local.md': 'MARK_EMPTY_LOCAL\n',
      'repo/a/CLAUDE.md': '---\npaths: "zz/**"\n---\n',
      'repo/a/CLAUDE.local.md': '\n',
      'repo/a/pkg/CLAUDE.md': '',
      'repo/a/pkg/.claude/CLAUDE.md': '---\nx: 1\n---\n',
      'repo/a/pkg/CLAUDE.local.md': '  \n',
      'repo/a/pkg/.claude/rules/e.md': '',
      'repo/a/pkg/y.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/a/pkg/y.ts' }],
    expect: { startup: ['P repo/.claude/rules/real.md', 'L repo/CLAUDE.local.md'] },
  },
  {
    name: 'not_regular',
    spec: ['§3.9', '§5'],
    description: 'a directory named CLAUDE.md is skipped (not descended into); dangling symlinks are skipped; a CLAUDE.md symlinked outside the repo loads with its link path',
    git: ['repo'],
    cwd: 'repo/sub',
    files: {
      'repo/CLAUDE.md/CLAUDE.md': 'MARK_NOTREG_INSIDE_DIR\n',
      'repo/CLAUDE.md/x.md': 'MARK_NOTREG_INSIDE_DIR_X\n',
      'repo/CLAUDE.local.md': { symlink: 'missing-target.md' },
      'repo/.claude/CLAUDE.md': { symlink: '{ROOT}/elsewhere/shared.md' },
      'elsewhere/shared.md': 'MARK_NOTREG_SYMLINKED_OUTSIDE\n',
      'repo/.claude/rules/dangling.md': { symlink: 'nowhere.md' },
      'repo/.claude/rules/dir.md/inner.md': 'MARK_NOTREG_RULE_IN_DIR_MD\n',
      'repo/.claude/rules/ok.md': 'MARK_NOTREG_RULE_OK\n',
      'repo/sub/CLAUDE.md': { dir: true },
      'repo/sub/CLAUDE.local.md': 'MARK_NOTREG_SUB_LOCAL\n',
    },
    expect: {
      startup: ['P repo/.claude/CLAUDE.md', ['P repo/.claude/rules/dir.md/inner.md', 'P repo/.claude/rules/ok.md'], 'L repo/sub/CLAUDE.local.md'],
      absent: ['MARK_NOTREG_INSIDE_DIR'],
    },
  },
  {
    name: 'chmod_root',
    spec: ['§3.10'],
    description: 'as root, chmod 000 has no effect: the files load',
    git: ['repo'],
    cwd: 'repo',
    files: {
      'repo/CLAUDE.md': { file: 'MARK_CHMOD_ROOT_FILE\n', mode: 0o000 },
      'repo/.claude/rules/locked/r.md': 'MARK_CHMOD_ROOT_RULE\n',
      'repo/.claude/rules/locked': { dir: true, mode: 0o000 },
    },
    expect: { startup: ['P repo/CLAUDE.md', 'P repo/.claude/rules/locked/r.md'] },
  },
  {
    name: 'perm_nobody',
    spec: ['§3.10'],
    description: 'perm: as nobody, an unreadable CLAUDE.md, rule file or rules subdirectory is skipped silently while siblings load (startup and lazy)',
    git: ['repo'],
    cwd: 'repo',
    runAs: 'nobody',
    files: {
      'home/.claude/CLAUDE.md': 'MARK_PERM_USER\n',
      'repo/CLAUDE.md': { file: 'MARK_PERM_UNREADABLE_ROOT\n', mode: 0o000 },
      'repo/.claude/CLAUDE.md': 'MARK_PERM_DOT\n',
      'repo/.claude/rules/unread.md': { file: 'MARK_PERM_UNREADABLE_RULE\n', mode: 0o000 },
      'repo/.claude/rules/ok.md': 'MARK_PERM_OK_RULE\n',
      'repo/.claude/rules/locked/x.md': 'MARK_PERM_LOCKED_DIR_RULE\n',
      'repo/.claude/rules/locked': { dir: true, mode: 0o000 },
      'repo/.claude/rules/zz/ok2.md': 'MARK_PERM_OK_RULE2\n',
      'repo/CLAUDE.local.md': 'MARK_PERM_LOCAL\n',
      'repo/pkg/CLAUDE.md': { file: 'MARK_PERM_UNREADABLE_NESTED\n', mode: 0o000 },
      'repo/pkg/CLAUDE.local.md': 'MARK_PERM_NESTED_LOCAL\n',
      'repo/pkg/x.ts': 'export {};\n',
    },
    touches: [{ tool: 'Read', path: 'repo/pkg/x.ts' }],
    expect: {
      startup: ['U home/.claude/CLAUDE.md', 'P repo/.claude/CLAUDE.md', ['P repo/.claude/rules/ok.md', 'P repo/.claude/rules/zz/ok2.md'], 'L repo/CLAUDE.local.md'],
      touches: [['repo/pkg/CLAUDE.local.md']],
      absent: ['MARK_PERM_UNREADABLE', 'MARK_PERM_LOCKED'],
    },
  },
];
