// A stand-in for @secretlint/profiler, aliased in by the bundles (esbuild.config.mjs): secretlint's
// profiler records every performance mark and, for each, searches the marks recorded so far (a
// linear `find`), which makes a scan of many texts quadratic. This one records nothing.
export class SecretLintProfiler {
  mark(_marker: unknown): void {
    /* nothing to record */
  }
  getEntries(): Promise<never[]> {
    return Promise.resolve([]);
  }
  getMeasures(): Promise<never[]> {
    return Promise.resolve([]);
  }
}

export const secretLintProfiler = new SecretLintProfiler();
