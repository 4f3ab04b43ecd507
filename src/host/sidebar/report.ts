// "Copy report": the sidebar as plain text (Markdown-friendly), from the same presentation model.
import type { Row, ViewState } from '../../../webview/protocol.js';

function rowLines(rows: Row[], depth: number, out: string[]): void {
  for (const r of rows) {
    const parts = [r.label];
    if (r.description) parts.push(`— ${r.description}`);
    if (r.badge) parts.push(`[${r.badge}]`);
    out.push(`${'  '.repeat(depth)}- ${r.severity ? `${r.severity}: ` : ''}${parts.join(' ')}`);
    if (r.children) rowLines(r.children, depth + 1, out);
  }
}

export function reportText(s: ViewState): string {
  const h = s.header;
  const out: string[] = [`# ${h.version} · ${h.model}`, `${h.launchDir}${h.folder ? ` (${h.folder})` : ''}`];
  if (h.versionNote) out.push(h.versionNote);
  else if (h.source) out.push(h.source);
  if (h.restricted) out.push(h.restricted);
  if (s.top) out.push('', s.top.always, ...(s.top.file ? [s.top.file] : []));
  if (s.live) out.push(`${s.live.label}${s.live.ended ? ` · ${s.live.ended}` : ''}`);
  out.push('', `## ${s.gaugesTitle}`);
  for (const g of s.gauges) out.push(`- ${g.label}: ${g.text}${g.note ? ` (${g.note})` : ''}`);
  for (const sec of s.sections) {
    out.push('', `## ${sec.title}${sec.summary ? ` · ${sec.summary}` : ''}`);
    if (sec.headline) out.push(sec.headline);
    if (sec.rows.length === 0 && sec.empty) out.push(sec.empty);
    rowLines(sec.rows, 0, out);
  }
  return `${escapeControls(out.join('\n'))}\n`;
}

/**
 * The report's one escaping function (it is pasted into terminals, issues and chats): control
 * characters from file and skill names (ESC, BEL, C1 such as U+009B) as `\xNN`; newlines stay.
 */
export function escapeControls(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
