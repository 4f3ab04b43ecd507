// The session timeline's steps, per workspace folder, kept in the workspace state so they survive
// window reloads. Earlier versions stored plain paths: a plain path is a read of that file.
import { validSteps, type TimelineStep } from './session-timeline.js';
import type { MementoLike } from '../sidebar/index.js';

const KEY = 'claudeLayers.sessions';
/** a timeline is a what-if, not a transcript: the oldest steps go past this many */
const MAX_STEPS = 200;

export class SessionStore {
  private readonly steps = new Map<string, TimelineStep[]>();

  constructor(private readonly state: MementoLike) {
    const stored = state.get<unknown>(KEY);
    if (!stored || typeof stored !== 'object') return;
    for (const [k, v] of Object.entries(stored as Record<string, unknown>))
      if (Array.isArray(v)) this.steps.set(k, validSteps(v.map((x: unknown) => (typeof x === 'string' ? { kind: 'read', file: x } : x))));
  }

  get(folderKey: string): readonly TimelineStep[] {
    return this.steps.get(folderKey) ?? [];
  }

  add(folderKey: string, step: TimelineStep): void {
    this.steps.set(folderKey, [...this.get(folderKey), step].slice(-MAX_STEPS));
    this.save();
  }

  clear(folderKey: string): void {
    this.steps.delete(folderKey);
    this.save();
  }

  private save(): void {
    void this.state.update(KEY, Object.fromEntries(this.steps));
  }
}
