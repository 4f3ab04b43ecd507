// Public surface of the engine, shared by the CLI, the extension host and the tests.
export { analyze, type Analysis, type MemoryState } from './analysis.js';
export type { EngineOptions, Environment, SettingSource } from './environment.js';
export type { Diagnostic, Severity } from './diagnostics.js';
export type { FileAccess } from './file-access.js';
export { nodeFileAccess } from './file-access.js';
export * from './model.js';
export { chooseProfile, PROFILES, NEWEST_PROFILE, versionList, type ProfileChoice, type ClaudeProfile, type ModelTable, type FixedRequestSizes } from './profiles.js';
export { modelFacts, canonicalModel, knownModels, type ModelChoice } from './skills/models.js';
export { renderStartupBlock, renderStartupSection, renderLazy } from './render.js';
export { compileMatcher, rulePatterns, splitPatterns } from './globs.js';
export type { SkillsAnalysis, SkillEntry, LazySkillLayer, HiddenSkill } from './skills/index.js';
export type { MemoryIndex, MemoryLocation, MemoryLine, TopicFile } from './memory.js';
export * from './session/index.js';
