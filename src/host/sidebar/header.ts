// The view's header (the Claude Code version and where it came from, the model, the launch
// directory) and its top answer (what is always loaded, what reading the open file adds).
import * as path from 'node:path';
import { readAdds } from '../../engine/index.js';
import type { Header, LiveHeadline, TopAnswer } from '../../../webview/protocol.js';
import type { Translate } from '../format.js';
import type { StartupFigures } from './gauges.js';
import { inWorkingDirs, type Ctx } from './present-context.js';

export interface VersionInfo {
  /** the version asked for (setting or detection), if any */
  requested?: string;
  source: 'setting' | 'detected' | 'newest';
  /** for 'newest': why no version was detected (undefined while the detection runs) */
  why?: 'untrusted' | 'not-found' | 'not-absolute' | 'failed';
  /** the executable that failed, and how */
  executable?: string;
  error?: string;
}

/** where the version came from, for the "Change…" picker and the header's tooltip */
export function versionSource(t: Translate, v: VersionInfo): string {
  const newestWhy: Record<NonNullable<VersionInfo['why']>, string> = {
    untrusted: t('newest known profile: the workspace is not trusted, so claude --version is not run (set claudeLayers.claudeVersion to choose)'),
    'not-found': t('newest known profile: claude is not on PATH and claudeLayers.claudePath is not set'),
    'not-absolute': t('newest known profile: claudeLayers.claudePath must be an absolute path'),
    failed: t('newest known profile: {0} --version failed: {1}', v.executable ?? 'claude', v.error ?? ''),
  };
  const sourceNote: Record<VersionInfo['source'], string> = {
    setting: t('from the setting claudeLayers.claudeVersion'),
    detected: t('detected with claude --version'),
    newest: v.why ? newestWhy[v.why] : t('newest known profile (detecting the installed version…)'),
  };
  return sourceNote[v.source];
}

/** the view's first two lines: what is always loaded, and what reading the active file adds */
export function topAnswer(c: Ctx, fig: StartupFigures, file: string | undefined): TopAnswer {
  const { t, f, a } = c;
  const alwaysTok = f.tokens(fig.total);
  const always = fig.skills
    ? t('Always loaded: ≈{0} tokens ({1} files and the skills listing)', f.num(alwaysTok), a.startup.length)
    : t('Always loaded: ≈{0} tokens ({1} files)', f.num(alwaysTok), a.startup.length);
  if (!file) return { always, aria: always };
  const name = path.basename(file);
  let line: string;
  if (a.startup.some((e) => path.normalize(e.path) === path.normalize(file))) line = t('{0} is always loaded: reading it adds nothing', name);
  else if (!inWorkingDirs(a, file)) line = t('{0} is outside the launch directory: reading it adds nothing', name);
  else {
    const r = readAdds(a, file);
    const what = [...r.injected.map((i) => path.basename(i.path)), ...a.skills.lazyFor(file).flatMap((l) => l.names)];
    line = r.chars === 0 ? t('Reading {0} adds nothing', name) : t('Reading {0} adds +{1} tokens: {2}', name, f.num(f.tokens(r.chars)), what.join(', '));
  }
  return { always, file: line, aria: `${always}; ${line}` };
}

export function viewHeader(c: Ctx, input: { version: VersionInfo; trusted: boolean; model: string; folderName?: string; live?: LiveHeadline }): Header {
  const { a, t } = c;
  const fb = a.version.fallback;
  const fallbackNote: Record<NonNullable<typeof fb>['why'], (f: NonNullable<typeof fb>) => string> = {
    'not-a-version': (f) => t('"{0}" is not a Claude Code version; using {1}\'s profile', f.requested, f.using),
    newer: (f) => t('{0}: no profile yet; using {1}\'s; `claude-layers verify` checks it against the installed claude', f.requested, f.using),
    older: (f) => t('{0}: no profile (older than every profile); using {1}\'s; `claude-layers verify` checks it against the installed claude', f.requested, f.using),
  };
  // shown: only what needs the user (another profile is used, claude not found); where the version came
  // from and the launch folder are behind "Change…"
  const versionNote = fb ? fallbackNote[fb.why](fb) : a.version.note;
  const v = input.version;
  const source = versionSource(t, v);
  const versionAction = v.source === 'newest' && v.why && v.why !== 'untrusted' ? { command: 'setClaudePath' as const, label: t('Set the path to claude…') } : undefined;
  // while a session is followed (This Session), the header names what that session runs: the first
  // line a newcomer reads must not contradict the session; the installed or assumed version, which the
  // predictions use, moves to the note and the tooltip
  const live = input.live && !input.live.ended && (input.live.version || input.live.model) ? input.live : undefined;
  const followed = live
    ? {
        version: t('Claude Code {0}', live.version ?? a.version.shown),
        model: live.model ?? input.model,
        note: live.version && live.version !== a.version.shown ? t('as the followed session runs it; predictions use the profile of {0}', a.version.shown) : undefined,
        source: t('The session followed in This Session runs Claude Code {0} on {1}. Predictions use the profile of {2} ({3}).', live.version ?? '?', live.model ?? '?', a.version.shown, source),
      }
    : undefined;
  return {
      version: followed?.version ?? t('Claude Code {0}', a.version.shown),
      versionNote: followed ? followed.note : versionNote ?? (v.source === 'newest' && v.why ? source : undefined),
      versionAction: versionNote ? undefined : versionAction,
      verify: versionNote && input.trusted ? { command: 'verify', label: t('Verify…') } : undefined,
      model: followed?.model ?? input.model,
      launchDir: a.env.cwd,
      source: followed?.source ?? source,
      folder: input.folderName,
      restricted: input.trusted ? undefined : t('Restricted mode: reading only, nothing is run'),
      change: { command: 'configure', label: t('Change…') },
  };
}
