// Everything version-dependent lives in the profile table (src/engine/profiles.ts): no other source
// file may hold a Claude Code version literal or order versions. This scans every string and template
// literal of src/ and webview/ with the TypeScript parser (comments are free to name versions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const REPO = path.resolve(__dirname, '../..');
const PROFILES = 'src/engine/profiles.ts';
/** literals that look like versions but are not Claude Code's, each with its reason */
const ALLOWED: Record<string, string[]> = {
  'src/cli/lint-format.ts': ['2.1.0'], // the SARIF format version
  'src/cli/tool.ts': ['0.0.0'], // this package's own version when package.json has none
};
const VERSION = /(?<![\w.])\d+\.\d+\.\d+(?![\w.])/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

export function findings(rel: string, text: string): string[] {
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const at = (n: ts.Node) => `${rel}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const visit = (n: ts.Node) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
      const m = VERSION.exec(n.text);
      if (m && !(ALLOWED[rel] ?? []).includes(m[0])) out.push(`${at(n)}: version literal "${m[0]}"`);
    }
    if (ts.isBinaryExpression(n) && [ts.SyntaxKind.LessThanToken, ts.SyntaxKind.LessThanEqualsToken, ts.SyntaxKind.GreaterThanToken, ts.SyntaxKind.GreaterThanEqualsToken].includes(n.operatorToken.kind)) {
      for (const side of [n.left, n.right]) if (/version/i.test(side.getText(sf)) && !/\.length$/.test(side.getText(sf))) out.push(`${at(n)}: ordering comparison of a version (${n.getText(sf).slice(0, 80)})`);
    }
    if ((ts.isFunctionDeclaration(n) || ts.isVariableDeclaration(n)) && n.name && /version(?:AtLeast|Compare|Gte?|Lte?|Newer|Older)|compareVersions?/i.test(n.name.getText(sf))) out.push(`${at(n)}: a version comparison helper (${n.name.getText(sf)})`);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

test('no Claude Code version literal or version ordering outside the profile table', () => {
  const files = [...sources('src'), ...sources('webview')].filter((f) => f !== PROFILES);
  assert.ok(files.length > 50, `scanned ${files.length} files`);
  const found = files.flatMap((f) => findings(f, fs.readFileSync(path.join(REPO, f), 'utf8')));
  assert.deepEqual(found, []);
});

test('the scan catches what it is for', () => {
  const f = findings('x.ts', "if (v === '2.1.328') x();\nconst s = `on ${v}, 2.1.235 keeps it`;\nif (profile.version >= min) y();\nfunction versionAtLeast() {}\n// 2.1.328 in a comment is fine\n");
  assert.equal(f.length, 4, f.join('\n'));
});
