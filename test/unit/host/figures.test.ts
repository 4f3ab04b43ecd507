// One definition per figure, end to end: each figure the sidebar shows is compared with the CLI's
// (`explain --json` and its text, the built dist/cli.js run as a process) and with the startup
// preview's text. Figures: what is always loaded, the skills listing, what a Read of the open file
// adds, where the session timeline starts, and the whole first request (a total = the sum of its rounded parts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import './vscode-fake.js';
import { analyze, type EngineOptions } from '../../../src/engine/index.js';
import { englishT } from '../../../src/host/format.js';
import { present } from '../../../src/host/sidebar/present.js';
import { statusFigures } from '../../../src/host/sidebar/status-figures.js';
import { StartupPreview } from '../../../src/host/sidebar/startup-preview.js';
import { makeTree } from '../../helpers/fixture.js';
import { run } from '../../cli/helpers.js';
import type { ExplainJson } from '../../../src/cli/explain-command.js';

const num = (s: string | undefined) => Number(String(s ?? '').replace(/[^\d]/g, '') || NaN);

function fixture() {
  const t = makeTree({
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/CLAUDE.md': '# Demo\n\nUse pnpm, never npm.\n\n@docs/testing.md\n',
    'repo/docs/testing.md': 'Run pnpm test.\n',
    'repo/.claude/rules/api.md': '---\npaths: ["src/api/**"]\n---\nAPI rule: retry with backoff.\n',
    'repo/.claude/rules/style.md': 'Style: tabs, 100 columns.\n',
    'repo/.claude/skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release — 版本发布 and notes\n---\nSteps.\n',
    'repo/src/api/client.ts': 'x',
    'repo/README.md': '# readme',
    'home/.claude/CLAUDE.md': 'I like short answers.\n',
  });
  const opts: EngineOptions = { cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none'), claudeVersion: '2.1.328' };
  const cli = (file: string) => {
    const args = ['explain', file, '--cwd', opts.cwd, '--home', opts.home!, '--managed-dir', opts.managedDir!, '--claude-version', '2.1.328'];
    const json = run([...args, '--json'], { env: { HOME: opts.home! } });
    const text = run(args, { env: { HOME: opts.home! } });
    assert.equal(json.code, 0, json.stderr);
    return { json: JSON.parse(json.stdout) as ExplainJson, text: text.stdout };
  };
  return { t, opts, cli };
}

const today = new Date().toISOString().slice(0, 10);

test('figures: always loaded, the skills listing, a Read of the open file, the timeline start and the whole request agree everywhere', () => {
  const { t, opts, cli } = fixture();
  try {
    const a = analyze(opts);
    const file = t.p('repo/src/api/client.ts');
    const s = present({ analysis: a, activeFile: file, version: { source: 'setting', requested: '2.1.328' }, model: a.model.requested, trusted: true, t: englishT, locale: 'en', today, sessionSteps: [{ kind: 'read', file }] });
    const sec = Object.fromEntries(s.sections.map((x) => [x.id, x]));
    const c = cli(file);
    const preview = new StartupPreview(englishT, () => ({ analysis: a, activeFile: file, shipped: { status: 'no-binary' } })).provideTextDocumentContent({ query: '', toString: () => 'p' } as never);

    // 1. always loaded: the top line, the Startup section, its gauge, the status bar, the CLI, the preview
    const always = { chars: num(/· ([\d,]+) chars ·/.exec(sec.startup!.summary!)?.[1]), tokens: num(/≈([\d,]+) tokens$/.exec(sec.startup!.summary!)?.[1]) };
    assert.equal(num(/≈([\d,]+) tokens/.exec(s.top!.always)?.[1]), always.tokens, 'top line = Startup section');
    assert.equal(num(/\(([\d,]+) chars\)/.exec(s.gauges.find((g) => g.id === 'startup')!.text)?.[1]), always.chars, 'Startup gauge = section');
    assert.deepEqual({ chars: c.json.alwaysLoaded.chars, tokens: c.json.alwaysLoaded.tokens }, always, 'CLI --json = sidebar');
    assert.match(c.text, new RegExp(`^Always loaded: ${always.chars.toLocaleString('en-US')} chars, ≈${always.tokens.toLocaleString('en-US')} tokens`, 'm'), 'CLI text = sidebar');
    assert.equal(c.json.gauges.instructions.tokens, always.tokens, "the CLI's instructions gauge");
    const st = statusFigures({ analysis: a, activeFile: file, model: a.model.requested, t: englishT, locale: 'en', today });
    assert.ok(st.tooltip.includes(s.top!.always), 'status bar = top line');
    const marker = /\n\n─{8} the skills listing, a message of its own \(([\d,]+) chars\): ─{8}\n\n/.exec(preview);
    assert.ok(marker, 'the preview names the listing');
    assert.equal(preview.indexOf(marker[0]), c.json.alwaysLoaded.block, "the preview's startup block is the figure's block");

    // 2. the skills listing: its Startup row, the CLI and the preview's marker; the gauge names the same chars
    const listingRow = sec.startup!.rows.find((r) => r.id === 'startup/skills')!;
    assert.equal(num(listingRow.badge), c.json.alwaysLoaded.skillsListing);
    assert.equal(num(marker[1]), c.json.alwaysLoaded.skillsListing);
    assert.ok(s.gauges.find((g) => g.id === 'skills')!.counts!.includes(`${c.json.alwaysLoaded.skillsListing.toLocaleString('en-US')} chars`), 'the gauge names the row\'s chars');
    assert.ok(listingRow.children!.every((r) => /^[\d,]+ chars$/.test(r.badge ?? '')), 'every skill row has its count');
    assert.match(preview, /descriptions of skills shipped with Claude Code are placeholders: no Claude Code binary is installed here/, 'the preview says plainly why');

    // 3. a Read of the open file: the top line, the section headline, the CLI, the preview
    const headChars = num(/, ([\d,]+) chars,/.exec(sec.active!.headline!)?.[1]);
    const headTok = num(/≈([\d,]+) tokens$/.exec(sec.active!.headline!)?.[1]);
    assert.equal(num(/\+([\d,]+) tokens/.exec(s.top!.file!)?.[1]), headTok, 'top line = headline');
    assert.deepEqual(c.json.file!.readAdds, { chars: headChars, tokens: headTok }, 'CLI = headline');
    assert.equal(num(/then a Read of src\/api\/client\.ts adds \(([\d,]+) chars\)/.exec(preview)?.[1]), headChars, 'preview = headline');

    // 4. the timeline starts from the Startup figure: after one Read it holds both
    const tl = sec.session!;
    assert.match(tl.headline!, /^After 1 step /);
    assert.ok(tl.headline!.includes(`started from the Startup figure, ≈${always.tokens.toLocaleString('en-US')}`));
    assert.equal(num(/holds ≈([\d,]+) tokens/.exec(tl.headline!)?.[1]), Math.ceil((always.chars + headChars) / a.model.bytesPerToken), 'start + the Read');

    // 5. the whole first request: the total is the sum of its rounded parts (system prompt, tools, MCP, other, yours),
    //    yours the Startup figure; the status bar's tooltip carries the same split
    const req = s.gauges.find((g) => g.id === 'request')!;
    const parts = [...req.counts!.matchAll(/≈([\d,]+)/g)].map((m) => num(m[1]));
    assert.ok(parts.length >= 3, req.counts);
    assert.equal(num(/^≈([\d,]+) of/.exec(req.text)?.[1]), parts.reduce((x, y) => x + y, 0));
    assert.equal(num(/yours ≈([\d,]+)/.exec(req.counts!)?.[1]), always.tokens);
    assert.ok(st.tooltip.includes(req.counts!), `status bar tooltip = the gauge's split: ${st.tooltip}`);
  } finally {
    t.cleanup();
  }
});

test('figures: shipped descriptions from the installed binary replace the placeholders and keep every count', () => {
  const { t, opts } = fixture();
  try {
    const a0 = analyze(opts);
    const shipped = a0.profile.skills.bundled.filter((b) => b.kind === 'bundled').slice(0, 2);
    const texts = Object.fromEntries(shipped.map((b) => [b.name, 'd'.repeat(b.descriptionChars)]));
    const a = analyze({ ...opts, shippedSkillText: { ...texts, [a0.profile.skills.bundled[2]!.name]: 'of another length' } });
    const before = present({ analysis: a0, version: { source: 'setting', requested: '2.1.328' }, model: a0.model.requested, trusted: true, t: englishT, locale: 'en', today });
    const after = present({ analysis: a, version: { source: 'setting', requested: '2.1.328' }, model: a.model.requested, trusted: true, t: englishT, locale: 'en', today });
    const row = (v: typeof before) => v.sections.find((x) => x.id === 'startup')!.rows.find((r) => r.id === 'startup/skills')!;
    assert.equal(row(after).badge, row(before).badge, 'the same chars: the placeholders were counted at the measured lengths');
    assert.equal(a.skills.listing.placeholders, a0.skills.listing.placeholders - 2, 'two texts taken, the one of another length not');
    assert.equal(a.skills.used, a0.skills.used, 'the budget figure is unchanged');
    for (const b of shipped) assert.ok(a.skills.text.includes(`- ${b.name}: ${'d'.repeat(Math.min(b.descriptionChars, a.skills.cap))}`));
  } finally {
    t.cleanup();
  }
});

test('figures: an MCP server in the whole-request gauge and the status tooltip, unknown until measured, then split per server', () => {
  const t = makeTree({
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/CLAUDE.md': '# Demo\n',
    'repo/.mcp.json': JSON.stringify({ mcpServers: { handbook: { command: 'node', args: ['server.mjs'] } } }),
    'home/.claude/CLAUDE.md': 'Short answers.\n',
  });
  try {
    const a = analyze({ cwd: t.p('repo'), home: t.p('home'), env: {}, managedDir: t.p('none'), claudeVersion: '2.1.328' });
    const input = { analysis: a, version: { source: 'setting' as const, requested: '2.1.328' }, model: a.model.requested, trusted: true, t: englishT, locale: 'en', today };
    const before = present(input).gauges.find((g) => g.id === 'request')!;
    assert.match(before.note!, /\nMCP handbook: tools not known yet \(run "Measure MCP Servers"\)$/);
    const facts = {
      handbook: {
        from: 'server' as const,
        instructions: 'Search the handbook first.',
        tools: [
          { name: 'search', description: 'Searches the handbook', inputSchema: { type: 'object' } },
          { name: 'fetch_page', description: 'One page as markdown', inputSchema: { type: 'object' } },
        ],
      },
    };
    const after = present({ ...input, mcpFacts: facts }).gauges.find((g) => g.id === 'request')!;
    assert.match(after.note!, /\nMCP handbook: 2 tools named only \(tool search\) · instructions 26 chars · measured$/);
    const parts = [...after.counts!.matchAll(/≈([\d,]+)/g)].map((m) => num(m[1]));
    assert.match(after.counts!, /^system prompt ≈[\d,]+ · built-in tools ≈[\d,]+ · MCP handbook ≈[\d,]+ · other fixed parts ≈[\d,]+ · yours ≈[\d,]+$/);
    assert.equal(num(/^≈([\d,]+) of/.exec(after.text)?.[1]), parts.reduce((x, y) => x + y, 0), 'the total is the sum of its parts');
    assert.ok(num(/MCP handbook ≈([\d,]+)/.exec(after.counts!)?.[1]) > 0);
    const st = statusFigures({ ...input, mcpFacts: facts, live: { tokens: 1, window: 2, label: 'This session: 1 of 2 tokens · $0.24 so far' } });
    assert.ok(st.tooltip.includes(after.counts!) && st.tooltip.includes('MCP handbook: 2 tools named only') && st.tooltip.includes('$0.24 so far'), st.tooltip);
  } finally {
    t.cleanup();
  }
});
