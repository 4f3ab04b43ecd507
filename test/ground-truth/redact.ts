// Redaction of recorded transcripts before they become fixtures: the scenario's own content (every
// string with a MARK_GT_ marker, paths, ids, short labels) stays; Claude Code's text (system prompt,
// tool descriptions, request snapshots, descriptions of its shipped skills and agents) is replaced
// by «redacted N chars». The record structure (types, keys, uuids, parent links) is kept, since that
// is what the parser reads. The temp root becomes {ROOT}, its sanitized form (in project keys) {ROOTKEY}.
const PAYLOAD_RECORDS = new Set(['api-request-shape', 'api-request-blob', 'api-request']);
const PAYLOAD_ATTACHMENTS = new Set(['prompt_snapshot', 'environment', 'model', 'deferred_tools_delta', 'agent_listing_delta']);
const SHORT = 100;

const r = (n: number) => `«redacted ${n} chars»`;

function redactString(s: string): string {
  if (!s.includes('MARK_GT_')) return s.length > SHORT ? r(s.length) : s;
  return s
    .split('\n')
    .map((line) => {
      if (line.includes('MARK_GT_')) return line;
      const item = /^- ([^:\n]{1,80}): (.+)$/.exec(line);
      if (item) return `- ${item[1]}: ${r(item[2]!.length)}`;
      return line.length > SHORT ? r(line.length) : line;
    })
    .join('\n');
}

function redactValue(v: unknown): unknown {
  if (typeof v === 'string') return redactString(v);
  if (Array.isArray(v)) return v.map(redactValue);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactValue(x)]));
  return v;
}

function shell(v: unknown): unknown {
  if (typeof v === 'string') return v.length > 80 ? r(v.length) : v;
  if (v && typeof v === 'object') return '«redacted»';
  return v;
}

export function redactRecord(rec: Record<string, unknown>): Record<string, unknown> {
  if (typeof rec.type === 'string' && PAYLOAD_RECORDS.has(rec.type)) return Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, shell(v)]));
  const att = rec.attachment as Record<string, unknown> | undefined;
  if (rec.type === 'attachment' && att && typeof att.type === 'string' && PAYLOAD_ATTACHMENTS.has(att.type)) {
    const out = { ...rec, attachment: Object.fromEntries(Object.entries(att).map(([k, v]) => [k, k === 'type' ? v : shell(v)])) };
    if ('rendered' in out) out.rendered = '«redacted»';
    return redactValue(out) as Record<string, unknown>;
  }
  return redactValue(rec) as Record<string, unknown>;
}

export function redactTranscript(raw: string, replace: [string, string][]): string {
  const out: string[] = [];
  for (const line of raw.split('\n')) {
    if (!line.trim()) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    if (!rec || typeof rec !== 'object') continue;
    let text = JSON.stringify(redactRecord(rec as Record<string, unknown>));
    for (const [from, to] of replace) text = text.split(from).join(to);
    out.push(text);
  }
  return out.join('\n') + '\n';
}
