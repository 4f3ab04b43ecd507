// Following the Claude Code session that runs in the launch directory (a terminal's or Anthropic's own
// extension's: both write the same transcript folder), without VS Code in it so that a test drives it
// on a fake clock. Each tick stats the followed transcript only (one stat a second; no folder is
// watched); every LIST_EVERY ticks it lists the launch directory's transcript folder for a newer
// session, and the session's subagents' and workflow agents' files (they write while the session's own
// file may rest: a workflow runs in the background). A grown transcript is read from where the last read ended (TranscriptFollower) and the
// session rebuilt; what comes next and the prediction (a simulation of the whole session) are
// recomputed only when the turns or the analysis changed, and then not at once: an append is shown as
// soon as it is read (the reader's part costs about a millisecond at any size), with what comes next
// and the prediction of the read before (`pending`), and those are computed again once the transcript
// rests (DERIVE_QUIET_MS) or at the latest DERIVE_MAX_MS after the first change (measured on a
// 1,500-line session: 200 to 550 ms per append when each ran the session model again). Where the host
// can watch the followed file (one file, never a folder), a change is read within WATCH_DELAY_MS
// instead of at the next tick.
import * as fs from 'node:fs';
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
/** what comes next and the prediction are computed again once the transcript rested this long… */
export const DERIVE_QUIET_MS = 800;
/** …or at the latest this long after the first change they missed */
export const DERIVE_MAX_MS = 4000;
/** a change the watcher reported is read this long after it (writes come in bursts) */
export const WATCH_DELAY_MS = 15;

/** watches one file (node's fs.watch, never a folder); undefined when it cannot */
export function watchFile(file: string, changed: () => void): { dispose(): void } | undefined {
  try {
    const w = fs.watch(file, { persistent: false }, () => changed());
    w.on('error', () => w.close());
    return { dispose: () => w.close() };
  } catch {
    return undefined;
  }
}

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
  /** `next` (but its context) and `findings` are those of an earlier read: computed again shortly */
  pending?: boolean;
}

export interface TrackerHost {
  /** the launch directory, HOME and environment of the folder the sidebar shows */
  where(): { cwd: string; home: string; env: Record<string, string | undefined> } | undefined;
  /** its current analysis (for what comes next and the prediction), if any */
  analysis(): Analysis | undefined;
  changed(model: LiveModel | undefined): void;
  log(message: string): void;
  now?(): number;
  /** watches the followed transcript (one file): a change is read at once instead of at the next tick */
  watch?(file: string, changed: () => void): { dispose(): void } | undefined;
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
  /** refresh() asked for what comes next and the prediction again, or the analysis they were computed with is not the current one */
  private stale = false;
  /** the analysis the model was read with */
  private usedAnalysis: Analysis | undefined;
  private deriveTimer: ReturnType<typeof setTimeout> | undefined;
  /** when the first change that what comes next and the prediction missed was read */
  private pendingSince: number | undefined;
  /** this step computes what comes next and the prediction (the timer's step) */
  private deriveNow = false;
  private watcher: { file: string; handle: { dispose(): void } | undefined } | undefined;
  private watchTimer: ReturnType<typeof setTimeout> | undefined;

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
    if (this.deriveTimer) clearTimeout(this.deriveTimer);
    this.deriveTimer = undefined;
    if (this.watchTimer) clearTimeout(this.watchTimer);
    this.watchTimer = undefined;
    this.watcher?.handle?.dispose();
    this.watcher = undefined;
  }

  /** what comes next and the prediction: computed again once the transcript rests, or at the latest
   *  DERIVE_MAX_MS after the first change they missed */
  private scheduleDerive(): void {
    const now = this.now();
    this.pendingSince ??= now;
    if (this.deriveTimer) clearTimeout(this.deriveTimer);
    const wait = Math.max(0, Math.min(DERIVE_QUIET_MS, this.pendingSince + DERIVE_MAX_MS - now));
    this.deriveTimer = setTimeout(() => {
      this.deriveTimer = undefined;
      this.deriveNow = true;
      try {
        this.tick(true);
      } finally {
        this.deriveNow = false;
      }
    }, wait);
  }

  private follow(file: string): void {
    if (this.watcher?.file === file || !this.host.watch) return;
    this.watcher?.handle?.dispose();
    this.watcher = {
      file,
      handle: this.host.watch(file, () => {
        if (this.watchTimer || !this.timer) return;
        this.watchTimer = setTimeout(() => {
          this.watchTimer = undefined;
          this.tick();
        }, WATCH_DELAY_MS);
      }),
    };
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
    const listing = force || this.ticks++ % LIST_EVERY === 0 || !this.follower;
    if (listing) {
      const dirs = transcriptDirs(this.fa, where.cwd, configDir(where.home, where.env));
      this.list = listTranscripts(this.fa, dirs);
    }
    const file = this.pinned ?? this.list[0]?.file;
    if (!file) return this.set(undefined);
    if (!this.follower || this.follower.file !== file) {
      this.follower = new LiveReader(this.fa, file);
      this.lastSize = -1;
    }
    this.follow(file);
    const st = this.fa.stat(file);
    const size = st.ok ? st.value.size : -2;
    const mtime = st.ok ? st.value.mtimeMs : -2;
    const running = st.ok && this.now() - mtime < RUNNING_MS;
    // the folder's analysis moved on (an instruction file or a setting changed: a refresh makes a new one): what comes
    // next and the prediction are computed again, though the transcript rests
    const a = this.host.analysis();
    if (this.model && a !== this.usedAnalysis) this.stale = true;
    // unchanged, unless (looked at with the listing) a subagent or workflow agent wrote while the session's file rested
    if (!force && !this.stale && size === this.lastSize && mtime === this.lastMtime && this.model && this.model.running === running && !(listing && this.follower.agentsChanged())) return;
    this.lastSize = size;
    this.lastMtime = mtime;
    this.usedAnalysis = a;
    // what comes next and the prediction: computed again only when the turns, their calls or the analysis changed
    const previous = this.model?.file === file && !this.stale ? this.model.state : undefined;
    const state = readLiveSessionState(this.fa, file, {
      profile: (v) => chooseProfile(v ?? a?.profile.version).profile,
      analysis: () => a,
      cwd: where.cwd,
      reader: this.follower,
      previous,
      deferDerived: !!previous && !this.deriveNow,
    });
    this.stale = false;
    if (state.pending) this.scheduleDerive();
    else {
      this.pendingSince = undefined;
      if (this.deriveTimer) clearTimeout(this.deriveTimer);
      this.deriveTimer = undefined;
    }
    const { live: session, next, findings } = state;
    this.set({ file, running, lastWritten: mtime, pinned: !!this.pinned, session, next: next ?? undefined, findings, others: this.list, state, ...(state.pending && { pending: true }) });
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
