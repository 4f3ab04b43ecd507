// E2E of issue 12's editor part: the session timeline (steps added through "Add a step…" as a user
// would: a subagent, /compact), the Subagents row, and the notice when CLAUDE.md is saved while a
// Claude Code session is running in the workspace (a fresh transcript in ~/.claude/projects/<key>/).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** the transcript folder key of a launch directory: its real path, every non-alphanumeric as `-` */
const keyOf = (dir) => fs.realpathSync(dir).replace(/[^A-Za-z0-9]/g, '-');

export async function sessionTimeline(h) {
  const { page, webview, sectionRows, until, check, shot, quickOpen, toastText, pick, WS, HOME_DIR } = h;
  const addStep = async (first, second) => {
    await webview().locator('[data-section="session"] vscode-button[data-command="sessionAddStep"]').click();
    await pick(first);
    if (second) await pick(second);
  };

  // a subagent of a built-in type, then /compact
  await addStep('Start a subagent', 'Explore');
  const explore = await until(async () => (await sectionRows('session')).find((r) => r.label === '2. Subagent Explore'), 'the Explore step', 20_000);
  check(explore.description === 'its own context: no instruction files', `timeline: an Explore subagent gets no instruction file (${explore.description})`);
  await addStep('Start a subagent', 'general-purpose');
  const gp = await until(async () => (await sectionRows('session')).find((r) => r.label === '3. Subagent general-purpose'), 'the general-purpose step', 20_000);
  check(/^its own context: the CLAUDE\.md block of Startup, ≈[\d,]+ tokens$/.test(gp.description), `timeline: a general-purpose subagent gets the startup block (${gp.description})`);
  await addStep('/compact');
  const compact = await until(async () => (await sectionRows('session')).find((r) => r.label === '4. /compact'), 'the /compact step', 20_000);
  check(/^starts over: the startup block rebuilt from disk; back: \d+ files? · \d+ skills? \(the skills listing, ≈[\d,]+ tokens, is not counted after it\)$/.test(compact.description), `timeline: /compact says what comes back (${compact.description})`);
  const rows = await sectionRows('session');
  check(rows.some((r) => r.label === 'Subagents'), 'timeline: a Subagents row lists what each agent type would see');
  const headline = await webview().locator('section[data-section="session"] .headline').first().textContent().catch(() => '');
  check(/^After 4 steps the conversation holds ≈[\d,]+ tokens/.test(headline ?? ''), `timeline: the headline gives the running total (${headline})`);
  await webview().locator('section[data-section="session"]').scrollIntoViewIfNeeded();
  await shot('10-session-timeline-dark', true);

  // saving CLAUDE.md while a Claude Code session is running here: what that session will see
  const dir = path.join(HOME_DIR, '.claude', 'projects', keyOf(WS));
  const dirBefore = fs.existsSync(dir); // it holds the memory folder: only a folder made here is removed
  fs.mkdirSync(dir, { recursive: true });
  const transcript = path.join(dir, '00000000-e2e0-4000-8000-000000000000.jsonl');
  fs.writeFileSync(transcript, `${JSON.stringify({ type: 'user', uuid: 'e2e-1', parentUuid: null, message: { role: 'user', content: 'hi' } })}\n`);
  try {
    await quickOpen('CLAUDE.md');
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' ');
    await page.keyboard.press('Control+S');
    const text = await until(async () => (await toastText('The Claude Code session running here')) || undefined, 'the save notice', 20_000);
    check(/^The Claude Code session running here keeps the CLAUDE\.md it started with: it sees this edit only after \/compact or \/clear \(transcript written 1 min ago\)\.$/.test(text), `save notice: a startup file is seen only after /compact or /clear (${text})`);
    // the whole text, as a person would open it
    await page.locator('.notifications-toasts .notification-toast', { hasText: 'The Claude Code session running here' }).first().hover();
    await page.locator('.notifications-toasts .notification-toast .codicon-notifications-expand').first().click().catch(() => undefined);
    await shot('11-save-notice-dark');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Control+S');
  } finally {
    fs.rmSync(transcript, { force: true });
    if (!dirBefore) fs.rmSync(dir, { recursive: true, force: true });
  }
  // back to the file the rest of the e2e works on
  await quickOpen('client.ts');
}
