// From an engine Analysis (and the active file) to the sidebar's presentation model: every text
// localized and every number formatted here, so that the webview only draws. Pure: no vscode, no
// disk (the Analysis answers from its cache).
// Each section is built in a module of its own (header.ts, gauges.ts, startup-section.ts,
// file-sections.ts, session-section.ts) over the shared context (present-context.ts).
import { decodeUtf8, MAX_INSTRUCTION_BYTES, renderStartupBlock, skillsView, type Analysis, type Diagnostic } from '../../engine/index.js';
import type { LiveHeadline, ViewState } from '../../../webview/protocol.js';
import type { Translate } from '../format.js';
import type { TimelineStep } from '../session/index.js';
import { activeSection, elsewhereSection, notLoadedSection } from './file-sections.js';
import { gauges, startupFigures, type McpFactsByServer } from './gauges.js';
import { topAnswer, viewHeader, type VersionInfo } from './header.js';
import { makeCtx } from './present-context.js';
import { sessionSection } from './session-section.js';
import { startupSection } from './startup-section.js';

export interface PresentInput {
  analysis: Analysis;
  folderName?: string;
  activeFile?: string;
  version: VersionInfo;
  model: string;
  trusted: boolean;
  /** instruction files strictly below the launch directory, found in the workspace */
  nestedFiles?: readonly string[];
  /** the steps of the session timeline, in order */
  sessionSteps?: readonly TimelineStep[];
  /** files with unsaved changes in an editor: Claude Code reads the saved text, the rows say so */
  dirtyFiles?: ReadonlySet<string>;
  /** diagnostics to list under "Not loaded" (the workspace lint's, when it has run); else the analysis' own */
  diagnostics?: readonly Diagnostic[];
  t: Translate;
  locale: string;
  today: string;
  /** the live session's headline, when a Claude Code session runs in the workspace (the live-session view fills it) */
  live?: LiveHeadline;
  /** what each hook (hookKey) printed when a session of this launch directory last ran it (its transcript) */
  hookOutputs?: ReadonlyMap<string, { chars: number }>;
  /** the MCP servers' own answers, when the user measured them (Measure MCP Servers) */
  mcpFacts?: McpFactsByServer;
}

export function present(input: PresentInput): ViewState {
  const { analysis: a, t } = input;
  const c = makeCtx(a, input.model, t, input.locale, input.dirtyFiles);
  const block = renderStartupBlock(a.profile, a.startup, input.today) ?? '';
  const skills = skillsView(a);

  const fig = startupFigures(a, block);
  const startup = startupSection(c, fig, skills);
  const { section: active, injected } = activeSection(c, input.activeFile);
  const elsewhere = elsewhereSection(c, input.activeFile, injected, input.nestedFiles ?? []);
  const notLoaded = notLoadedSection(c, input.diagnostics ?? a.diagnostics);
  // the saved text of a file, through the analysis' own file access (no new disk read on an editor switch)
  const saved = (file: string) => {
    const r = a.env.fs.readFile(file, MAX_INSTRUCTION_BYTES);
    return r.ok ? decodeUtf8(r.value) : undefined;
  };
  const session = sessionSection(c, input.sessionSteps ?? [], saved, fig, input.hookOutputs);
  return {
    header: viewHeader(c, input),
    top: topAnswer(c, fig, input.activeFile),
    ...(input.live ? { live: input.live } : {}),
    gaugesTitle: t('Gauges'),
    gaugesHelp: t('Budgets and limits. Each gauge says in its last line what it counts and how that differs from the rows above: MEMORY.md is measured before its cut, the skills listing as Claude Code measures its budget, the largest file without its "Contents of" line.'),
    helpLabel: t('About {0}'),
    gauges: gauges(c, fig, skills, input.mcpFacts),
    // the open file first, then the session it starts, then what is always there
    sections: [active, session, startup, notLoaded, elsewhere],
  };
}
