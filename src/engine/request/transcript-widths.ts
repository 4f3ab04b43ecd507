// Where the installed Claude Code has no first-request profile (FIRST_REQUESTS), the user's own newest transcript
// written by that version and holding an `api-request-shape` (2.1.328 on) gives the sizes of Claude Code's own texts
// exactly: the system blocks it records (the main one without its `# Memory` section, and without the launch directory
// where the version puts it there; the first block, which the shape does not record, stays the nearest profile's),
// every tool sent whole in that session (its compact JSON), ToolSearch and the deferred-loading placeholder;
// the deferred built-ins' names come from the same session's `deferred_tools_delta` (their schemas were not sent:
// their widths stay the nearest profile's). The message texts Claude Code adds (environment, git status, agents) stay
// the nearest profile's too. Read only, bounded.
import type { FileAccess } from '../files/file-access.js';
import { decodeUtf8 } from '../instructions/content.js';
import type { Analysis } from '../analysis.js';
import { firstRequestProfile, type BuiltInToolWidth, type FirstRequestProfile } from '../profiles.js';
import { configDir, sessionFilesIn, transcriptDirs, type TranscriptFile } from '../transcript/session.js';

/** the newest transcripts looked at, and the bytes read of each (the first request's shape comes early) */
const MAX_TRANSCRIPTS = 20;
const MAX_BYTES = 2 * 1024 * 1024;
const MEMORY_SECTION = /\n# (?:Memory|auto memory)\n/;
const PLACEHOLDER = 'DeferredToolPlaceholder';

export interface TranscriptWidths {
  /** the transcript the sizes come from */
  file: string;
  version: string;
  /** the model of its first request */
  model: string;
  profile: FirstRequestProfile;
}

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);

/** the `# Memory` section of a system block (up to the next `# ` heading), as the conformance suite cuts it */
function memorySection(t: string): string {
  const m = MEMORY_SECTION.exec(t);
  if (!m) return '';
  const j = t.indexOf('\n# ', m.index + m[0].length);
  return t.slice(m.index + 1, j < 0 ? undefined : j + 1);
}

/** the recorded shape leaves out Claude Code's first system block (measured on 2.1.335: 62 + main recorded, 74 + 62 +
 *  main sent): the blocks it does not record keep the nearest profile's widths */
function systemBlocks(base: FirstRequestProfile, recorded: number[]): number[] {
  const missing = Math.max(0, base.systemBlocks.length - recorded.length);
  return [...base.systemBlocks.slice(0, missing), ...recorded];
}

/** one transcript's first request of `version`, as a profile over `base` */
function fromText(text: string, version: string, base: FirstRequestProfile): Omit<TranscriptWidths, 'file' | 'version'> | undefined {
  if (!text.includes(`"version":"${version}"`) || !text.includes('"api-request-shape"')) return undefined;
  let shape: Rec | undefined;
  let model: string | undefined;
  let cwd: string | undefined;
  const deferred: string[] = [];
  let ours = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let r: Rec;
    try {
      const v: unknown = JSON.parse(line);
      if (!isRec(v)) continue;
      r = v;
    } catch {
      continue; // a cut line
    }
    if (typeof r.version === 'string') ours = r.version === version;
    if (!ours) continue;
    if (typeof r.cwd === 'string') cwd ??= r.cwd;
    if (r.type === 'api-request-shape' && !shape && isRec(r.shape)) shape = r.shape;
    else if (r.type === 'api-request' && !model && isRec(r.params) && typeof r.params.model === 'string') model = r.params.model;
    else if (r.type === 'attachment' && isRec(r.attachment) && r.attachment.type === 'deferred_tools_delta' && !deferred.length && Array.isArray(r.attachment.addedNames))
      for (const n of r.attachment.addedNames) if (typeof n === 'string' && !n.startsWith('mcp__')) deferred.push(n);
    if (shape && model && deferred.length) break;
  }
  if (!shape || !model || !Array.isArray(shape.system) || !Array.isArray(shape.tools)) return undefined;
  const blocks = shape.system.map((b) => (isRec(b) && typeof b.text === 'string' ? b.text : ''));
  if (!blocks.length) return undefined;
  const mi = blocks.findIndex((t) => MEMORY_SECTION.test(t));
  const main = mi >= 0 ? mi : blocks.length - 1;
  const cwdChars = base.cwdIn === 'system' && cwd ? cwd.length : 0;
  const systemMain = blocks[main]!.length - memorySection(blocks[main]!).length - cwdChars;
  const widths = new Map<string, number>();
  let toolSearch = base.toolSearch;
  let tool: number | undefined;
  let placeholder: number | undefined;
  for (const t of shape.tools) {
    if (!isRec(t) || typeof t.name !== 'string' || t.name.startsWith('mcp__')) continue;
    const w = JSON.stringify(t).length;
    if (t.name === PLACEHOLDER) placeholder = w;
    else if (t.name === 'ToolSearch') tool = w;
    else if (t.defer_loading !== true) widths.set(t.name, w);
  }
  if (tool !== undefined && placeholder !== undefined) toolSearch = { ...(base.toolSearch ?? { unset: 'on', autoPercent: 10 }), tool, placeholder };
  const baseWidth = new Map(base.builtInTools.map((b) => [b[0], b[1]]));
  const builtInTools: BuiltInToolWidth[] = [...widths].map(([n, w]) => [n, w]);
  // a deferred built-in was not sent: its width is the nearest profile's (0 when that profile does not know it)
  for (const n of deferred) if (!widths.has(n)) builtInTools.push([n, baseWidth.get(n) ?? 0, true]);
  builtInTools.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  return {
    model,
    profile: { ...base, model, systemBlocks: systemBlocks(base, blocks.filter((_t, i) => i !== main).map((t) => t.length)), systemMain: { ...base.systemMain, [model]: systemMain }, toolSearch, builtInTools },
  };
}

/** the first request's sizes from the user's newest transcript of `version` that holds an `api-request-shape` */
export function widthsFromTranscripts(fa: FileAccess, transcripts: readonly { file: string; mtimeMs: number }[], version: string, base: FirstRequestProfile): TranscriptWidths | undefined {
  const newest = [...transcripts].sort((a, b) => b.mtimeMs - a.mtimeMs).slice(0, MAX_TRANSCRIPTS);
  for (const t of newest) {
    const r = fa.readRange ? fa.readRange(t.file, 0, MAX_BYTES) : undefined;
    if (!r || !r.ok) continue;
    const got = fromText(decodeUtf8(r.value.data), version, base);
    if (got) return { file: t.file, version, ...got };
  }
  return undefined;
}

/** the most project folders and files listed when looking for a version's transcript */
const MAX_PROJECT_DIRS = 500;
const MAX_FILES = 5000;

/** every session transcript under CONFIG/projects (subagents' files aside), unsorted, bounded */
export function allTranscripts(fa: FileAccess, config: string): TranscriptFile[] {
  const root = `${config}/projects`;
  const dirs = fa.readDir(root);
  if (!dirs.ok) return [];
  const out: TranscriptFile[] = [];
  for (const d of dirs.value.slice(0, MAX_PROJECT_DIRS)) {
    if (out.length >= MAX_FILES) break;
    sessionFilesIn(fa, `${root}/${d.name}`, out, MAX_FILES);
  }
  return out;
}

/** the widths for an analysis whose version has no first-request profile: from the user's newest transcript of that
 *  version (this launch directory's first, then any other); undefined when the version has a profile or no transcript
 *  of it holds a request's shape */
export function transcriptWidthsFor(a: Analysis, fa: FileAccess): TranscriptWidths | undefined {
  const version = a.version.requested ?? a.profile.version;
  const chosen = firstRequestProfile(version);
  if (chosen.exact || !/^\d+\.\d+\.\d+$/.test(version)) return undefined;
  const config = configDir(a.env.home, a.env.env);
  const here = transcriptDirs(fa, a.env.cwd, config).flatMap((d) => {
    const r = fa.readDir(d);
    return r.ok ? r.value.filter((f) => f.name.endsWith('.jsonl')).map((f) => `${d}/${f.name}`) : [];
  });
  const all = allTranscripts(fa, config);
  const local = all.filter((t) => here.includes(t.file));
  return widthsFromTranscripts(fa, local, version, chosen.profile) ?? widthsFromTranscripts(fa, all.filter((t) => !here.includes(t.file)), version, chosen.profile);
}
