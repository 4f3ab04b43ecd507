// Every problem the engine meets becomes one of these, attached to the file it concerns.
export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  path: string;
  /** 1-based line, when known */
  line?: number;
  severity: Severity;
  /** stable rule id, e.g. `include-outside-cwd` (see diagnostic-rules.ts) */
  rule: string;
  message: string;
  /** more for `--verbose` (the stack of a crashed check) */
  detail?: string;
}

export class DiagnosticSink {
  private readonly items: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  add(d: Diagnostic): void {
    const key = `${d.path}\0${d.line ?? ''}\0${d.rule}\0${d.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.items.push(d);
  }

  all(): Diagnostic[] {
    return this.items.slice();
  }
}

// Numbers as the messages print them. toLocaleString('en-US') gives the same text, but its first
// call in a process sets up ICU's number formatting, 20 to 30 ms of a short run such as `lint`.

/** an integer with en-US thousands separators ("12,345"), as toLocaleString('en-US') writes it */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}
