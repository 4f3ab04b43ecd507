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

/** JSON text of `value` (indented as given) with no raw control character: C0 is escaped by JSON itself, DEL and C1 here */
export function jsonText(value: unknown, indent = 2, replacer?: (key: string, v: unknown) => unknown): string {
  return JSON.stringify(value, replacer, indent).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
