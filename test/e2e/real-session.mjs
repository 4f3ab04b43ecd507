// E2E of issue 31's view: a real-shaped session (real-session-fixture.mjs: a prompt-type slash command and its
// expansion, a local command, an interrupt, hooks (one that added context, one whose output was dropped), an MCP
// server's instructions and deferred tools, an mcp__ call, a cache break after a long pause, usage on every request)
// copied into the workspace's transcript folder, as a session of the user's would be. The This Session view must
// show it as the user lived it, and the sidebar's header and the status bar must name what it runs and cost.
// Shot at 1440×900 and with the sidebar at 258 px, in the dark and the light theme.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectKey, REAL_SESSION, writeRealSession } from './real-session-fixture.mjs';

/** the files of `dir` (not .git, node_modules, the transcripts) modified after `since` get `to` as their time: the
 *  session was started after the user's files were written, as a session copied in from their machine was */
function backdate(dir, since, to, depth = 0) {
  if (depth > 8 || !fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '.git' || e.name === 'node_modules' || e.name.endsWith('.jsonl')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) backdate(p, since, to, depth + 1);
    else if (e.isFile() && fs.statSync(p).mtimeMs > since) fs.utimesSync(p, to / 1000, to / 1000);
  }
}

/** the time (ms) of the newest record of the transcripts in `dir` (0: none) */
function newestRecordIn(dir) {
  let newest = 0;
  for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
    if (f.endsWith('.jsonl'))
      for (const m of fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/"timestamp":"([^"]+)"/g)) newest = Math.max(newest, Date.parse(m[1]) || 0);
  return newest;
}

export async function realSessionView(h) {
  const { page, webview, until, check, shot, runCommand, setSidebarWidth, setTheme, WS, HOME_DIR } = h;
  const cwd = fs.realpathSync(WS);
  // the view follows the session whose last record is newest: ours ends 5 s before `now`, so `now` comes 5.5 s after
  // the last record of the sessions written before (the live-session check appends to one until just before this)
  const newest = newestRecordIn(path.join(HOME_DIR, '.claude', 'projects', projectKey(cwd)));
  const wait = newest + 5_500 - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  const now = Date.now();
  // the workspace as the session saw it: the live-update check earlier in the run moved api.md to docs/**, and a
  // session copied in from the user's machine was started with the rule as committed (src/api/**)
  const rule = path.join(cwd, '.claude', 'rules', 'api.md');
  if (fs.existsSync(rule)) fs.writeFileSync(rule, fs.readFileSync(rule, 'utf8').replace('paths: ["docs/**"]', 'paths: ["src/api/**"]'));
  backdate(cwd, now - 15 * 60_000, now - 60 * 60_000);
  backdate(path.join(HOME_DIR, '.claude'), now - 15 * 60_000, now - 60 * 60_000);
  const file = writeRealSession(HOME_DIR, cwd, now);
  console.log(`real-shaped session written: ${file}`);
  // the 1440×900 shots with a sidebar wide enough to read the rows whole (the 258 px ones show what a narrow one cuts)
  await setSidebarWidth(520);
  const S = REAL_SESSION;

  await runCommand('Focus on This Session (live) View');
  const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: /This Session \(live\)/i }) }).first();
  await pane.waitFor({ timeout: 20_000 });
  const header = pane.locator('.pane-header').first();
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  const clean = (s) => s.replace(/\s+/g, ' ').trim();
  // a row as "label description" (the two are spans with no space between)
  const visibleRows = async () =>
    (await pane.locator('.monaco-list-row').evaluateAll((els) => els.map((e) => `${e.querySelector('.label-name')?.textContent ?? e.textContent ?? ''} ${e.querySelector('.label-description')?.textContent ?? ''}`))).map(clean);
  const message = async () => clean((await pane.locator('.message').first().innerText().catch(() => '')) ?? '');
  // every row of the tree, scrolled through (the list draws only the rows in view)
  const allRows = async () => {
    const list = pane.locator('.monaco-list').first();
    const seen = new Map();
    await list.evaluate((el) => {
      const s = el.querySelector('.monaco-scrollable-element');
      if (s) s.scrollTop = 0;
    });
    await list.hover().catch(() => undefined);
    for (let i = 0; i < 40; i++) {
      const rows = await list.locator('.monaco-list-row').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-index')), `${e.querySelector('.label-name')?.textContent ?? e.textContent ?? ''} ${e.querySelector('.label-description')?.textContent ?? ''}`]));
      const before = seen.size;
      for (const [k, v] of rows) seen.set(k, v);
      if (i > 0 && seen.size === before) break;
      await page.mouse.wheel(0, 200);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    await page.mouse.wheel(0, -10_000);
    return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => clean(v));
  };
  const openRow = async (text) => {
    const row = pane.locator('.monaco-list-row', { hasText: text }).first();
    await row.waitFor({ timeout: 10_000 });
    if ((await row.getAttribute('aria-expanded')) === 'false') await row.click();
    await until(async () => ((await row.getAttribute('aria-expanded')) === 'true' ? true : undefined), `${text} open`, 10_000);
  };

  // the view follows the newest session of the launch folder: ours, written last
  const turns = await until(async () => {
    const rows = await visibleRows();
    return rows.some((r) => r.startsWith('Turns 3 turns · ') && r.endsWith(`Claude Code ${S.version}`)) ? rows : undefined;
  }, 'the This Session view on the real-shaped session', 30_000);
  const turnsRow = turns.find((r) => r.startsWith('Turns')) ?? '';
  check(/^Turns 3 turns · \$\d+\.\d\d · Claude Code 2\.1\.181$/.test(turnsRow), `real session: 3 turns (a slash command, two prompts; not the local command nor the interrupt), its version and its cost: "${turnsRow}"`);
  const sessionCost = turnsRow.match(/\$(\d+\.\d\d)/)?.[1] ?? '?';
  const turnRows = turns.filter((r) => /^Turn \d+:/.test(r));
  check(turnRows.length === 3 && turnRows[0].startsWith(`Turn 1: ${S.command} `) && turnRows[1].startsWith(`Turn 2: ${S.turns[1]}`) && turnRows[2].startsWith(`Turn 3: ${S.turns[2]}`), `real session: the turns as the user typed them, the command as "/name args" (${turnRows.join(' | ')})`);
  check(!turns.some((r) => /^Turn \d+: (\/mcp|\[Request interrupted)/.test(r)), 'real session: /mcp and the interrupt are not turns');
  check(/cache broken/.test(turnRows[2] ?? ''), `real session: turn 3 is marked "cache broken" on its row (${turnRows[2]})`);
  // the message follows the rows (live-session-view.ts sets it after them: VS Code delivers a tree view's changes
  // up to 200 ms apart), so the previous session's may still show for that long
  const msgWanted = new RegExp(`^27,959 of 200,000 tokens \\(14\\.0%\\).* · \\$${sessionCost.replace('.', '\\.')} so far$`);
  const msg = (await until(async () => {
    const m = await message();
    return msgWanted.test(m) ? m : undefined;
  }, 'the view\'s message on the real-shaped session', 5_000).catch(() => undefined)) ?? (await message());
  check(msgWanted.test(msg), `real session: the view's message: the context from the last request's usage and the session's cost ("${msg}")`);

  // turn 1: its requests, cost and cache; its hooks; the local command as a mark
  await openRow('Turn 1:');
  const t1 = await until(async () => {
    const rows = await visibleRows();
    return rows.some((r) => /^3 requests/.test(r)) ? rows : undefined;
  }, 'turn 1 open', 10_000);
  const req1 = t1.find((r) => /^3 requests/.test(r)) ?? '';
  check(/^3 requests · \$0\.12 · cache hit 65% [\d,]+ in \(50,100 cache read, 26,700 cache write\) · 470 out$/.test(req1), `real session: turn 1's requests, its cost and cache hit first, then its tokens ("${req1}")`);
  check(t1.some((r) => r === `SessionStart hook · ${S.hookChars} chars to the model bash .claude/hooks/team-rules.sh`), `real session: the SessionStart hook that added context, with its size (${t1.find((r) => r.startsWith('SessionStart hook')) ?? 'none'})`);
  check(t1.some((r) => r === 'UserPromptSubmit hook · output dropped python3 .claude/hooks/log_prompt.py'), `real session: the UserPromptSubmit hook whose output was dropped (${t1.find((r) => r.startsWith('UserPromptSubmit hook')) ?? 'none'})`);
  check(t1.some((r) => /^\/mcp\b.*local command/.test(r)), `real session: /mcp as a mark inside turn 1 (${t1.find((r) => r.includes('local command')) ?? 'none'})`);
  check(t1.some((r) => /^Read client\.ts src\/api/.test(r)) && t1.some((r) => /^mcp__docs__search network timeouts/.test(r)), 'real session: turn 1 lists its Read (file name first, folder after) and its mcp__ call with its input');
  await shot('31-real-session-turn1-dark-1440');
  // fold it again: room for the others
  await pane.locator('.monaco-list-row', { hasText: 'Turn 1:' }).first().click();

  // turn 2: the interrupt as a mark; turn 3: the cache break with its cause
  await openRow('Turn 2:');
  const t2 = await until(async () => ((await visibleRows()).some((r) => r.startsWith('Interrupted by the user')) ? visibleRows() : undefined), 'the interrupt under turn 2', 10_000).catch(() => visibleRows());
  check(t2.some((r) => /^Interrupted by the user \S/.test(r)), `real session: the interrupt is a mark inside turn 2, in words (${t2.find((r) => /nterrupted/.test(r)) ?? 'none'})`);
  await openRow('Turn 3:');
  const t3 = await until(async () => ((await visibleRows()).some((r) => r.startsWith('Cache broken:')) ? visibleRows() : undefined), 'the cache break under turn 3', 10_000);
  const brk = t3.find((r) => r.startsWith('Cache broken:')) ?? '';
  check(/8 min without a request, longer than the cache's life \(5 minutes\)/.test(brk), `real session: the cache break with its cause ("${brk}")`);
  const req3 = t3.slice(t3.findIndex((r) => r.startsWith('Turn 3:'))).find((r) => /^1 request /.test(r)) ?? '';
  check(/^1 request · \$0\.11 · cache hit 0% 27,959 in \(0 cache read, 27,950 cache write\) · 180 out$/.test(req3), `real session: turn 3's one request wrote the cache again ("${req3}")`);
  await shot('31-real-session-cache-break-dark-1440');

  // the whole tree: MCP and hooks as layers of their own (the turns folded: room for the groups below them)
  await pane.locator('.monaco-list-row', { hasText: 'Turns' }).first().click();
  const rows = await allRows();
  const mcp = rows.find((r) => r.startsWith('MCP servers')) ?? '';
  check(mcp === 'MCP servers 1 server', `real session: the MCP servers group ("${mcp}")`);
  // the engine's prediction of every lazy injection against what the transcript recorded (api.md after the Read): made
  // again once the folder's analysis has the restored rule (the tracker notices a new analysis at its next tick)
  const predictionRow = (rs) => rs.find((r) => r.startsWith('Prediction')) ?? '';
  const agreed = await until(async () => {
    const rs = await allRows();
    return predictionRow(rs) === 'Prediction agrees with every call of this session' ? rs : undefined;
  }, 'the prediction made with the restored rule', 10_000).catch(() => rows);
  const prediction = predictionRow(agreed);
  check(prediction === 'Prediction agrees with every call of this session', `real session: the prediction agrees with the session ("${prediction}")`);
  const layers = rows.find((r) => r.startsWith('Last request by layer')) ?? '';
  check(!!layers, `real session: the last request by layer ("${layers}")`);
  if (layers) {
    await openRow('Last request by layer');
    await openRow('MCP servers');
    const all = await allRows();
    const server = all.find((r) => r.startsWith(`${S.server} instructions`)) ?? '';
    check(/^docs instructions 131 chars · ≈\d+ tokens · 2 deferred tools$/.test(server), `real session: the MCP server docs, its instructions and deferred tools ("${server}")`);
    const hookLayer = all.find((r) => r.startsWith('Hook output')) ?? '';
    const mcpLayer = all.find((r) => /^MCP server instructions [\d,]+ chars/.test(r)) ?? '';
    check(!!hookLayer && !!mcpLayer, `real session: hooks and MCP as layers of the request ("${hookLayer}", "${mcpLayer}")`);
  }

  // the status bar item: the fill, and in its tooltip the session's cost
  const status = page.locator('.part.statusbar .statusbar-item', { hasText: '14%' }).first();
  await status.waitFor({ timeout: 15_000 });
  await status.hover();
  const tip = await until(async () => {
    const hv = page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'This session:' }).first();
    return (await hv.count()) ? clean(await hv.innerText()) : undefined;
  }, 'the status item tooltip', 10_000).catch(() => '');
  check(tip.includes(`$${sessionCost} so far`) && tip.includes(`Claude Code ${S.version}`) && tip.includes(S.model), `real session: the status bar tooltip names the session's cost, version and model ("${tip}")`);
  await page.mouse.move(700, 500);

  // the sidebar's header: the followed session's version and model, not the installed ones
  const hv = await until(async () => {
    const v = (await webview().locator('header .version').textContent()) ?? '';
    return v === `Claude Code ${S.version}` ? v : undefined;
  }, "the sidebar's header on the followed session", 15_000).catch(() => '');
  const hm = (await webview().locator('header .model').textContent()) ?? '';
  check(hv === `Claude Code ${S.version}` && hm === S.model, `real session: the sidebar's header names the followed session's version and model ("${hv}" · "${hm}")`);
  const live = clean((await webview().locator('.live, [data-id="live"]').first().textContent().catch(() => '')) ?? '');
  if (live) console.log(`sidebar's live line: ${live}`);

  // the four shots: 1440×900 and 258 px, dark and light: the turns open again, turn 3 (the cache break) open
  await pane.locator('.monaco-list-row', { hasText: 'Turns' }).first().click();
  await openRow('Turn 3:');
  await pane.locator('.monaco-list-row', { hasText: 'Cache broken:' }).first().scrollIntoViewIfNeeded().catch(() => undefined);
  await shot('31-real-session-dark-1440');
  await setSidebarWidth(258);
  await shot('31-real-session-dark-258', true);
  await setTheme('Light Modern', 'vscode-light');
  await shot('31-real-session-light-258', true);
  await setSidebarWidth(520);
  await shot('31-real-session-light-1440');
  await setTheme('Dark Modern', 'vscode-dark');
  await setSidebarWidth(300);
}

/** issue 32: an MCP server configured in the workspace's .mcp.json (test/fixtures/mcp/server.mjs), measured with the
 *  Measure command (a modal names what it runs), then shown per server in the sidebar's "Whole first request" gauge
 *  and in the status bar's tooltip */
export async function mcpMeasured(h) {
  const { page, webview, until, check, shot, runCommand, setSidebarWidth, WS, REPO } = h;
  const clean = (s) => s.replace(/\s+/g, ' ').trim();
  const cwd = fs.realpathSync(WS);
  const server = { name: 'handbook', tools: 4, instructions: 'Search the team handbook before answering questions about conventions.' };
  const mcpFile = path.join(cwd, '.mcp.json');
  fs.writeFileSync(mcpFile, JSON.stringify({ mcpServers: { handbook: { command: process.execPath, args: [path.join(REPO, 'test/fixtures/mcp/server.mjs'), JSON.stringify(server)] } } }, null, 2));
  try {
    await runCommand('Claude Context Layers: Refresh');
    const gauge = webview().locator('[data-id="gauge/request"]');
    const note = async () => clean((await gauge.locator('.gauge-note').textContent().catch(() => '')) ?? '');
    const before = await until(async () => ((await note()).includes('MCP handbook') ? note() : undefined), 'the gauge naming the configured server', 20_000);
    check(/MCP handbook: tools not known yet/.test(before), `MCP: before it is measured the gauge names the server and says its tools are not known ("${before}")`);

    await runCommand('Measure the MCP Servers (Runs Them)');
    const dialog = page.locator('.monaco-dialog-box').first();
    await dialog.waitFor({ timeout: 20_000 });
    const msg = clean(await dialog.locator('.dialog-message-text').first().innerText());
    const detail = clean(await dialog.locator('.dialog-message-detail').first().innerText());
    check(msg === 'Measure the MCP servers by running them?' && detail.includes(`handbook (project): ${process.execPath}`) && detail.includes('15 s at most each'), `MCP: Measure asks first and names the command it runs ("${msg}" / "${detail.slice(0, 200)}")`);
    await shot('32-mcp-measure-confirm-dark');
    await dialog.getByRole('button', { name: 'Run 1 Server', exact: true }).click();
    const after = await until(async () => ((await note()).includes('· measured') ? note() : undefined), 'the gauge with the server measured', 30_000);
    check(/MCP handbook: 4 tools named only \(tool search\) · instructions 70 chars · measured/.test(after), `MCP: the measured server's name, tool count and instructions in the gauge ("${after}")`);
    const counts = clean((await gauge.locator('.gauge-counts').textContent()) ?? '');
    const text = clean((await gauge.locator('.gauge-text').textContent()) ?? '');
    const parts = [...counts.matchAll(/≈([\d,]+)/g)].map((m) => Number(m[1].replace(/,/g, '')));
    const whole = Number((/^≈([\d,]+)/.exec(text)?.[1] ?? '').replace(/,/g, ''));
    check(/^system prompt ≈[\d,]+ · built-in tools ≈[\d,]+ · MCP handbook ≈[\d,]+ · other fixed parts ≈[\d,]+ · yours ≈[\d,]+$/.test(counts) && whole === parts.reduce((a, b) => a + b, 0), `MCP: the split with the server of its own, adding up to the gauge (${text}; ${counts})`);
    await gauge.scrollIntoViewIfNeeded();
    await page.mouse.move(900, 500);
    await shot('32-mcp-measured-gauge-dark-300', true);
    await setSidebarWidth(520);
    await gauge.scrollIntoViewIfNeeded();
    await shot('32-mcp-measured-gauge-dark-1440');
    await setSidebarWidth(300);

    // the status bar's tooltip: the same split
    const item = page.locator('.part.statusbar .statusbar-item', { hasText: /tok$/ }).first();
    await item.hover();
    const tip = await until(async () => {
      const hv = page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'Whole first request' }).first();
      return (await hv.count()) ? clean(await hv.innerText()) : undefined;
    }, 'the status item tooltip with the whole request', 10_000).catch(() => '');
    check(tip.includes(`Whole first request ≈${text.match(/^≈([\d,]+)/)?.[1]} tokens: ${counts}`) && tip.includes('MCP handbook: 4 tools named only'), `MCP: the status bar's tooltip carries the split and the server ("${tip}")`);
    await shot('32-mcp-status-tooltip-dark');
    await page.mouse.move(700, 500);
  } finally {
    fs.rmSync(mcpFile, { force: true });
  }
}
