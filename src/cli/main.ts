// claude-layers: the CLI over the engine. Thin: parse, ask the engine, print.
// Exit codes: 0 fine (lint: no finding at or above --fail-on), 1 lint findings, 2 usage error
// (one line saying why, the command's synopsis, a pointer to --help; never a stack trace), 3 internal error.
import { PROFILES } from '../engine/index.js';
import { errorText, jsonText } from './escape.js';
import { UsageError } from './args.js';
import { diffCommand } from './diff-command.js';
import { explainCommand } from './explain-command.js';
import { lintCommand } from './lint-command.js';
import { renderCommand } from './render-command.js';
import { sessionCommand, watchSession } from './session-command.js';
import { lastSessionCommand, verifyCommand } from './verify-command.js';
import { colorEnabled, makeStyle } from './style.js';
import { TOOL } from './tool.js';

const KNOWN_VERSIONS = PROFILES.map((p) => p.version).reverse().join('|');
const COMMON = `[--cwd DIR] [--home DIR] [--claude-version ${KNOWN_VERSIONS}] [--model ID]
           [--add-dir DIR]... [--setting-sources LIST] [--env NAME=VALUE]... [--managed-dir DIR] [--bare]`;

/** each command: its synopsis (options) and what it does, for `claude-layers CMD --help` and the overview */
const COMMANDS: Record<string, { synopsis: string; what: string }> = {
  explain: {
    synopsis: `explain  [FILE] ${COMMON}\n           [--mcp-config FILE]... [--strict-mcp-config] [--mcp run] [--json]\n           [--advice [--sessions N] [--prices INPUT,CACHE_WRITE,CACHE_READ]]`,
    what: 'the startup layers in order, what touching FILE injects, gauges, the whole first request split like /context\n(colors on a terminal; NO_COLOR honoured); --mcp run asks the MCP servers for their tools (nothing runs otherwise);\n--advice: each always-loaded text in tokens per session start and, over the last N (30) sessions of\nthis project read from their transcripts, which needed it and what a fix saves, in dollars at the price of\nthe model the sessions ran, from the profile (or modelPricing; --prices INPUT,CACHE_WRITE,CACHE_READ in $/MTok replaces it)',
  },
  lint: {
    synopsis: `lint     ${COMMON}\n           [--format text|json|sarif|github] [--fail-on error|warning|info] [--no-secrets] [--verbose]`,
    what: 'every finding; exit 0 clean, 1 findings at or above --fail-on (default error), 2 usage error;\n--verbose prints the stack of a check that crashed and the time of each phase (to stderr)',
  },
  diff: {
    synopsis: `diff     [BASE] [HEAD] ${COMMON}\n           [--format text|json|markdown|sarif] [--budget KEY=LIMIT,...] [--fail-on-growth N%] [--no-secrets]\n           [--allow-renames] [--allow-submodules]`,
    what: 'what a change does to Claude Code\'s context: BASE (default: the merge base with the default branch) against\nHEAD (default: the working tree), both read from git without a checkout, with the same HOME; budgets\nfrom .claude/context-budget.json and --budget (startup, listing, file, rule, nested, import: characters,\nor tokens as 3000t); exit 0 fine, 1 a budget exceeded, 2 usage error or a revision it cannot compare',
  },
  render: {
    synopsis: `render   --cwd DIR ${COMMON.replace('[--cwd DIR] ', '')}\n           [--touch TOOL:ABS_PATH]... [--mcp-config FILE]... [--strict-mcp-config] [--mcp run] --json`,
    what: 'the exact request text as JSON, and the whole first request (`request`)',
  },
  verify: {
    synopsis: 'verify   [FILE] [--cwd DIR] [--claude PATH] [--claude-version V] [--timeout SECONDS] [--yes] [--json]',
    what: 'runs the installed claude once against a loopback stand-in (asks first; --yes on a script) and\ncompares what it sends with the prediction; exit 0 match, 1 mismatch, 3 could not run',
  },
  session: {
    synopsis: `session  [FILE|SESSION-ID] [--transcript FILE] [--list] [--watch] [--check] [--json] [--cwd DIR] [--home DIR] [--env NAME=VALUE]...`,
    what: 'the Claude Code session running (or last run) in --cwd, read from its transcript: each turn with what\nit carried, real usage, the layers of the last request, what the next turn and /compact will do, and\nthe prediction over the same tool calls (--check: exit 1 on a difference no disk change explains)',
  },
  'last-session': {
    synopsis: 'last-session [--cwd DIR] [--home DIR] [--json]',
    what: 'what your most recent Claude Code session in --cwd really loaded, and when, beside the prediction',
  },
};

const FOOT = `FILE is relative to --cwd (else to the current folder). Without --home the real HOME and environment are used;
with it, only --home and the --env variables.
`;

export const USAGE = `usage: claude-layers <command> [options]

commands:
${Object.values(COMMANDS).map((c) => `  ${c.synopsis}\n${c.what.split('\n').map((l) => `           ${l}`).join('\n')}`).join('\n')}
  help [COMMAND], --help, -h, --version     (every command takes --help / -h too)

${FOOT}`;

/** `claude-layers CMD --help`: the command's own usage */
export function commandUsage(cmd: string): string {
  const c = COMMANDS[cmd]!;
  return `usage: claude-layers ${c.synopsis.replace(/^(\S+) +/, '$1 ')}\n\n${c.what}\n\n${FOOT}`;
}

const wantsHelp = (args: string[]) => {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
};

function write(s: string): void {
  process.stdout.write(s);
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  const known = cmd !== undefined && Object.prototype.hasOwnProperty.call(COMMANDS, cmd);
  try {
    if (known && wantsHelp(rest)) {
      write(commandUsage(cmd));
      return 0;
    }
    switch (cmd) {
      case 'render': {
        const { json, request } = await renderCommand(rest);
        // --request is the request text byte for byte (for a pipe): only the JSON is escaped
        write(request !== undefined ? request : `${jsonText(json)}\n`);
        return 0;
      }
      case 'explain': {
        const r = await explainCommand(rest, makeStyle(colorEnabled(process.stdout)));
        write(r.asJson ? `${jsonText(r.json)}\n` : r.text);
        return 0;
      }
      case 'lint': {
        const r = await lintCommand(rest, makeStyle(colorEnabled(process.stdout)));
        write(r.output);
        if (r.details) process.stderr.write(r.details);
        return r.exitCode;
      }
      case 'diff': {
        const r = await diffCommand(rest, makeStyle(colorEnabled(process.stdout)));
        write(r.output);
        if (r.details) process.stderr.write(r.details);
        return r.exitCode;
      }
      case 'verify':
        return await verifyCommand(rest);
      case 'session': {
        if (rest.includes('--watch')) {
          watchSession(rest, makeStyle(colorEnabled(process.stdout)), write);
          return await new Promise<number>(() => undefined);
        }
        const r = sessionCommand(rest, makeStyle(colorEnabled(process.stdout)));
        if (r.writeTo) r.writeTo(write);
        else write(r.output);
        return r.exitCode;
      }
      case 'last-session': {
        const r = lastSessionCommand(rest);
        write(r.output);
        return r.exitCode;
      }
      case '--version':
      case '-V':
      case 'version':
        write(`${TOOL.name} ${TOOL.version}\n`);
        return 0;
      case '-h':
      case '--help':
      case 'help':
        if (rest[0] !== undefined && !Object.prototype.hasOwnProperty.call(COMMANDS, rest[0])) throw new UsageError(`help: unknown command ${JSON.stringify(rest[0])}`);
        write(rest[0] !== undefined ? commandUsage(rest[0]) : USAGE);
        return 0;
      case undefined:
        throw new UsageError('no command given');
      default:
        throw new UsageError(`unknown command ${JSON.stringify(cmd)}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      // one line saying why, the command's synopsis, and where the rest is
      const synopsis = known ? `usage: claude-layers ${COMMANDS[cmd]!.synopsis.replace(/^(\S+) +/, '$1 ')}` : `usage: claude-layers <command> [options]   (commands: ${Object.keys(COMMANDS).join(', ')})`;
      process.stderr.write(`claude-layers: ${errorText(e.message.split('\n')[0]!)}\n${synopsis}\nrun 'claude-layers ${known ? `${cmd} ` : ''}--help' for more\n`);
      return 2;
    }
    const msg = e instanceof Error ? e.message : String(e);
    process.stderr.write(`claude-layers: internal error: ${errorText(msg.split('\n')[0]!.slice(0, 500))}\n`);
    return 3;
  }
}

// the last line of defence: a one-line internal error, never a stack trace
const fatal = (e: unknown) => {
  const msg = e instanceof Error ? e.message : String(e);
  process.stderr.write(`claude-layers: internal error: ${errorText(msg.split('\n')[0]!.slice(0, 500))}\n`);
  process.exit(3);
};
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);

// a reader that goes away early (`| head`) is not an error
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
