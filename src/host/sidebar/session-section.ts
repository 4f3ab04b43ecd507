// The Session timeline section: the user's steps played over the analysis (session/), what each adds,
// the total against the context window, and what each subagent type gets in its first request.
import type { LazyInjection } from '../../engine/index.js';
import type { Row, Section } from '../../../webview/protocol.js';
import { agentRows, buildTimeline, type TimelineStep } from '../session/index.js';
import type { StartupFigures } from './gauges.js';
import { lazyRows } from './lazy-rows.js';
import type { Ctx } from './present-context.js';

export function sessionSection(c: Ctx, steps: readonly TimelineStep[], read: (file: string) => string | undefined, fig: StartupFigures, hookOutputs?: ReadonlyMap<string, { chars: number }>): Section {
  const { t, f, a, rel } = c;
  const win = { tokens: a.model.contextWindow };
  const format = {
    t, num: (n: number) => f.num(n), tokens: (n: number) => f.tokens(n), rel, window: win.tokens,
    injectionRows: (id: string, inj: LazyInjection[]) => lazyRows(c, id, inj),
    // the timeline starts from the Startup section's own figure: the CLAUDE.md block and the skills listing
    startupChars: fig.total,
    listingChars: fig.skills,
    hookOutputs,
  };
  const tl = buildTimeline(a, steps, format, read);
  const agents = agentRows(tl.result, a.startupText?.length ?? 0, format);
  const rows: Row[] = [...tl.rows];
  if (agents.length)
    rows.push({
      id: 'session/agents',
      label: t('Subagents'),
      description: t('what each agent type gets in its first request'),
      badge: f.num(agents.length),
      aria: t('Subagents: what each agent type gets in its first request, {0} types', agents.length),
      children: agents,
      open: false,
    });
  const share = win.tokens ? Math.round((tl.total / win.tokens) * 1000) / 10 : 0;
  const startTok = f.tokens(fig.total);
  // what the timeline is for, in one sentence, until it has a step (the Subagents row is there from the start)
  const purpose = t('Play a task step by step (a read, a skill, a subagent, your edit, /compact) to see what each step adds to the context and what the model still holds.');
  return {
    id: 'session',
    title: t('Session what-if (simulated)'),
    summary: steps.length ? t('≈{0} tokens · {1}%', f.num(tl.total), share) : undefined,
    headline: steps.length
      ? steps.length === 1
        ? t('After 1 step the conversation holds ≈{0} tokens of your instructions, notes and skill bodies ({1}% of {2}; Claude Code\'s system prompt and tools not counted). It started from the Startup figure, ≈{3}.', f.num(tl.total), share, f.num(win.tokens), f.num(startTok))
        : t('After {0} steps the conversation holds ≈{1} tokens of your instructions, notes and skill bodies ({2}% of {3}; Claude Code\'s system prompt and tools not counted). It started from the Startup figure, ≈{4}.', steps.length, f.num(tl.total), share, f.num(win.tokens), f.num(startTok))
      : purpose,
    rows,
    open: true,
    empty: purpose,
    help: t('A what-if: nothing here comes from a real session (the This Session (live) view follows the one you run). Each step is simulated with the measured rules of Claude Code {0}: a file is injected once per session; an edited rule or nested CLAUDE.md the session loaded gets one "changed on disk" note at the next turn, a startup file is not seen until /compact or /clear; /compact brings back the five most recently modified files and the skills used. Numbers are the characters Claude Code adds; ≈tokens = chars ÷ {1}.', a.profile.version, f.ratio),
    actions: [
      { command: 'sessionAddActive', label: t('Add a read of the open file') },
      { command: 'sessionAddStep', label: t('Add a step…') },
      ...(steps.length ? [{ command: 'sessionClear' as const, label: t('Clear') }] : []),
    ],
  };
}
