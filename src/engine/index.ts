// Public surface of the engine, shared by the CLI, the extension host and the tests.
export { analyze, type Analysis, type MemoryState } from './analysis.js';
export type { EngineOptions, Environment, SettingSource } from './environment.js';
export type { Diagnostic, Severity } from './diagnostics.js';
export type { FileAccess } from './files/file-access.js';
export { nodeFileAccess } from './files/file-access.js';
export * from './model.js';
export { chooseProfile, PROFILES, NEWEST_PROFILE, versionList, CHECKED_SUITES, type Checked, type CheckedSuite, type ProfileChoice, type ClaudeProfile, type ModelTable, type FixedRequestSizes } from './profiles.js';
export { modelFacts, canonicalModel, knownModels, type ModelChoice } from './skills/models.js';
export { renderStartupBlock, renderStartupSection, renderLazy } from './instructions/render.js';
export { compileMatcher, rulePatterns, splitPatterns } from './globs/globs.js';
export type { SkillsAnalysis, SkillEntry, LazySkillLayer, HiddenSkill } from './skills/index.js';
export type { MemoryIndex, MemoryLocation, MemoryLine, TopicFile } from './memory/memory.js';
export * from './session/index.js';

// What the extension host, the CLI and the ground-truth tools use beyond the analysis: they import the
// engine through this file only (eslint.config.mjs enforces it).
export { describeEntry, displayPath, lintPrepare, lintWorkspace, memoryReport, ruleInfo, severityRank, skillsView, sortDiagnostics, mcpCheck, mcpFindings, fillMessage, MCP_MESSAGES, CRAWL_BUDGET_MS, type McpDiagnostic, type McpMessageKey, type LintOptions, type LintResult, type MemoryReport, type SkillsView } from './checks/index.js';
export { locateBase } from './checks/workspace.js';
export { PREAMBLE } from './format-strings.js';
export { isInside, isStrictlyInside, resolveEnvironment } from './environment.js';
export { memoryIndex, memoryKey } from './memory/memory.js';
export type { DirEntry, FsResult, LinkInfo, StatInfo } from './files/file-access.js';
export { caseSensitive, indexedFileAccess, WorkspaceIndex, type IndexChange, type IndexedFileAccess } from './files/workspace-index.js';
export { parseFrontmatter } from './instructions/frontmatter.js';
export { decodeUtf8, LARGE_FILE_CHARS, MAX_INSTRUCTION_BYTES, processInstructionText } from './instructions/content.js';
export { compilePatterns, listMatches } from './globs/glob-count.js';
// The session the user runs, read from Claude Code's transcript (src/engine/transcript/).
export { TranscriptParser, parseTranscriptText, MAX_LINE_CHARS, type TranscriptProblem, type ParsedRecord } from './transcript/records.js';
export { TranscriptFollower, type FollowState } from './transcript/follow.js';
export { SessionReplayer, compactionRequest, layerChars, type Replay, type LiveTurn, type TurnMark, type TurnKind, type TurnAgent, type LiveCall, type LiveRequest, type LayerChars, type LiveInjected } from './transcript/replay.js';
export type { Usage, RebuiltRequest } from './transcript/requests.js';
export { LiveReader, RUNNING_MS, isRunning, lastRecordTime, splitFindings, configDir, transcriptDirs, listTranscripts, readLiveSession, readLiveSessionState, reconstructFromDisk, nextSteps, checkPrediction, predictionRun, scriptOf, type LiveSession, type LiveSessionState, type LiveSessionOptions, type NextSteps, type HeldFile, type PredictionFinding, type NotModelled, type TranscriptFile } from './transcript/session.js';
export { summarizeTranscript, type SessionSummary } from './transcript/session-summary.js';
export { sumCosts } from './transcript/pricing.js';
export { agentsByCall } from './transcript/turn-figures.js';
export { callTarget, type CallTarget } from './transcript/call-target.js';
export { groupHookRuns } from './transcript/attachment-layers.js';
export { sessionContextSplit, type SessionContextSplit, type ContextSplitRow, type ContextCategory, type LoadedTool, type SessionMcpSplit } from './transcript/context-split.js';
export { measuredHooks, hookKey, HookOutputs, type MeasuredHook } from './transcript/hook-outputs.js';
export { extract, extractStartup, findStartup, lastMainLoopBody, splitEntries, wireFormat, type Extracted, type ExtractedTouch, type WireFormat } from './transcript/wire.js';
export { extractSession, type ExtractedTurn, type ExtractedCall, type RecordedSessionRequest } from './transcript/wire-session.js';
export { alwaysLoaded, approxTokens, readAdds, type AlwaysLoaded, type ReadAdds } from './figures.js';
export { grouped } from './diagnostics.js';
export * from './mcp/config.js';
export * from './mcp/facts.js';
export * from './request/first-request.js';
export { transcriptWidthsFor, widthsFromTranscripts, type TranscriptWidths } from './request/transcript-widths.js';
export * from './mcp/transcript-facts.js';
export { DiagnosticSink } from './diagnostics.js';
// `claude-layers diff` (src/engine/diff/): two revisions of the repository compared, and the budget gate.
export { blobStore, deriveTree, gitTreeFileAccess, readTree, readTreeStreamed, readBlobs, type BlobStore, type GitInput, type GitRunner, type GitResult, type GitTree } from './files/git-tree.js';
export { runDiff, defaultBranch, BUDGET_FILE, type DiffRequest, type DiffResult, type DiffOutcome } from './diff/run.js';
export { compareRevisions, type DiffReport, type Change } from './diff/compare.js';
export { revisionFacts, type RevisionFacts, type FindingFact } from './diff/revision.js';
export { BUDGET_KEYS, checkBudgets, mergeBudgets, parseBudgetFlag, parseBudgetObject, parsePercent, describeBudgetKey, type Budgets, type BudgetKey, type BudgetViolation } from './diff/budget.js';
export { pricedAdvice, recentSessions, prefixCost, prefixCostOf, advicePrice, priceAssumption, savingText, SAVING_WORDS, sessionDays, namedPaths, money, type AdviceItem, type AdvicePrice, type ModelPrices, type Saving, type SavingWords, type SessionUse } from './diff/advice.js';
