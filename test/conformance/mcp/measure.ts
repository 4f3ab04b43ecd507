// Measures the parts of a first request Claude Code writes itself, per version: the system blocks' widths, each
// built-in tool's compact-JSON width and whether tool search defers it, and the message texts besides the skills
// listing and the deferred-tools listing. An empty git repository, a fresh HOME, no MCP server, offline against the
// loopback stand-in; paths are counted without the temp root. Prints the FIRST_REQUESTS rows of src/engine/profiles.ts.
//   node --import tsx test/conformance/mcp/measure.ts 2.1.335 [MODEL…]
import { captureFirstRequest, firstRequestParts } from './run.js';

async function main(): Promise<void> {
  const [version, ...models] = process.argv.slice(2);
  if (!version) throw new Error('usage: measure.ts VERSION [MODEL…]');
  const on = await captureFirstRequest({ version, files: {} });
  const off = await captureFirstRequest({ version, files: {}, env: { ENABLE_TOOL_SEARCH: 'false' } });
  const a = firstRequestParts(on);
  const b = firstRequestParts(off);
  const whole = new Set(a.tools.map((t) => t.name));
  const tools = [...a.tools.map((t) => ({ ...t, deferred: false })), ...b.tools.filter((t) => !whole.has(t.name)).map((t) => ({ ...t, deferred: true }))];
  const systemByModel: Record<string, number> = { [on.model]: a.systemMain };
  for (const m of models) {
    const r = await captureFirstRequest({ version, files: {}, model: m });
    systemByModel[r.model] = firstRequestParts(r).systemMain;
  }
  console.log(JSON.stringify({ version, model: on.model, systemBlocks: a.systemBlocks, systemByModel, messagesFixed: a.messagesFixed, messagesFixedOff: b.messagesFixed, deferredNames: a.deferredNames, tools }, null, 1));
}
void main();
