// Reads a Chromium trace written by the e2e (E2E_ONLY=switch E2E_TRACE=<file>) and splits each editor
// switch's webview span (the webview's ccl:received → ccl:updated → ccl:painted marks) into: our message
// handler; the wait from the DOM update to the frame, with what the renderer's main thread ran in it
// (tasks by the frame they ran for: the workbench, our webview); and the frame up to the mark (the
// workbench's rAF callbacks, ours, our style and layout).
//
//   node test/e2e/read-switch-trace.mjs trace.json
import fs from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node test/e2e/read-switch-trace.mjs <trace.json>');
  process.exit(2);
}
const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
const events = raw.traceEvents ?? raw;

// frames: the workbench page, the webview's outer frame (pre/index.html), ours (its inner fake.html)
const frames = {};
for (const e of events) {
  if (e.name === 'TracingStartedInBrowser') for (const f of e.args.data.frames ?? []) frames[f.frame] = f;
  if (e.name === 'FrameCommittedInBrowser') frames[e.args.data.frame] = { ...frames[e.args.data.frame], ...e.args.data };
}
const frameName = (id) => {
  if (typeof id !== 'string') return '';
  const url = frames[id]?.url ?? '';
  if (/\/pre\/fake\.html/.test(url)) return 'ours';
  if (/\/pre\/index\.html/.test(url)) return 'webview-outer';
  if (/\?folder=|\/\?/.test(url)) return 'workbench';
  return 'other';
};
const marks = events.filter((e) => /^ccl:/.test(e.name)).sort((a, b) => a.ts - b.ts);
if (!marks.length) {
  console.error('no ccl: marks in this trace (blink.user_timing not recorded?)');
  process.exit(1);
}
const { pid, tid } = marks[0];
const processes = new Set(events.filter((e) => e.ph === 'M' && e.name === 'process_name' && e.args?.name === 'Renderer').map((e) => e.pid));
const ourFrames = Object.entries(frames).filter(([id]) => frameName(id) === 'ours');
const workbench = Object.entries(frames).find(([id]) => frameName(id) === 'workbench');
console.log(`renderer processes: ${processes.size}; our frame in process ${ourFrames.map(([, f]) => f.processId).join(', ')}, the workbench in ${workbench?.[1].processId}; the marks on thread ${pid}/${tid}`);

// complete events of that thread (X, and B/E pairs)
const main = [];
const open = [];
for (const e of events.filter((x) => x.pid === pid && x.tid === tid).sort((a, b) => a.ts - b.ts)) {
  if (e.ph === 'X') main.push({ ...e, end: e.ts + (e.dur ?? 0) });
  else if (e.ph === 'B') open.push(e);
  else if (e.ph === 'E') {
    const b = open.pop();
    if (b) main.push({ ...b, end: e.ts, dur: e.ts - b.ts });
  }
}
main.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
const tasks = [];
for (const e of main.filter((x) => x.name === 'ThreadControllerImpl::RunTask')) if (!tasks.length || e.ts >= tasks.at(-1).end) tasks.push(e);
const inside = (outer) => main.filter((e) => e.ts >= outer.ts && e.end <= outer.end && e !== outer);
const kind = (task) => {
  const kids = inside(task);
  const gc = kids.filter((e) => /MinorGC|MajorGC|V8\.GC_SCAVENGER|V8\.GCScavenger/.test(e.name)).reduce((m, e) => Math.max(m, e.dur), 0);
  if (gc > task.dur / 2) return 'garbage collection';
  const js = kids.find((e) => ['FunctionCall', 'TimerFire', 'EventDispatch', 'FireIdleCallback'].includes(e.name));
  if (js) {
    const who = frameName(js.args?.data?.frame) || 'unknown frame';
    const fn = js.args?.data?.functionName ?? '';
    return `script of ${who}${/onload|socket/i.test(fn) ? ' (its WebSocket messages)' : js.name === 'TimerFire' ? ' (timers)' : ''}`;
  }
  if (kids.some((e) => e.name === 'RunMicrotasks')) return 'microtasks';
  if (kids.some((e) => e.name === 'UpdateLayoutTree' || e.name === 'Layout')) return 'style and layout';
  return 'other (IPC, scheduling)';
};
const ms = (us) => (us / 1000).toFixed(1);
const sum = { total: 0, handler: 0, wait: 0, busy: 0, frameBefore: 0, ourRaf: 0, ourStyleLayout: 0 };
const waitBy = {};
let n = 0;
for (let i = 0; i + 2 < marks.length; i++) {
  if (marks[i].name !== 'ccl:received' || marks[i + 1].name !== 'ccl:updated' || marks[i + 2].name !== 'ccl:painted') continue;
  const [rec, upd, pnt] = [marks[i].ts, marks[i + 1].ts, marks[i + 2].ts];
  const frame = main.find((e) => e.name === 'ProxyMain::BeginMainFrame' && e.ts <= pnt && e.end >= pnt);
  const frameStart = frame ? frame.ts : pnt;
  const by = {};
  for (const t of tasks) {
    const a = Math.max(t.ts, upd);
    const b = Math.min(t.end, frameStart);
    if (b > a) by[kind(t)] = (by[kind(t)] ?? 0) + (b - a);
  }
  const busy = Object.values(by).reduce((a, b) => a + b, 0);
  const before = frame ? inside(frame).filter((e) => e.end <= pnt) : [];
  const total = (pred) => before.filter(pred).reduce((a, e) => a + e.dur, 0);
  const rafOf = (who) => total((e) => e.name === 'FireAnimationFrame' && frameName(e.args?.data?.frame) === who);
  const styleLayoutOf = (who) => total((e) => (e.name === 'UpdateLayoutTree' || e.name === 'Layout') && frameName(e.args?.beginData?.frame) === who);
  const ourRaf = rafOf('ours');
  // our style and layout that the frame ran outside our rAF callback (before it, for the workbench's layout)
  const ourRafs = before.filter((e) => e.name === 'FireAnimationFrame' && frameName(e.args?.data?.frame) === 'ours');
  const ourOutside = total((e) => (e.name === 'UpdateLayoutTree' || e.name === 'Layout') && frameName(e.args?.beginData?.frame) === 'ours' && !ourRafs.some((r) => e.ts >= r.ts && e.end <= r.end));
  console.log(
    `switch ${++n}: received→painted ${ms(pnt - rec)} ms = handler ${ms(upd - rec)} + wait for the frame ${ms(frameStart - upd)} (main thread busy ${ms(busy)}: ${Object.entries(by).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${ms(v)}`).join(', ')}) + frame up to the mark ${ms(pnt - frameStart)} (workbench rAF ${ms(rafOf('workbench'))}, workbench style and layout ${ms(styleLayoutOf('workbench'))}, our rAF ${ms(ourRaf)} with our style and layout ${ms(styleLayoutOf('ours'))})`,
  );
  for (const [k, v] of Object.entries(by)) waitBy[k] = (waitBy[k] ?? 0) + v;
  Object.assign(sum, {
    total: sum.total + pnt - rec, handler: sum.handler + upd - rec, wait: sum.wait + frameStart - upd, busy: sum.busy + busy,
    frameBefore: sum.frameBefore + pnt - frameStart - ourRaf - ourOutside, ourRaf: sum.ourRaf + ourRaf + ourOutside, ourStyleLayout: sum.ourStyleLayout + styleLayoutOf('ours'),
  });
}
if (!n) {
  console.error('no complete received/updated/painted triple');
  process.exit(1);
}
const per = (x) => ms(x / n);
console.log(
  `mean of ${n} switches: received→painted ${per(sum.total)} ms; ours ${per(sum.handler + sum.ourRaf)} (handler ${per(sum.handler)}, in the frame ${per(sum.ourRaf)}: our rAF and our style and layout, ${per(sum.ourStyleLayout)} of it style and layout); wait for the frame ${per(sum.wait)} (main thread busy ${per(sum.busy)}: ${Object.entries(waitBy).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${per(v)}`).join(', ')}); the frame's other work before the mark ${per(sum.frameBefore)}`,
);
