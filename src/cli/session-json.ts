// `render … --session TURNS.json --json`: the `session` key of the contract (docs/cli.md), one entry
// per turn of TURNS.json, in order. What the model writes (its text, the summary), session and agent
// ids, the transcript path and dates are not predicted and not part of it.
import { hookKey, simulateSession, type EngineOptions, type MeasuredHook, type SessionResult } from '../engine/index.js';
import { UsageError } from './args.js';
import { readFlagFile } from './engine-options.js';

export interface SessionJson {
  turns: {
    prompt: string;
    instructions: string | null;
    changedNotes: string | null;
    restored: { files: { path: string; text: string }[]; references: string[]; skills: string | null } | null;
    calls: {
      name: string;
      input: Record<string, unknown>;
      injected: { path: string; text: string }[];
      skillBody: string | null;
      skillNote: string | null;
      agent: { type: string; instructions: string | null } | null;
      error: string | null;
      unknownCommands: string[];
    }[];
    restart: 'continue' | 'resume' | null;
    resumeReminder: string | null;
    autoCompactions: { at: number; restored: { files: { path: string; text: string }[]; references: string[]; skills: string | null } }[];
    stopped: string | null;
    unnoticed: { path: string; why: string }[];
    /** `output`: the size of what the hook printed when a session last ran it (from that session's transcript), or null: never run */
    hooks: { event: string; command: string; file: string; output: { chars: number; transcript: string; at: string | null } | null }[];
  }[];
  agents: { name: string; source: string; instructions: boolean; path: string | null }[];
}

export function readSessionScript(file: string): unknown {
  const text = readFlagFile('--session', file);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new UsageError(`--session ${file}: not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
}

export function sessionJson(result: SessionResult, measured: Map<string, MeasuredHook> = new Map()): SessionJson {
  return {
    turns: result.turns.map((t) => ({
      prompt: t.prompt,
      instructions: t.instructions,
      changedNotes: t.changedNotes,
      restored: t.restored && { files: t.restored.files, references: t.restored.references, skills: t.restored.skills },
      calls: t.calls.map((c) => ({
        name: c.name,
        input: c.input,
        injected: c.injected.map((i) => ({ path: i.path, text: i.text })),
        skillBody: c.skillBody,
        skillNote: c.skillNote,
        agent: c.agent && { type: c.agent.type, instructions: c.agent.instructions },
        error: c.error ?? null,
        unknownCommands: c.skill?.unknownCommands ?? [],
      })),
      restart: t.restart,
      resumeReminder: t.resumeReminder,
      autoCompactions: t.autoCompactions.map((a) => ({ at: a.at, restored: { files: a.restored.files, references: a.restored.references, skills: a.restored.skills } })),
      stopped: t.stopped,
      unnoticed: t.unnoticed,
      hooks: [...t.hooks, ...t.calls.flatMap((c) => c.hooks)].map((h) => {
        const m = measured.get(hookKey(h.event, h.command));
        return { event: h.event, command: h.command, file: h.file, output: m ? { chars: m.chars, transcript: m.transcript, at: m.at ?? null } : null };
      }),
    })),
    agents: result.agents.map((a) => ({ name: a.name, source: a.source, instructions: a.getsInstructions, path: a.path ?? null })),
  };
}

export function simulateFromFile(options: EngineOptions, file: string): SessionResult {
  return simulateSession(options, readSessionScript(file));
}
