// Loopback stand-in for the Anthropic Messages API, used by `verify` (the product) and by the
// conformance suite. Same behaviour as shared/oracle/mock-api.mjs, in-process, on a random free port:
// - every request is recorded (method, url, headers, body decoded once as UTF-8);
// - POST /v1/messages?…count_tokens answers a token estimate;
// - POST /v1/messages answers SSE (or JSON when `stream` is false);
// - a main-loop request (its `tools` include Read) that already carries k tool_result blocks
//   is answered with step k of the script: a tool_use, or a text; past the script: "OK".
// Anything else answers 404 `{}`. Binds 127.0.0.1 only: nothing leaves the machine, and nothing is
// forwarded. When the child is also given HTTP(S)_PROXY pointing here, traffic meant for other hosts
// arrives as CONNECT or absolute-URL requests: it is recorded (`otherHosts`) and refused.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

export interface Step {
  tool_use?: { name: string; input: Record<string, unknown> };
  text?: string;
}

export interface RecordedRequest {
  index: number;
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Block {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

export function countToolResults(messages: unknown): number {
  let k = 0;
  if (!Array.isArray(messages)) return 0;
  for (const m of messages) {
    const content = (m as { content?: unknown }).content;
    if (Array.isArray(content)) for (const p of content) if ((p as { type?: string }).type === 'tool_result') k++;
  }
  return k;
}

export function isMainLoopBody(p: unknown): boolean {
  const tools = (p as { tools?: unknown }).tools;
  return Array.isArray(tools) && tools.some((t) => (t as { name?: string }).name === 'Read');
}

export class MockApi {
  readonly requests: RecordedRequest[] = [];
  /** `host:port` of every CONNECT (proxied HTTPS) the stand-in refused */
  readonly connects: string[] = [];
  private server: http.Server | undefined;
  private n = 0;
  /** the count-tokens endpoint's answer; undefined: a quarter of the body's length */
  countTokens: number | undefined;

  /** mainMatch: only main-loop requests whose first message contains this text follow the script. */
  constructor(private readonly steps: Step[], private readonly mainMatch?: string) {}

  async start(): Promise<number> {
    const server = http.createServer((req, res) => this.handle(req, res));
    server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
      this.connects.push(req.url ?? '?');
      socket.on('error', () => undefined);
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
    server.on('clientError', (_e, socket) => socket.destroy());
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** hosts other than this stand-in that the child tried to reach through the proxy variables */
  otherHosts(): string[] {
    const out = new Set<string>(this.connects);
    for (const r of this.requests) {
      if (!/^[a-z]+:\/\//i.test(r.url)) continue;
      try {
        out.add(new URL(r.url).host);
      } catch {
        out.add(r.url.slice(0, 80));
      }
    }
    return [...out];
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8'); // decode once: no U+FFFD at chunk seams
      const i = this.n++;
      const url = req.url ?? '/';
      const method = req.method ?? 'GET';
      this.requests.push({ index: i, method, url, headers: req.headers, body });
      if (!(method === 'POST' && url.startsWith('/v1/messages'))) {
        // includes proxied requests for other hosts (absolute URL): refused, never forwarded
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{}');
        return;
      }
      let p: Record<string, unknown> = {};
      try {
        p = JSON.parse(body) as Record<string, unknown>;
      } catch {
        /* not JSON: answered as a plain request */
      }
      if (url.includes('count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: this.countTokens ?? Math.ceil(body.length / 4) }));
        return;
      }
      let isMain = isMainLoopBody(p);
      if (isMain && this.mainMatch) isMain = JSON.stringify((p.messages as unknown[] | undefined)?.[0] ?? '').includes(this.mainMatch);
      const k = countToolResults(p.messages);
      const step = isMain ? this.steps[k] : undefined;
      const base = {
        id: `msg_${i}`,
        type: 'message',
        role: 'assistant',
        model: typeof p.model === 'string' ? p.model : 'mock',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      };
      let blocks: Block[];
      let stop: string;
      if (step?.tool_use) {
        blocks = [{ type: 'tool_use', id: `toolu_${i}`, name: step.tool_use.name, input: step.tool_use.input }];
        stop = 'tool_use';
      } else {
        blocks = [{ type: 'text', text: step?.text || 'OK' }];
        stop = 'end_turn';
      }
      const msg = { ...base, stop_reason: stop };
      answerMessage(res, p.stream === true, msg, blocks);
    });
  }
}

/** answers one Messages API request with `blocks`: as server-sent events when it asked to stream, else as JSON */
export function answerMessage(res: http.ServerResponse, stream: boolean | undefined, msg: Record<string, unknown>, blocks: Block[]): void {
  if (!stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...msg, content: blocks }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const ev = (t: string, d: unknown) => res.write(`event: ${t}\ndata: ${JSON.stringify(d)}\n\n`);
  ev('message_start', { type: 'message_start', message: { ...msg, content: [], stop_reason: null } });
  blocks.forEach((b, i) => {
    if (b.type === 'text') {
      ev('content_block_start', { type: 'content_block_start', index: i, content_block: { type: 'text', text: '' } });
      ev('content_block_delta', { type: 'content_block_delta', index: i, delta: { type: 'text_delta', text: b.text } });
    } else {
      ev('content_block_start', { type: 'content_block_start', index: i, content_block: { ...b, input: {} } });
      ev('content_block_delta', {
        type: 'content_block_delta',
        index: i,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) },
      });
    }
    ev('content_block_stop', { type: 'content_block_stop', index: i });
  });
  ev('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: msg.stop_reason, stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  ev('message_stop', { type: 'message_stop' });
  res.end();
}
