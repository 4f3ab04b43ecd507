// Subagent types and what their first request carries (measured on 2.1.235, 2.1.328, 2.1.332):
// Explore and Plan get no instruction files; claude, general-purpose, statusline-setup and custom agents (`.claude/agents/*.md`
// of the project, `~/.claude/agents/*.md`) get the session's startup block as the session holds it
// (an edit on disk since the session started is not in it), and a custom agent's body becomes its
// system prompt.
import * as path from 'node:path';
import { decodeUtf8 } from '../instructions/content.js';
import type { Environment } from '../environment.js';
import { parseFrontmatter } from '../instructions/frontmatter.js';
import type { ClaudeProfile } from '../profiles.js';
import { byCodeUnit } from '../files/file-access.js';

const MAX_AGENT_BYTES = 1024 * 1024;
const MAX_AGENT_FILES = 500;

export interface AgentType {
  name: string;
  source: 'built-in' | 'project' | 'user';
  /** its first request carries the session's startup block */
  getsInstructions: boolean;
  /** custom agents: the file, its description and the size of its body (the subagent's system prompt) */
  path?: string;
  description?: string;
  systemPromptChars?: number;
}

function readAgents(env: Environment, profile: ClaudeProfile, dir: string, source: 'project' | 'user'): AgentType[] {
  const list = env.fs.readDir(dir);
  if (!list.ok) return [];
  const out: AgentType[] = [];
  for (const e of list.value.slice(0, MAX_AGENT_FILES)) {
    if (!e.name.endsWith('.md')) continue;
    const file = path.join(dir, e.name);
    const r = env.fs.readFile(file, MAX_AGENT_BYTES);
    if (!r.ok) continue;
    const fm = parseFrontmatter(decodeUtf8(r.value), profile.stripBomBeforeFrontmatter);
    const name = typeof fm.data.name === 'string' && fm.data.name ? fm.data.name : e.name.slice(0, -3);
    const description = typeof fm.data.description === 'string' ? fm.data.description : undefined;
    out.push({ name, source, getsInstructions: true, path: file, description, systemPromptChars: fm.body.trim().length });
  }
  return out.sort((a, b) => byCodeUnit(a.name, b.name));
}

/** every agent type the session can start: built-in first, then project agents, then user agents
 *  (a project agent wins over a user agent of the same name) */
export function agentTypes(env: Environment, profile: ClaudeProfile): AgentType[] {
  const out: AgentType[] = [];
  for (const a of profile.session.builtInAgents) out.push({ name: a.name, source: 'built-in', getsInstructions: a.instructions });
  const seen = new Set(out.map((a) => a.name));
  const custom = [
    ...(env.settingSources.has('project') ? readAgents(env, profile, path.join(env.cwd, '.claude', 'agents'), 'project') : []),
    ...(env.settingSources.has('user') ? readAgents(env, profile, path.join(env.userDir, 'agents'), 'user') : []),
  ];
  for (const a of custom) {
    if (seen.has(a.name)) continue;
    seen.add(a.name);
    out.push(a);
  }
  return out;
}
