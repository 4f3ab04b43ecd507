// One escaping function per output format, so that no name or text read from a file can reach a
// terminal, a CI log or a report as a control character (ESC and CSI retitle or clear the
// reader's terminal; BEL rings; C1 U+009B is a one-character CSI on many terminals).
//   text    safe()        (style.ts)  control characters as \xNN, newline as \n, tab as \t
//   json    jsonText()                JSON.stringify, plus DEL and C1 as \u007f…\u009f (it leaves them raw)
//   sarif   jsonText()                a SARIF log is JSON
//   github  githubData()/githubProp() controls as \xNN, then the workflow-command escapes (%25 %0D %0A, and %3A %2C in properties)
export { safe } from './style.js';
import { safe } from './style.js';

/** C0 controls but tab, newline and carriage return; DEL; C1 */
const CONTROL_BUT_NEWLINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** DEL and C1, which JSON.stringify leaves raw, as `\\u007f`…`\\u009f` (jsonText, jsonWrite) */
const C1 = /[\u007f-\u009f]/g;
const c1 = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** JSON text of `value` (indented as given) with no raw control character: C0 is escaped by JSON itself, DEL and C1 here */
export function jsonText(value: unknown, indent = 2, replacer?: (key: string, v: unknown) => unknown): string {
  return JSON.stringify(value, replacer, indent).replace(C1, c1);
}
/** arrays and objects down to OBJECT_DEPTH are written entry by entry (a session's turns, a turn's keys), longer arrays
 *  below it PIECE_ENTRIES entries at a time (a turn's calls); the rest in one piece */
const PIECE_ENTRIES = 64;
const OBJECT_DEPTH = 4;
/** pieces are handed to `write` once about this many characters are gathered (below V8's large objects, which are
 *  collected with the old generation only) */
const WRITE_CHARS = 1 << 15;

/**
 * jsonText(value, indent) handed to `write` in pieces of about 32 KiB, the same characters: a large answer (a turn of a
 * million calls) is never one string, nor one buffer, in memory. Plain data only (what JSON.stringify would give for
 * it: `toJSON` is honoured, undefined and functions are left out of objects and null in arrays).
 */
export function jsonWrite(value: unknown, write: (s: string) => void, indent = 2): void {
  const unit = ' '.repeat(indent);
  let buf: string[] = [];
  let size = 0;
  const put = (s: string) => {
    buf.push(s);
    size += s.length;
    if (size >= WRITE_CHARS) flush();
  };
  const flush = () => {
    if (buf.length) write(buf.join('').replace(C1, c1));
    buf = [];
    size = 0;
  };
  const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';
  const walk = (v: unknown, key: string, pad: string): void => {
    if (v && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON: (k: string) => unknown }).toJSON(key);
    const inner = pad + unit;
    const shallow = pad.length < OBJECT_DEPTH * indent;
    if (Array.isArray(v) && v.length > 0 && indent > 0 && shallow) {
      put('[');
      v.forEach((x, i) => {
        put(`${i ? ',' : ''}\n${inner}`);
        if (skipped(x)) put('null');
        else walk(x, String(i), inner);
      });
      put(`\n${pad}]`);
      return;
    }
    if (Array.isArray(v) && v.length > PIECE_ENTRIES && indent > 0) {
      // a group of entries at once: `[\n  A,\n  B\n]` less its brackets is the entries as they stand in the array, one
      // level in; one level deeper (pad) is each of its lines indented by pad
      put('[');
      for (let i = 0; i < v.length; i += PIECE_ENTRIES) {
        const g = JSON.stringify(v.slice(i, i + PIECE_ENTRIES), null, indent);
        const body = g.slice(1, g.length - 2);
        put(`${i ? ',' : ''}${pad ? body.replace(/\n/g, `\n${pad}`) : body}`);
      }
      put(`\n${pad}]`);
      return;
    }
    if (v && typeof v === 'object' && !Array.isArray(v) && indent > 0 && shallow) {
      const keys = Object.keys(v).filter((k) => !skipped((v as Record<string, unknown>)[k]));
      if (keys.length > 0) {
        put('{');
        keys.forEach((k, i) => {
          put(`${i ? ',' : ''}\n${inner}${JSON.stringify(k)}: `);
          walk((v as Record<string, unknown>)[k], k, inner);
        });
        put(`\n${pad}}`);
        return;
      }
    }
    const s = JSON.stringify(v, null, indent);
    put(pad ? s.replace(/\n/g, `\n${pad}`) : s);
  };
  walk(value, '', '');
  flush();
}

/** the message part of a GitHub workflow command (`::error ...::DATA`) */
export function githubData(s: string): string {
  return s.replace(CONTROL_BUT_NEWLINES, hex).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** a property value of a GitHub workflow command (`file=`, `title=`) */
export function githubProp(s: string): string {
  return githubData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** a line of stderr (errors, usage errors): one line of safe text */
export function errorText(s: string): string {
  return safe(s);
}
