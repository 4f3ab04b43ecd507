// Following the Claude Code session that runs in the launch directory (a terminal's or Anthropic's own
// extension's: both write the same transcript folder), without VS Code in it so that a test drives it
// on a fake clock. Each tick stats the followed transcript only (one stat a second; no folder is
// watched); every LIST_EVERY ticks it lists the launch directory's transcript folder for a newer
// session. A grown transcript is read from where the last read ended (TranscriptFollower) and the
// session rebuilt; what comes next and the prediction (a simulation of the whole session) are
// recomputed only when the turns or the analysis changed.
import {
  chooseProfile,
  configDir,
  listTranscripts,
  nodeFileAccess,
  readLiveSessionState,
  RUNNING_MS,
  transcriptDirs,
  LiveReader,
  type Analysis,
  type FileAccess,
  type LiveSession,
  type LiveSessionState,
  type NextSteps,
  type PredictionFinding,
  type TranscriptFile,
} from '../../engine/index.js';

export const TICK_MS = 1000;
const LIST_EVERY = 5;

export interface LiveModel {
  file: string;
  running: boolean;
  /** when the transcript was last written (ms) */
  lastWritten: number;
  /** the user chose this session (else: the newest) */
  pinned: boolean;
  session: LiveSession;
  next: NextSteps | undefined;
  findings: PredictionFinding[];
  /** the other sessions of this launch directory, newest first */
  others: TranscriptFile[];
  /** the engine's state of this read (the next read over the same turns reuses what it derived) */
  state: LiveSessionState;
}

export interface TrackerHost {
  /** the launch directory, HOME and environment of the folder the sidebar shows */
  where(): { cwd: string; home: string; env: Record<string, string | undefined> } | undefined;
  /** its current analysis (for what comes next and the prediction), if any */
  analysis(): Analysis | undefined;
  changed(model: LiveModel | undefined): void;
  log(message: string): void;
  now?(): number;
}

export class LiveSessionTracker {
  private timer: ReturnType<typeof setInterval> | undefined;
  private follower: LiveReader | undefined;
  private model: LiveModel | undefined;
  private ticks = 0;
  private pinned: string | undefined;
  private list: TranscriptFile[] = [];
  private lastSize = -1;
  private lastMtime = -1;
  /** refresh() asked for what comes next and the prediction again */
  private stale = false;

  constructor(
    private readonly host: TrackerHost,
    private readonly fa: FileAccess = nodeFileAccess,
  ) {}

  get current(): LiveModel | undefined {
    return this.model;
  }

  get sessions(): TranscriptFile[] {
    return this.list;
  }

  start(): void {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** follow this transcript (undefined: the newest again) */
  pin(file: string | undefined): void {
    this.pinned = file;
    this.follower = undefined;
    this.lastSize = -1;
    this.tick(true);
  }

  /** the folder or its analysis changed: list again and recompute what comes next */
  refresh(): void {
    this.stale = true;
    this.ticks = 0;
    this.tick(true);
  }

  private now(): number {
    return this.host.now?.() ?? Date.now();
  }

  tick(force = false): void {
    try {
      this.step(force);
    } catch (e) {
      this.host.log(`live session: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private step(force: boolean): void {
    const where = this.host.where();
    if (!where) return this.set(undefined);
    if (force || this.ticks++ % LIST_EVERY === 0 || !this.follower) {
      const dirs = transcriptDirs(this.fa, where.cwd, configDir(where.home, where.env));
      this.list = listTranscripts(this.fa, dirs);
    }
    const file = this.pinned ?? this.list[0]?.file;
    if (!file) return this.set(undefined);
    if (!this.follower || this.follower.file !== file) {
      this.follower = new LiveReader(this.fa, file);
      this.lastSize = -1;
    }
    const st = this.fa.stat(file);
    const size = st.ok ? st.value.size : -2;
    const mtime = st.ok ? st.value.mtimeMs : -2;
    const running = st.ok && this.now() - mtime < RUNNING_MS;
    if (!force && size === this.lastSize && mtime === this.lastMtime && this.model && this.model.running === running) return;
    this.lastSize = size;
    this.lastMtime = mtime;
    const a = this.host.analysis();
    // what comes next and the prediction: computed again only when the turns, their calls or the analysis changed
    const state = readLiveSessionState(this.fa, file, {
      profile: (v) => chooseProfile(v ?? a?.profile.version).profile,
      analysis: () => a,
      cwd: where.cwd,
      reader: this.follower,
      previous: this.model?.file === file && !this.stale ? this.model.state : undefined,
    });
    this.stale = false;
    const { live: session, next, findings } = state;
    this.set({ file, running, lastWritten: mtime, pinned: !!this.pinned, session, next: next ?? undefined, findings, others: this.list, state });
  }

  private set(m: LiveModel | undefined): void {
    if (!m && !this.model) return;
    this.model = m;
    this.host.changed(m);
  }

  dispose(): void {
    this.stop();
  }
}
