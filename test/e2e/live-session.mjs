// E2E of issue 17's editor part: a real Claude Code session (the installed binary, `-p` with stream-json
// input, against a loopback stand-in) runs in the workspace while the "This Session" view follows it
// turn by turn: the gauge of the real context, the turns with what each call brought, the files the
// session holds, and the status bar item. Turns are released one at a time, and the view is checked and
// shot after each.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';

const MARK = 'E2E_LIVE';

/** a session whose turns are sent one by one: `next()` sends the next turn and resolves when it ended */
function startSession({ bin, cwd, home, turns, usage }) {
  let turn = -1;
  let queue = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let p = {};
      try {
        p = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        /* not JSON */
      }
      if (req.method !== 'POST' || !req.url.startsWith('/v1/messages')) return res.writeHead(404).end('{}');
      if (req.url.includes('count_tokens')) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 1000 }));
      const m0 = (p.messages ?? [])[0];
      const first = typeof m0?.content === 'string' ? m0.content : (m0?.content ?? []).map((c) => c.text ?? '').join('\n');
      const main = first.includes(MARK);
      const c = main ? queue.shift() : undefined;
      const blocks = c ? [{ type: 'tool_use', id: `toolu_e2e_${turn}_${queue.length}`, name: c.name, input: c.input }] : [{ type: 'text', text: main ? `done ${turn}` : 'OK' }];
      const msg = { id: `msg_e2e_${Date.now()}`, type: 'message', role: 'assistant', model: p.model ?? 'mock', stop_sequence: null, stop_reason: c ? 'tool_use' : 'end_turn', usage: { ...usage, output_tokens: 5 } };
      if (!p.stream) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...msg, content: blocks }));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const ev = (t, d) => res.write(`event: ${t}\ndata: ${JSON.stringify(d)}\n\n`);
      ev('message_start', { type: 'message_start', message: { ...msg, content: [], stop_reason: null } });
      blocks.forEach((b, i) => {
        ev('content_block_start', { type: 'content_block_start', index: i, content_block: b.type === 'text' ? { type: 'text', text: '' } : { ...b, input: {} } });
        ev('content_block_delta', { type: 'content_block_delta', index: i, delta: b.type === 'text' ? { type: 'text_delta', text: b.text } : { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
        ev('content_block_stop', { type: 'content_block_stop', index: i });
      });
      ev('message_delta', { type: 'message_delta', delta: { stop_reason: msg.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } });
      ev('message_stop', { type: 'message_stop' });
      res.end();
    });
  });
  let child;
  let ended = () => undefined;
  const ready = new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const env = { PATH: process.env.PATH, HOME: home, PWD: cwd, ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.address().port}`, ANTHROPIC_API_KEY: 'sk-e2e-dummy', DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' };
      child = spawn(bin, ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Read,Glob,Grep,Edit,Write,Bash,Skill,Agent'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let buf = '';
      child.stdout.on('data', (d) => {
        buf += d.toString();
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          try {
            if (JSON.parse(line).type === 'result') ended();
          } catch {
            /* not an event */
          }
        }
      });
      child.stderr.on('data', () => undefined);
      resolve();
    }),
  );
  return {
    async next() {
      await ready;
      turn++;
      const t = turns[turn];
      queue = [...(t.calls ?? [])];
      const done = new Promise((resolve) => (ended = resolve));
      child.stdin.write(JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: `${MARK} ${t.prompt}` }] } }) + '\n');
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`turn ${turn + 1} did not end in 90 s`)), 90_000));
      await Promise.race([done, timeout]);
    },
    stop() {
      try {
        child?.stdin.end();
        child?.kill();
      } catch {
        /* gone */
      }
      server.close();
    },
  };
}

/** the newest session transcript under HOME's ~/.claude/projects (subagents' files are not sessions) */
function newestTranscript(home) {
  const root = `${home}/.claude/projects`;
  let best;
  for (const d of fs.existsSync(root) ? fs.readdirSync(root) : [])
    for (const f of fs.readdirSync(`${root}/${d}`).filter((x) => x.endsWith('.jsonl') && !x.startsWith('agent-'))) {
      const file = `${root}/${d}/${f}`;
      const m = fs.statSync(file).mtimeMs;
      if (!best || m > best.m) best = { file, m };
    }
  return best?.file;
}

export async function liveSessionView(h) {
  const { page, webview, until, check, shot, runCommand, setSidebarWidth, setTheme, WS, HOME_DIR, CLAUDE_BIN, SHOTS } = h;
  const cwd = fs.realpathSync(WS);
  const session = startSession({
    bin: CLAUDE_BIN,
    cwd,
    home: HOME_DIR,
    usage: { input_tokens: 1200, cache_read_input_tokens: 40_000, cache_creation_input_tokens: 2_000 },
    turns: [
      { prompt: 'turn one: read the client', calls: [{ name: 'Read', input: { file_path: `${cwd}/src/api/client.ts` } }] },
      { prompt: 'turn two: read the docs', calls: [{ name: 'Read', input: { file_path: `${cwd}/docs/architecture.md` } }, { name: 'Bash', input: { command: `cat ${cwd}/README.md`, description: 'show' } }] },
    ],
  });
  try {
    // the view, in the Claude Context Layers container (its focus command: a click on the container's
    // icon would close the side bar when it is already open)
    await runCommand('Focus on This Session (live) View');
    const pane = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: /This Session \(live\)/i }) }).first();
    await pane.waitFor({ timeout: 20_000 });
    const header = pane.locator('.pane-header').first();
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    const rowsOf = async () => (await pane.locator('.monaco-list-row').allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
    const message = async () => ((await pane.locator('.message').first().innerText().catch(() => '')) ?? '').replace(/\s+/g, ' ');

    await session.next();
    // (while turn 1 runs the view says "no usage recorded yet": wait for the turn's usage, then check its figure)
    const t1 = await until(async () => ((await rowsOf()).some((r) => r.startsWith('Turns')) && /^[\d,]+ of [\d,]+ tokens/.test(await message()) ? rowsOf() : undefined), 'the view to show the running session\'s usage after turn 1', 30_000);
    const m1 = await message();
    check(/^43,200 of 1,000,000 tokens \(4\.3%\)/.test(m1), `live view gauge from the session's real usage, without repeating the view's title: "${m1}"`);
    check(t1.some((r) => /^Turns\s*1 turn( · \$[\d,.]+)? · Claude Code /.test(r)), `live view: 1 turn after the first (${t1.join(' | ')})`);
    // open the turn (the Turns group opens expanded; a turn starts folded): its call and what arrived after it
    await until(async () => ((await rowsOf()).some((r) => r.startsWith('Turn 1:')) ? true : undefined), 'turn 1 row', 10_000).catch(() => undefined);
    const turnRow = pane.locator('.monaco-list-row', { hasText: 'Turn 1:' }).first();
    if (await turnRow.count()) await turnRow.click();
    const withCall = await until(async () => ((await rowsOf()).some((r) => r.startsWith('Read client.ts')) ? rowsOf() : undefined), 'the Read call under turn 1', 10_000).catch(() => rowsOf());
    const readRow = withCall.find((r) => r.startsWith('Read client.ts'));
    check(!!readRow && /^Read client\.ts\s*src\/api\b/.test(readRow), `live view: turn 1 lists its Read call, the file name first and its folder after (${readRow ?? withCall.join(' | ')})`);
    const status = page.locator('.part.statusbar .statusbar-item', { hasText: '%' }).first();
    const statusText = await until(async () => ((await status.count()) ? (await status.innerText()).trim() : undefined), 'the live status item', 15_000).catch(() => '');
    check(/^4%$/.test(statusText.replace(/\s+/g, '')), `status bar shows the running session's fill: "${statusText}"`);
    // the sidebar's header names what the followed session runs
    const hdr = await until(async () => {
      const title = (await webview().locator('header').getAttribute('title')) ?? '';
      return /followed in This Session runs Claude Code/.test(title) ? title : undefined;
    }, 'the header naming the followed session', 15_000).catch(() => '');
    const hv = (await webview().locator('header .version').textContent()) ?? '';
    const hm = (await webview().locator('header .model').textContent()) ?? '';
    check(!!hdr && hv === `Claude Code ${process.env.CLAUDE_VERSION ?? '2.1.328'}` && hdr.includes(` on ${hm}.`), `the sidebar's header names the followed session's version and model (${hv} · ${hm}; ${hdr.split('\n')[0]})`);
    await shot('17-live-session-turn1-dark');

    await session.next();
    const t2 = await until(async () => ((await rowsOf()).some((r) => /^Turns\s*2 turns/.test(r)) ? rowsOf() : undefined), 'the view to follow turn 2', 30_000);
    check(t2.some((r) => /^Turns\s*2 turns/.test(r)), `live view followed the second turn without a reload (${t2.join(' | ')})`);
    check(t2.some((r) => r.startsWith('Files the session holds')), 'live view: the files the session holds');
    check(t2.some((r) => r.startsWith('Prediction')), `live view: the prediction row (${t2.find((r) => r.startsWith('Prediction')) ?? 'none'})`);
    const turn2 = pane.locator('.monaco-list-row', { hasText: 'Turn 2:' }).first();
    if (await turn2.count()) await turn2.click();
    await until(async () => ((await rowsOf()).some((r) => r.startsWith('Read architecture.md')) ? true : undefined), 'the calls of turn 2', 10_000).catch(() => undefined);
    await shot('17-live-session-turn2-dark');

    // an appended record on screen: a prompt written into the transcript, timed until its turn shows
    session.stop();
    const file = newestTranscript(HOME_DIR);
    const times = [];
    if (file) {
      const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
      let parent;
      let sessionId;
      for (const l of lines.reverse()) {
        try {
          const r = JSON.parse(l);
          if (r.uuid && !parent) parent = r.uuid;
          if (r.sessionId && !sessionId) sessionId = r.sessionId;
        } catch {
          /* not a record */
        }
      }
      for (let i = 0; i < 3; i++) {
        const uuid = `e2e-append-${i}-${Date.now()}`;
        const rec = { type: 'user', uuid, parentUuid: parent, sessionId, cwd, version: process.env.CLAUDE_VERSION ?? '2.1.328', timestamp: new Date().toISOString(), message: { role: 'user', content: `appended prompt ${i + 1}` } };
        parent = uuid;
        const want = new RegExp(`^Turns\\s*${3 + i} turns`);
        const t0 = Date.now();
        fs.appendFileSync(file, `${JSON.stringify(rec)}\n`);
        const ok = await until(async () => ((await rowsOf()).some((r) => want.test(r)) ? true : undefined), `appended turn ${i + 1} on screen`, 10_000, 5).catch(() => false);
        times.push(ok ? Date.now() - t0 : Infinity);
        await new Promise((r) => setTimeout(r, 1_200));
      }
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    const line = `live session: an appended record on screen in ${times.map((x) => `${x} ms`).join(', ')} (median ${median} ms; the bench's reader append is in bench/results.md, < 20 ms)`;
    console.log(line);
    if (SHOTS) fs.appendFileSync(`${SHOTS}/benchmark.txt`, `${line}\n`);
    check(Number.isFinite(median) && median < 1_000, line);

    // the widths and themes a newcomer meets: 1440×900 above; the sidebar at 258 px, dark and light
    if (setSidebarWidth) {
      await setSidebarWidth(258);
      await shot('31-live-session-258-dark', true);
      const cut = await pane.locator('.monaco-list-row .label-name').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
      console.log(`rows whose label is cut at 258 px: ${cut.length ? cut.join(' | ') : 'none'}`);
      if (setTheme) {
        await setTheme('Light Modern', 'vscode-light');
        await shot('31-live-session-258-light', true);
        await shot('31-live-session-1440-light');
        await setTheme('Dark Modern', 'vscode-dark');
      }
      await setSidebarWidth(300);
    }
  } finally {
    session.stop();
  }
}
