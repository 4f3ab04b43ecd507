// Ground truth (issue 6), Node only (no vscode): shared by the CLI and the extension host.
// verify: the real `claude` against a loopback stand-in, compared with the engine's prediction.
// last session: what the user's most recent session really loaded, from its transcript.
export { verify, planVerify, runVerify, predict, compare, NotRunnable, DEFAULT_TIMEOUT_MS, type VerifyOptions, type VerifyResult, type Plan, type Prediction, type Section, type Verdict } from './verify.js';
export { lastSessionReport, type LastSessionReport, type StartupRow, type CallRow } from './last-session.js';
export { lastSession, parseTranscript, transcriptDirs, newestSession, readBounded, describeTime, type SessionReport, type LoadedInstruction, type SkillEvent, type ToolCall, type LoadTime } from './transcript.js';
export { renderPlan, renderVerify, renderLastSession, sideDocument } from './report.js';
export { childEnv, keepVariable, riskyVariable, flagSettings, removedVariables, DUMMY_API_KEY } from './child-env.js';
export { unifiedDiff, diffLines } from './diff.js';
