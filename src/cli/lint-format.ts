// Output formats of `claude-layers lint`: text (people), json (scripts), sarif (code scanning,
// SARIF 2.1.0) and github (workflow command annotations).
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Severity } from '../engine/index.js';
import { grouped, displayPath, ruleInfo, sortDiagnostics } from '../engine/index.js';
import { githubData, githubProp, jsonText } from './escape.js';
import { safe, type Style } from './style.js';

export const FORMATS = ['text', 'json', 'sarif', 'github'] as const;
export type Format = (typeof FORMATS)[number];

export interface LintReport {
  tool: { name: string; version: string };
  claudeVersion: string;
  cwd: string;
  home: string;
  failOn: Severity;
  diagnostics: Diagnostic[];
  filesScanned: number;
  exitCode: number;
}

export function counts(ds: Diagnostic[]): Record<Severity, number> {
  const c = { error: 0, warning: 0, info: 0 };
  for (const d of ds) c[d.severity]++;
  return c;
}

const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;

export function formatText(r: LintReport, st: Style): string {
  const out: string[] = [];
  const sev = (s: Severity) => (s === 'error' ? st.red('error  ') : s === 'warning' ? st.yellow('warning') : st.blue('info   '));
  for (const d of sortDiagnostics(r.diagnostics)) {
    const where = d.path ? `${safe(displayPath(d.path, r.cwd, r.home))}${d.line ? `:${d.line}` : ''}` : '(workspace)';
    out.push(`${st.bold(where)}  ${sev(d.severity)}  ${st.dim(d.rule)}  ${safe(d.message)}`);
  }
  const c = counts(r.diagnostics);
  if (out.length) out.push('');
  out.push(
    `${r.diagnostics.length ? '' : 'No findings. '}${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${c.info} info in ${safe(r.cwd)} ` +
      `(Claude Code ${r.claudeVersion}, ${plural(r.filesScanned, 'file').replace(/^\d+/, grouped(r.filesScanned))} scanned; fail-on ${r.failOn}: exit ${r.exitCode})`,
  );
  return out.join('\n') + '\n';
}

export function formatJson(r: LintReport): string {
  const json = {
    tool: r.tool,
    claudeVersion: r.claudeVersion,
    cwd: r.cwd,
    failOn: r.failOn,
    exitCode: r.exitCode,
    filesScanned: r.filesScanned,
    counts: counts(r.diagnostics),
    diagnostics: sortDiagnostics(r.diagnostics).map((d) => ({ path: d.path, line: d.line ?? null, severity: d.severity, rule: d.rule, message: d.message })),
  };
  return jsonText(json) + '\n';
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

function relUri(rel: string): string {
  return rel.split(path.sep).map(encodeURIComponent).join('/');
}

export function formatSarif(r: LintReport): string {
  const ds = sortDiagnostics(r.diagnostics);
  const ids = [...new Set(ds.map((d) => d.rule))];
  const index = new Map(ids.map((id, i) => [id, i]));
  const rootUri = pathToFileURL(r.cwd.endsWith(path.sep) ? r.cwd : r.cwd + path.sep).href;
  const results = ds.map((d) => {
    const res: Record<string, unknown> = {
      ruleId: d.rule,
      ruleIndex: index.get(d.rule),
      level: LEVEL[d.severity],
      message: { text: d.message || d.rule },
    };
    if (d.path && path.isAbsolute(d.path)) {
      const rel = path.relative(r.cwd, d.path);
      const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
      const artifactLocation = inside ? { uri: relUri(rel), uriBaseId: 'PROJECTROOT' } : { uri: pathToFileURL(d.path).href };
      const physicalLocation: Record<string, unknown> = { artifactLocation };
      if (d.line && d.line >= 1) physicalLocation.region = { startLine: d.line };
      res.locations = [{ physicalLocation }];
    } else if (d.path) {
      res.locations = [{ logicalLocations: [{ fullyQualifiedName: d.path, kind: 'resource' }] }];
    }
    return res;
  });
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: r.tool.name,
            version: r.tool.version,
            semanticVersion: r.tool.version,
            rules: ids.map((id) => {
              const info = ruleInfo(id);
              return { id, name: id, shortDescription: { text: info.description }, defaultConfiguration: { level: LEVEL[info.severity] } };
            }),
          },
        },
        originalUriBaseIds: { PROJECTROOT: { uri: rootUri } },
        invocations: [{ executionSuccessful: true, exitCode: r.exitCode }],
        properties: { claudeVersion: r.claudeVersion, failOn: r.failOn },
        results,
      },
    ],
  };
  return jsonText(sarif) + '\n';
}

const escData = githubData;
const escProp = githubProp;

export function formatGithub(r: LintReport, base: string = process.env.GITHUB_WORKSPACE || process.cwd()): string {
  const out: string[] = [];
  const cmd: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };
  for (const d of sortDiagnostics(r.diagnostics)) {
    const props: string[] = [];
    if (d.path && path.isAbsolute(d.path)) {
      const rel = path.relative(base, d.path);
      const shown = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : d.path;
      props.push(`file=${escProp(shown)}`);
      if (d.line) props.push(`line=${d.line}`);
    }
    props.push(`title=${escProp(`claude-layers ${d.rule}`)}`);
    out.push(`::${cmd[d.severity]} ${props.join(',')}::${escData(d.message)}`);
  }
  const c = counts(r.diagnostics);
  out.push(`claude-layers lint: ${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${c.info} info (fail-on ${r.failOn}: exit ${r.exitCode})`);
  return out.join('\n') + '\n';
}
