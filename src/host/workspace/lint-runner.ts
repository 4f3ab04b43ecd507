// The workspace lint (the CLI's `lint`: names, ignored keys, dead globs, memory budget, secrets),
// run after the analyses settle, never on an editor switch. A newer run makes an older one's result
// moot; each folder's findings are kept with the analysis they were computed from.
import { lintWorkspace, type Analysis, type Diagnostic } from '../../engine/index.js';

export class LintRunner {
  private readonly results = new Map<string, { analysis: Analysis; diagnostics: readonly Diagnostic[] }>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;

  constructor(
    /** the folders and their current analyses */
    private readonly analyses: () => Array<[key: string, analysis: Analysis | undefined]>,
    /** after a run: publish, redraw */
    private readonly done: () => void,
    private readonly log: (m: string) => void,
    private readonly delayMs = 800,
  ) {}

  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, this.delayMs);
  }

  /** the lint of a folder, if it was computed from this analysis */
  diagnosticsFor(key: string, a: Analysis): readonly Diagnostic[] | undefined {
    const r = this.results.get(key);
    return r?.analysis === a ? r.diagnostics : undefined;
  }

  async run(): Promise<void> {
    const generation = ++this.generation;
    for (const [key, a] of this.analyses()) {
      if (!a) continue;
      try {
        const r = await lintWorkspace(a, { secrets: true });
        if (generation !== this.generation) return; // a newer analysis started its own run
        this.results.set(key, { analysis: a, diagnostics: r.diagnostics });
      } catch (e) {
        this.log(`lint failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.done();
  }

  dispose(): void {
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
  }
}
