// A whole session after its first request: skill bodies, subagents, edits between turns, /compact, /clear.
export { simulateSession, simulateSessionOver, type SessionResult, type TurnResult, type CallResult, type ChangedNote, type UnnoticedEdit, type SkillCallResult, type AgentCallResult } from './simulate.js';
export { parseTurns, slashCommand, type SessionTurn, type SessionCall, type SessionEdit } from './turns.js';
export { agentTypes, type AgentType } from './agents.js';
export type { Restoration, RestoredFile, RestoredSkill } from './compaction.js';
export type { HookStep, HookEvent } from './hooks.js';
export { OverlayFileAccess } from './overlay.js';
export { changeSnippet } from './changed-notes.js';
