// A whole real Claude Code session, offline: several turns in ONE `claude -p` process (stream-json
// input), each turn's edits applied on disk before its prompt, the model's side scripted (the turn's
// calls as tool_use answers, then a text answer), every request recorded with the turn it belongs to.
// Modelled on ../shared/oracle/session.mjs (same TURNS.json), with two differences: it listens on a
// random loopback port, and instead of sleeping past the file system's time granularity it gives every
// edited file a modification time later than any before it. As there, a turn may carry `usage` (the
// tokens the stand-in reports for the main loop's answers in that turn: how a session is driven towards
// auto-compaction) and `restart` ("continue" | "resume": the running process ends, and a new one goes on
// with the same session through `--continue` or `--resume ID` before the turn's prompt is sent).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { answerMessage, type Block } from './mock-api.js';
import type { RecordedSessionRequest } from '../engine/index.js';

export interface DriverTurn {
  before?: ({ write: string; content: string } | { delete: string })[];
  prompt: string;
  calls?: { name: string; input: Record<string, unknown> }[];
  /** tokens reported for the main loop's answers in this turn */
  usage?: { input?: number; cacheRead?: number; cacheCreation?: number };
  /** a new claude process continues the session before this turn (not on the first turn) */
  restart?: 'continue' | 'resume';
  /** the stand-in holds its answer to this turn's main-loop requests this long (ms): a slow model to interrupt */
  delayMs?: number;
  /** a `control_request` of subtype `interrupt` is written to the process's input this long (ms) after the turn's
   *  first main-loop request reached the stand-in (with `delayMs` longer: the user interrupts a model still thinking) */
  interruptAfterMs?: number;
  /** a second user message written to the process's input this long (ms) after the turn's first main-loop request
   *  reached the stand-in, while the turn still runs (a Bash call sleeping): the user steering mid-turn */
  steer?: { afterMs: number; text: string };
}

export type { RecordedSessionRequest };

export interface SessionRun {
  requests: RecordedSessionRequest[];
  turnsAnswered: number;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** the session id the first process reported */
  sessionId: string | null;
  /** `result` events per process (a restart starts a new one) */
  processes: number;
}

export interface DriverOptions {
  bin: string;
  cwd: string;
  home: string;
  turns: DriverTurn[];
  /** extra environment (scenario env) */
  env?: Record<string, string>;
  /** extra CLI arguments */
  args?: string[];
  timeoutMs?: number;
  /** prefix for the command (e.g. setpriv …) */
  wrapper?: string[];
}

const MARK = 'MAIN_SESSION_SUMMARY';
/** how a prompt-type slash command's own message names it (`/compact` and `/clear` send none: never found) */
const commandName = (prompt: string) => {
  const name = prompt.trim().split(/\s/)[0]!;
  return name === '/compact' || name === '/clear' ? '\0' : `<command-name>${name}</command-name>`;
};
type Msg = { role?: string; content?: unknown };

function firstText(m: Msg | undefined): string {
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  return Array.isArray(m.content) ? (m.content as { text?: string }[]).map((c) => c.text ?? '').join('\n') : '';
}

export async function runSession(o: DriverOptions): Promise<SessionRun> {
  const turns = o.turns;
  const requests: RecordedSessionRequest[] = [];
  let turn = 0;
  let queue: { name: string; input: Record<string, unknown> }[] = [];
  let n = 0;
  // every edit gets a modification time past everything before it, close to the real time (no
  // waiting on the file system's time granularity)
  let stamp = 0;
  /** turns whose interrupt is on its way */
  const interrupted = new Set<number>();
  /** turns whose steering message is on its way */
  const steered = new Set<number>();

  // the main loop's opening user messages (up to the first answer) carry a prompt of this or an earlier turn,
  // or the summary marker (after /compact the summary is the first message; after an auto-compaction it follows
  // the restored files and the startup block)
  const isMain = (p: { messages?: Msg[] }) => {
    const msgs = p.messages ?? [];
    const k = msgs.findIndex((m) => m.role === 'assistant');
    const first = msgs.slice(0, k < 0 ? msgs.length : k).map(firstText).join('\n');
    return first.includes(MARK) || turns.slice(0, turn + 1).some((t) => (t.prompt.startsWith('/') ? first.includes(commandName(t.prompt)) : first.includes(t.prompt)));
  };
  const isCompaction = (p: { messages?: Msg[] }) => {
    const lastUser = [...(p.messages ?? [])].reverse().find((m) => m.role === 'user');
    return /create a detailed summary of the conversation/i.test(JSON.stringify(lastUser ?? ''));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const index = n++;
      let p: { messages?: Msg[]; model?: string; stream?: boolean } = {};
      try {
        p = JSON.parse(body) as typeof p;
      } catch {
        /* not JSON */
      }
      const url = req.url ?? '';
      const post = req.method === 'POST' && url.startsWith('/v1/messages');
      const main = post && !url.includes('count_tokens') && Array.isArray(p.messages) && isMain(p);
      const kind = main ? (isCompaction(p) ? 'compact' : 'main') : 'other';
      requests.push({ index, kind, turn, url, body });
      if (!post) {
        res.writeHead(404);
        res.end('{}');
        return;
      }
      if (url.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: Math.ceil(body.length / 4) }));
        return;
      }
      const model = p.model ?? 'mock';
      const u = (kind !== 'other' && turns[turn]?.usage) || {};
      const usage = { input_tokens: u.input ?? 10, cache_read_input_tokens: u.cacheRead ?? 0, cache_creation_input_tokens: u.cacheCreation ?? 0, output_tokens: 5 };
      const delay = kind === 'main' ? (turns[turn]?.delayMs ?? 0) : 0;
      const interruptIn = turns[turn]?.interruptAfterMs;
      if (kind === 'main' && interruptIn !== undefined && !interrupted.has(turn)) {
        interrupted.add(turn);
        const c = child;
        const k = turn;
        setTimeout(() => {
          if (c.exitCode === null && !c.stdin.writableEnded) c.stdin.write(JSON.stringify({ type: 'control_request', request_id: `interrupt_${k}`, request: { subtype: 'interrupt' } }) + '\n');
        }, interruptIn);
      }
      const steer = turns[turn]?.steer;
      if (kind === 'main' && steer && !steered.has(turn)) {
        steered.add(turn);
        const c = child;
        setTimeout(() => {
          if (c.exitCode === null && !c.stdin.writableEnded) c.stdin.write(JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: steer.text }] } }) + '\n');
        }, steer.afterMs);
      }
      // an interrupted request's connection is closed by the client while the answer waits
      res.on('error', () => undefined);
      const reply = (blocks: Block[], stop: string) => {
        const send = () => {
          if (!res.destroyed && !res.writableEnded) answerMessage(res, p.stream, { id: `msg_${index}`, type: 'message', role: 'assistant', model, stop_sequence: null, stop_reason: stop, usage }, blocks);
        };
        if (delay > 0) setTimeout(send, delay);
        else send();
      };
      if (kind === 'compact') return reply([{ type: 'text', text: `<summary>${MARK}</summary>` }], 'end_turn');
      if (kind === 'main' && queue.length) {
        const c = queue.shift()!;
        return reply([{ type: 'tool_use', id: `toolu_${index}`, name: c.name, input: c.input }], 'tool_use');
      }
      return reply([{ type: 'text', text: kind === 'main' ? `done ${turn}` : 'OK' }], 'end_turn');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;

  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  Object.assign(env, o.env ?? {}, {
    HOME: o.home,
    PWD: o.cwd,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    ANTHROPIC_API_KEY: 'sk-oracle-dummy',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  });
  const args = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'];
  if (!(o.args ?? []).includes('--allowedTools')) args.push('--allowedTools', 'Read,Glob,Grep,Edit,Write,Bash,Skill,Agent');
  args.push(...(o.args ?? []));
  const timeoutS = String(Math.ceil((o.timeoutMs ?? 180_000) / 1000));
  let stdout = '';
  let stderr = '';
  let sessionId: string | null = null;
  let processes = 0;
  let buf = '';
  let done = 0;
  let child: ChildProcessWithoutNullStreams;
  let onResult: () => void = () => undefined;
  const start = (more: string[]): ChildProcessWithoutNullStreams => {
    const [cmd, ...pre] = [...(o.wrapper ?? []), 'timeout', timeoutS, o.bin];
    const c = spawn(cmd, [...pre, ...args, ...more], { cwd: o.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    processes++;
    buf = '';
    c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    c.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        let ev: { type?: string; session_id?: string };
        try {
          ev = JSON.parse(line) as typeof ev;
        } catch {
          continue;
        }
        if (ev.session_id && !sessionId) sessionId = ev.session_id;
        if (ev.type === 'result') onResult();
      }
    });
    return c;
  };
  const closed = (c: ChildProcessWithoutNullStreams) => new Promise<number | null>((r) => (c.exitCode !== null || c.signalCode !== null ? r(c.exitCode) : c.on('close', (code) => r(code))));

  const startTurn = async (k: number) => {
    const t = turns[k]!;
    turn = k;
    for (const e of t.before ?? []) {
      if ('write' in e) {
        fs.mkdirSync(path.dirname(e.write), { recursive: true });
        fs.writeFileSync(e.write, e.content);
        stamp = Math.max(Date.now() / 1000, stamp + 0.01);
        fs.utimesSync(e.write, stamp, stamp);
      } else fs.rmSync(e.delete, { recursive: true, force: true });
    }
    if (t.restart && k > 0) {
      const prev = child;
      prev.stdin.end();
      await closed(prev);
      child = start(t.restart === 'resume' && sessionId ? ['--resume', sessionId] : ['--continue']);
    }
    queue = [...(t.calls ?? [])];
    child.stdin.write(JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: t.prompt }] } }) + '\n');
  };
  let finished!: () => void;
  const allDone = new Promise<void>((r) => (finished = r));
  onResult = () => {
    done++;
    if (done < turns.length) void startTurn(done);
    else {
      child.stdin.end();
      finished();
    }
  };
  child = start([]);
  void startTurn(0);
  // the session ends when the last turn is answered, or when the running process ends without a restart pending
  let exitCode: number | null = null;
  for (;;) {
    const c = child;
    const code = await Promise.race([closed(c), allDone.then(() => closed(c))]);
    if (c === child && (done >= turns.length || !turns[done]?.restart)) {
      exitCode = code;
      break;
    }
    if (c === child) await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise<void>((r) => server.close(() => r()));
  return { requests, turnsAnswered: done, exitCode, stdout, stderr, sessionId, processes };
}
