// What the sidebar offers the other features of the host (docs/architecture.md): the row ids the session
// timeline builds its rows with, and the figures the editor shows the same as the sidebar (MEMORY.md's cut,
// why a file is loaded, the status bar). Pure modules only: nothing here loads `vscode`.
export { idPart, RowIds } from './row-ids.js';
export type { MementoLike } from './ui-memory-store.js';
export { memoryFigures } from './memory-view.js';
export { makeCtx } from './present-context.js';
export { owningFolder } from './file-sections.js';
export { whyEager } from './startup-section.js';
export { statusFigures, type StatusInput } from './status-figures.js';
