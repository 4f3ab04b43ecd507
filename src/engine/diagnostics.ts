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
