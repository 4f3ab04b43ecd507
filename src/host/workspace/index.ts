// What the workspace feature offers the other features of the host (docs/architecture.md): the workspace
// index's type, for the editor's hovers. Types only: loading this file loads nothing.
export type { WorkspaceIndex } from './workspace-index.js';
