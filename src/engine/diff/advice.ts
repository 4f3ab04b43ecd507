// Advice with its price: what an always-loaded text costs, in tokens at every session start and in
// dollars over the sessions the user really ran in this project (their transcripts, read locally
// through FileAccess; nothing leaves the machine). Prices are an input (dollars per million tokens
// of input, cache write, cache read), so the caller takes them from the profiles' table or a setting.
//
// The price of a text in the startup block (the CLAUDE.md block and the skills listing sit in the
// cached prefix): written to the cache once per session, read from it by every later request of the
// session. A session's requests are its main-loop assistant messages in the transcript.
import * as path from 'node:path';
import type { Analysis } from '../analysis.js';
import type { FileAccess } from '../files/file-access.js';
import { approxTokens } from '../figures.js';
import { listTranscripts, transcriptDirs, configDir } from '../transcript/session.js';
import { parseTranscriptText, obj, arr, str } from '../transcript/records.js';
import { skillsView } from '../checks/skills-check.js';

export interface ModelPrices {
  /** dollars per million tokens */
  input: number;
  cacheWrite: number;
  cacheRead: number;
}

/** what one past session did, as far as the advice needs */
export interface SessionUse {
  file: string;
  /** main-loop requests (assistant messages) */
  requests: number;
  /** skills the session invoked (Skill tool calls, by name) */
  skills: Set<string>;
  /** MCP servers whose tools the session called (`mcp__SERVER__tool`) */
  mcpServers: Set<string>;
  /** files the session read, edited or wrote (absolute) */
  files: Set<string>;
}

export interface AdviceItem {
  kind: 'always-loaded' | 'skill-unused' | 'mcp-unused';
  path: string;
  /** what the text costs at every session start, ≈tokens (0 when unknown) */
  tokensPerStart: number;
  /** over the sessions read: how many paid it, how many used what it is for (skills, MCP servers) */
  sessions?: { read: number; used: number };
  /** dollars that text cost over the sessions read (cache write once, cache reads per later request) */
  dollars?: number;
  message: string;
}

/** the most of one transcript read (a longer one is read in its first 64 MiB) */
const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/** The last `n` sessions of the launch directory, newest first. */
export function recentSessions(fa: FileAccess, cwd: string, home: string, env: Record<string, string | undefined>, n: number): SessionUse[] {
  const files = listTranscripts(fa, transcriptDirs(fa, cwd, configDir(home, env)))
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .slice(0, n);
  const out: SessionUse[] = [];
  for (const t of files) {
    const r = fa.readRange ? fa.readRange(t.file, 0, MAX_TRANSCRIPT_BYTES) : fa.readFile(t.file, MAX_TRANSCRIPT_BYTES);
    if (!r.ok) continue;
    const bytes = 'data' in r.value ? r.value.data : r.value;
    const parsed = parseTranscriptText(Buffer.from(bytes).toString('utf8'));
    const use: SessionUse = { file: t.file, requests: 0, skills: new Set(), mcpServers: new Set(), files: new Set() };
    for (const { type, rec } of parsed.records) {
      if (type !== 'assistant' || rec.isSidechain === true) continue;
      use.requests++;
      for (const c of arr(obj(rec.message)?.content)) {
        const block = obj(c);
        if (block?.type !== 'tool_use') continue;
        const name = str(block.name) ?? '';
        const input = obj(block.input);
        if (name === 'Skill') {
          const s = str(input?.skill) ?? str(input?.command);
          if (s) use.skills.add(s.replace(/^\//, ''));
        } else if (name.startsWith('mcp__')) use.mcpServers.add(name.split('__')[1] ?? '');
        else if (name === 'Read' || name === 'Edit' || name === 'Write') {
          const f = str(input?.file_path);
          if (f && path.isAbsolute(f)) use.files.add(path.normalize(f));
        }
      }
    }
    out.push(use);
  }
  return out;
}

/** dollars a text of `tokens` in the cached prefix cost over `sessions` */
export function prefixCost(tokens: number, sessions: readonly SessionUse[], p: ModelPrices): number {
  let d = 0;
  for (const s of sessions) d += (tokens * (p.cacheWrite + p.cacheRead * Math.max(0, s.requests - 1))) / 1e6;
  return d;
}

const money = (d: number) => (d >= 1 ? `$${d.toFixed(2)}` : `$${d.toFixed(3)}`);
const n = (x: number) => x.toLocaleString('en-US');

/**
 * The always-loaded texts with their price: each rule without `paths:` and each CLAUDE.md of the
 * startup block, each skill of the listing (unused ones said so), each MCP server of `.mcp.json`
 * whose tools no session called. `sessions` may be empty (no transcripts) and `prices` absent: then
 * tokens only, no dollars.
 */
export function pricedAdvice(a: Analysis, sessions: readonly SessionUse[], prices: ModelPrices | undefined, mcpServers: readonly string[] = []): AdviceItem[] {
  const ratio = a.model.bytesPerToken;
  const items: AdviceItem[] = [];
  const over = sessions.length ? ` in the last ${sessions.length} session${sessions.length === 1 ? '' : 's'}` : '';
  for (const e of a.startup) {
    const tokens = approxTokens(e.text.length, ratio);
    const dollars = sessions.length && prices ? prefixCost(tokens, sessions, prices) : undefined;
    const what = e.origin.kind === 'rule' ? 'a rule without paths' : e.origin.kind === 'include' ? 'an @import' : e.type === 'AutoMem' ? 'MEMORY.md' : 'an instruction file';
    items.push({
      kind: 'always-loaded', path: e.path, tokensPerStart: tokens,
      ...(sessions.length && { sessions: { read: sessions.length, used: sessions.length } }),
      ...(dollars !== undefined && { dollars }),
      message: `${what}, ≈${n(tokens)} tokens at every session start${dollars !== undefined ? `; it cost ${money(dollars)}${over} (${n(sessions.reduce((k, s) => k + s.requests, 0))} requests)` : ''}${e.origin.kind === 'rule' ? '; `paths:` would load it only when a matching file is read' : ''}`,
    });
  }
  const sv = skillsView(a);
  for (const s of sv.entries) {
    if (s.bundled) continue;
    const tokens = approxTokens(s.chars, ratio);
    const used = sessions.filter((x) => x.skills.has(s.name)).length;
    const dollars = sessions.length && prices ? prefixCost(tokens, sessions, prices) : undefined;
    items.push({
      kind: 'skill-unused', path: s.path ?? s.name, tokensPerStart: tokens,
      ...(sessions.length && { sessions: { read: sessions.length, used } }),
      ...(dollars !== undefined && { dollars }),
      message: `skill "${s.name}": ≈${n(tokens)} tokens of the listing at every session start${sessions.length ? `; called in ${used} of the last ${sessions.length} sessions${used === 0 ? `: removing it (or a shorter description) saves ${dollars !== undefined ? `${money(dollars)} over them` : `≈${n(tokens * sessions.length)} tokens of cache writes over them`}` : ''}` : ''}`,
    });
  }
  for (const m of mcpServers) {
    const used = sessions.filter((x) => x.mcpServers.has(m)).length;
    if (!sessions.length || used) continue;
    items.push({ kind: 'mcp-unused', path: m, tokensPerStart: 0, sessions: { read: sessions.length, used }, message: `MCP server "${m}": none of its tools was called in the last ${sessions.length} sessions; its tool definitions are sent with every request` });
  }
  return items;
}
