// The status bar item's figures: what a Read of the active file injects and the startup share of the
// context window, from the sidebar's own top answer (one source for both).
import * as path from 'node:path';
import { renderStartupBlock } from '../../engine/index.js';
import { requestSplit, splitLine, startupFigures } from './gauges.js';
import { topAnswer } from './header.js';
import { inWorkingDirs, makeCtx } from './present-context.js';
import type { PresentInput } from './present.js';

/** The status bar item: what a Read of the active file injects, and the startup instructions' tokens. */
export interface StatusFigures {
  text: string;
  tooltip: string;
  aria: string;
}

/** what the status bar item is built from: the sidebar's input, less what only the sidebar shows */
export type StatusInput = Pick<PresentInput, 'analysis' | 'activeFile' | 'model' | 't' | 'locale' | 'today' | 'mcpFacts' | 'live'>;

export function statusFigures(input: StatusInput): StatusFigures {
  const { analysis: a, t } = input;
  const c = makeCtx(a, input.model, t, input.locale);
  const { f } = c;
  const block = renderStartupBlock(a.profile, a.startup, input.today) ?? '';
  const fig = startupFigures(a, block);
  const tok = f.tokens(fig.total);
  const win = { tokens: a.model.contextWindow };
  const share = win.tokens ? (tok / win.tokens) * 100 : 0;
  // the sidebar's own two top lines, and the share of the context window they are
  const top = topAnswer(c, fig, input.activeFile);
  const startup = t('{0}: {1}% of the {2}-token context window', top.always, share < 10 ? share.toFixed(1) : Math.round(share), f.num(win.tokens));
  // the whole first request as the sidebar's gauge splits it, and the session followed in This Session (its cost)
  const rs = requestSplit(c, fig, input.mcpFacts);
  const whole = t('Whole first request ≈{0} tokens: {1}', f.num(rs.totalTok), splitLine(c, rs));
  const file = input.activeFile;
  let read = '';
  if (file) {
    if (a.startup.some((e) => path.normalize(e.path) === path.normalize(file))) read = t('always loaded');
    else if (inWorkingDirs(a, file)) {
      const inj = a.lazyFor(file, 'Read');
      read = inj.length === 1 ? t('+1 file') : t('+{0} files', inj.length);
    } else read = t('+{0} files', 0);
  }
  const tokText = t('{0} tok', f.compact(tok));
  return {
    text: `$(layers) ${read ? `${read} · ` : ''}${tokText}`,
    tooltip: [top.file, startup, whole, ...rs.servers, input.live?.label, t('Click to show the Claude Context Layers sidebar')].filter(Boolean).join('\n'),
    aria: [top.file, startup].filter(Boolean).join('; '),
  };
}
