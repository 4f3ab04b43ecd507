// `claude-layers render … --json`: the engine's prediction in the contract's JSON shape.
import { analyze, configDir, listTranscripts, measuredHooks, nodeFileAccess, renderStartupBlock, transcriptDirs } from '../engine/index.js';
import { many, has, one, parseArgs, UsageError } from './args.js';
import { ENGINE_FLAGS, engineOptions, parseTouch } from './engine-options.js';
import { checkPathFlags } from './path-flags.js';
import { sessionJson, simulateFromFile, type SessionJson } from './session-json.js';
import { buildRequest, MCP_FLAGS, requestJson, type RequestJson } from './request-view.js';

export interface RenderJson {
  /** the version asked for (--claude-version), else the newest profile's */
  claudeVersion: string;
  /** the profile the prediction uses (the note says why when it is not the version's own) */
  profile: { version: string; note?: string };
  instructions: { text: string; entries: { path: string; type: string; text: string }[] } | null;
  /** `demoted`: listed without its description, because the listing is over budget (`reason: 'budget'`) or
   *  because skillOverrides sets it to "name-only" (`reason: 'override'`) */
  skills: { text: string; entries: { name: string; text: string; demoted: boolean; reason?: 'budget' | 'override'; bundled: boolean }[] } | null;
  touches: { tool: string; path: string; injected: { path: string; text: string }[] }[];
  diagnostics: { path: string; line: number | null; severity: string; rule: string; message: string }[];
  /** with --session TURNS.json */
  session?: SessionJson;
  /** the whole first request, section by section (docs/cli.md) */
  request: RequestJson;
}

export async function renderCommand(argv: string[]): Promise<{ json: RenderJson; request?: string }> {
  const p = parseArgs(argv, { ...ENGINE_FLAGS, ...MCP_FLAGS, touch: { value: true, repeat: true }, json: {}, request: {}, session: { value: true } });
  if (p.positionals.length) throw new UsageError(`render takes no positional arguments (got "${p.positionals[0]}")`);
  checkPathFlags(p);
  const touches = many(p, 'touch').map(parseTouch);
  const options = engineOptions(p);
  const a = analyze(options);
  const session = a.session();
  const req = await buildRequest(p, a);
  const json: RenderJson = {
    claudeVersion: a.version.shown,
    profile: { version: a.profile.version, note: a.version.note },
    instructions: a.startupText === undefined ? null : { text: a.startupText, entries: a.startup.map((e) => ({ path: e.path, type: e.type, text: e.text })) },
    skills: a.skills.text === '' ? null : { text: a.skills.text, entries: a.skills.entries.map((e) => {
      const reason = e.nameOnlyByOverride ? ('override' as const) : e.demoted ? ('budget' as const) : undefined;
      return { name: e.name, text: e.text, demoted: reason !== undefined, ...(reason && { reason }), bundled: e.bundled };
    }) },
    touches: touches.map((t) => ({ tool: t.tool, path: t.path, injected: session.touch(t.tool, t.path).map((i) => ({ path: i.path, text: i.text })) })),
    diagnostics: [...a.diagnostics, ...req.diagnostics].map((d) => ({ path: d.path, line: d.line ?? null, severity: d.severity, rule: d.rule, message: d.message })),
    request: requestJson(req.request),
  };
  const script = one(p, 'session');
  if (script !== undefined) {
    const result = simulateFromFile(options, script);
    // hooks' output sizes, as the launch directory's earlier sessions recorded them
    const config = configDir(options.home ?? options.env?.HOME ?? '', options.env ?? {});
    json.session = sessionJson(result, measuredHooks(nodeFileAccess, listTranscripts(nodeFileAccess, transcriptDirs(nodeFileAccess, options.cwd, config))));
    for (const d of result.diagnostics) json.diagnostics.push({ path: d.path, line: d.line ?? null, severity: d.severity, rule: d.rule, message: d.message });
  }
  return { json, request: has(p, 'request') ? renderStartupBlock(a.profile, a.startup, new Date().toISOString().slice(0, 10)) : undefined };
}
