// Comparison of the engine's skills listing and memory entry with what the binary sent.
// The listing is compared byte for byte, except the descriptions of skills shipped in the binary,
// which the engine renders as placeholders: there only the entry's name and place are compared (and
// its measured width, separately, so that the profile's figures cannot drift unnoticed).
import { firstDiff } from '../compare.js';
import type { EngineSkills } from './run.js';

const HEADER = 'The following skills are available for use with the Skill tool:\n\n';

/** '' when equal; otherwise what differs. */
export function compareListing(claude: string | null, engine: EngineSkills | null): string {
  if (claude === null && engine === null) return '';
  if (claude === null) return `claude sent no skills listing; the engine has ${JSON.stringify(engine!.text.slice(0, 300))}`;
  if (engine === null) return `the engine has no skills listing; claude sent ${JSON.stringify(claude.slice(0, 300))}`;
  const placeholders = engine.entries.some((e) => e.bundled && !e.demoted && e.text.includes(': '));
  if (!placeholders) return claude === engine.text ? '' : 'listing differs:\n' + firstDiff(claude, engine.text, 'listing');
  if (!claude.startsWith(HEADER)) return `claude's listing does not start with the header: ${JSON.stringify(claude.slice(0, 100))}`;
  let pos = HEADER.length;
  const es = engine.entries;
  for (let i = 0; i < es.length; i++) {
    const e = es[i]!;
    const placeholder = e.bundled && !e.demoted && e.text.startsWith(`- ${e.name}: `) && e.text.length > 0;
    let end: number;
    if (placeholder) {
      const head = e.text.slice(0, e.text.indexOf(': ') + 2);
      if (!claude.startsWith(head, pos)) return `entry ${i} (${e.name}): claude has ${JSON.stringify(claude.slice(pos, pos + 80))}, expected a full shipped entry ${JSON.stringify(head)}`;
      const next = es[i + 1];
      if (!next) end = claude.length;
      else {
        const nextHead = next.bundled && !next.demoted ? next.text.slice(0, next.text.indexOf(': ') + 2) : next.text;
        const k = claude.indexOf(`\n${nextHead}`, pos + head.length);
        if (k < 0) return `entry ${i} (${e.name}): the next entry ${JSON.stringify(nextHead.slice(0, 80))} is not found after it in claude's listing`;
        end = k;
      }
    } else {
      if (!claude.startsWith(e.text, pos)) {
        const lineEnd = claude.indexOf('\n- ', pos);
        const got = claude.slice(pos, lineEnd < 0 ? undefined : lineEnd);
        return `entry ${i} (${e.name}${e.demoted ? ', demoted' : ''}) differs:\n` + firstDiff(got, e.text, `entry ${e.name}`);
      }
      end = pos + e.text.length;
    }
    if (i < es.length - 1) {
      if (claude[end] !== '\n') return `entry ${i} (${e.name}): claude's entry goes on: ${JSON.stringify(claude.slice(end, end + 80))}`;
      pos = end + 1;
    } else if (end !== claude.length) return `claude's listing has more after the engine's last entry (${e.name}): ${JSON.stringify(claude.slice(end, end + 120))}`;
    else pos = end;
  }
  return '';
}

/** Shipped entries as claude sent them (full), keyed by name, for the width check. */
export function shippedEntries(claude: string, engine: EngineSkills): Map<string, string> {
  const out = new Map<string, string>();
  const es = engine.entries;
  let pos = HEADER.length;
  for (let i = 0; i < es.length; i++) {
    const e = es[i]!;
    const next = es[i + 1];
    const nextHead = next ? (next.bundled && !next.demoted ? next.text.slice(0, next.text.indexOf(': ') + 2) : next.text) : undefined;
    const end = nextHead === undefined ? claude.length : claude.indexOf(`\n${nextHead}`, pos);
    if (end < 0) return out;
    if (e.bundled && !e.demoted) out.set(e.name, claude.slice(pos, end));
    pos = end + 1;
  }
  return out;
}
