// The MCP findings (engine: checks/mcp-check.ts) in the user's language: the engine keeps each message as an English
// template with its arguments (`l10n`); here each template is one literal t() call, so that the bundle holds it.
import type { Diagnostic, McpDiagnostic, McpMessageKey } from '../../engine/index.js';
import type { Translate } from '../format.js';

function template(key: McpMessageKey, args: readonly string[], t: Translate): string {
  const a = (i: number) => args[i] ?? '';
  switch (key) {
    case 'toolSearchOff':
      return t('tool search is off ({0}): {1} characters of tool schemas are sent at the start of every session, {2} more than with tool search on ({3} tools would only be named); set ENABLE_TOOL_SEARCH=true (or auto) to defer them', a(0), a(1), a(2), a(3));
    case 'instructionsCut':
      return t('MCP server "{0}": its instructions are {1} characters; Claude Code {2} sends the first {3} and "… [truncated]"{4}', a(0), a(1), a(2), a(3), a(4));
    case 'descriptionsCut':
      return t('MCP server "{0}": the descriptions of {1} of its tools are over {2} characters and cut with "… [truncated]" ({3}){4}', a(0), a(1), a(2), a(3), a(4));
    case 'capFixed':
      return t(' (a fixed cap in this version)');
    case 'capEnv':
      return t(' (the cap comes from {0})', a(0));
    case 'capDefault':
      return t(" (the version's default cap; {0} changes it)", a(0));
    case 'shadowed':
      return t('MCP server "{0}" is defined in the {1} scope here and in the {2} scope ({3}): the {2} one wins, this one is never connected', a(0), a(1), a(2), a(3));
    case 'neverConnected':
      return t('MCP server "{0}" ({1}) is configured and was connected in none of the {2} newest sessions of this folder written since its configuration last changed: its tools and instructions never reached the model', a(0), a(1), a(2));
    case 'off':
      return t('MCP server "{0}" ({1}) is configured and never connected: {2}', a(0), a(1), a(2));
  }
}

/** the finding's message translated, or its English message when it carries no template */
export function diagnosticMessage(d: Diagnostic, t: Translate | undefined): string {
  const l = (d as Partial<McpDiagnostic>).l10n;
  if (!l || !t) return d.message;
  const tail = l.suffix ? template(l.suffix.key, l.suffix.args, t) : '';
  return template(l.key, [...l.args, tail], t);
}
