// What the session feature offers the other features of the host (docs/architecture.md): the predicted
// timeline, which the sidebar shows as its Session timeline section. Pure modules only: nothing here loads `vscode`.
export { agentRows, buildTimeline, type TimelineStep } from './session-timeline.js';
