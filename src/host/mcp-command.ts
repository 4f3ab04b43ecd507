// claudeLayers.measureMcp (issue 32): asks the MCP servers the session would connect for their instructions and
// tools (the CLI's `--mcp run`: src/ground-truth/mcp-probe.ts), only when the user runs it, never in an untrusted
// workspace, after a modal confirmation that names every command it starts, each under a 15 s timeout. The answers
// go to the whole-request gauge and the status bar's tooltip (Controller.setMcpFacts); a server that fails is named.
import * as vscode from 'vscode';
import { DiagnosticSink, resolveMcpServers } from '../engine/index.js';
import { probeMcpServers } from '../ground-truth/mcp-probe.js';
import type { Controller } from './controller.js';

export const MCP_COMMAND = 'claudeLayers.measureMcp';
const TIMEOUT_MS = 15_000;

export function registerMeasureMcp(ctl: Controller): vscode.Disposable {
  let running = false;
  return vscode.commands.registerCommand(MCP_COMMAND, async () => {
    const { t } = ctl;
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(t('Measuring MCP servers runs them, so it is disabled in an untrusted workspace.'));
      return;
    }
    const a = ctl.current;
    if (!a) {
      void vscode.window.showInformationMessage(t('Open a folder first: MCP servers are configured per launch directory.'));
      return;
    }
    if (running) return;
    const key = ctl.currentKey;
    const servers = resolveMcpServers(a.env, a.settings, { version: a.version.requested ?? a.profile.version }, new DiagnosticSink()).servers;
    if (!servers.length) {
      void vscode.window.showInformationMessage(t('No MCP server is configured for {0} (.mcp.json, ~/.claude.json, settings).', a.env.cwd));
      return;
    }
    const lines = servers.map((s) => (s.config.command ? `• ${s.name} (${s.scope}): ${[s.config.command, ...(s.config.args ?? [])].join(' ')}` : `• ${s.name} (${s.scope}): ${t('a remote server: not run')}`));
    const run = servers.length === 1 ? t('Run 1 Server') : t('Run {0} Servers', servers.length);
    const detail = [t('Starts each server as Claude Code would (its command, arguments and environment) in {0}, asks it for its instructions and tools, and stops it ({1} s at most each):', a.env.cwd, TIMEOUT_MS / 1000), ...lines].join('\n');
    const pick = await vscode.window.showWarningMessage(t('Measure the MCP servers by running them?'), { modal: true, detail }, run);
    if (pick !== run) return;
    running = true;
    try {
      const facts = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Measuring {0} MCP server(s)', servers.length) }, () =>
        probeMcpServers(servers, { env: a.env.env, cwd: a.env.cwd, timeoutMs: TIMEOUT_MS }),
      );
      ctl.setMcpFacts(key, facts);
      const summary = servers.map((s) => {
        const f = facts[s.name];
        if (!f || f.error) return t('{0}: {1}', s.name, f?.error ?? t('no answer'));
        const n = f.tools?.length ?? 0;
        return n === 1 ? t('{0}: 1 tool', s.name) : t('{0}: {1} tools', s.name, n);
      });
      const failed = servers.some((s) => facts[s.name]?.error);
      const text = t('MCP servers measured: {0}. The sidebar\'s "Whole first request" gauge counts them.', summary.join('; '));
      if (failed) void vscode.window.showWarningMessage(text);
      else void vscode.window.showInformationMessage(text);
    } finally {
      running = false;
    }
  });
}
