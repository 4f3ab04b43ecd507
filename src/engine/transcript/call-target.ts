// What a tool call was about, in a few words, from its input: the file it read or wrote, the skill or agent it
// started, the command it ran, the pattern, query or address it looked for, the question it asked, the task it
// changed; for any other tool (an MCP server's among them) the first short text among its inputs. One reading for
// `claude-layers session` and the This Session view.

/** what a call was about: `file` when it names one (the caller shows it relative to the session's folder), else `text`
 *  (one line, uncut: the caller cuts it to its width); '' when the input says nothing shown in a line */
export interface CallTarget {
  file?: string;
  text: string;
}

/** the inputs tools commonly name their object by, in the order they are tried */
const NAMED = ['pattern', 'query', 'q', 'url', 'subject', 'description', 'path', 'prompt', 'element', 'task_id', 'shell_id'] as const;

/** the longest input taken by the fallback (a longer one is a body, not a name) */
const MAX_FALLBACK = 200;

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export function callTarget(input: unknown): CallTarget {
  const o = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const str = (k: string): string | undefined => {
    const v = o[k];
    return typeof v === 'string' && v.trim() !== '' ? v : undefined;
  };
  const file = str('file_path') ?? str('notebook_path');
  if (file !== undefined) return { file, text: file };
  const own = str('skill') ?? str('subagent_type') ?? str('command');
  if (own !== undefined) return { text: oneLine(own) };
  // AskUserQuestion: its first question (and how many more)
  if (Array.isArray(o.questions)) {
    const qs = o.questions as unknown[];
    const first = qs.map((q) => (q && typeof q === 'object' ? (q as Record<string, unknown>).question : undefined)).find((q): q is string => typeof q === 'string' && q.trim() !== '');
    if (first !== undefined) return { text: oneLine(first) + (qs.length > 1 ? ` (+${qs.length - 1})` : '') };
  }
  // TaskUpdate: the task and what it became
  const task = str('taskId');
  if (task !== undefined) return { text: [`#${oneLine(task)}`, str('status'), str('subject')].filter(Boolean).join(' ') };
  // TodoWrite: how many items
  if (Array.isArray(o.todos)) return { text: `${o.todos.length} item${o.todos.length === 1 ? '' : 's'}` };
  for (const k of NAMED) {
    const v = str(k);
    if (v !== undefined) return { text: oneLine(v) };
  }
  // any other tool: the first short text among its inputs
  for (const v of Object.values(o)) if (typeof v === 'string' && v.trim() !== '' && v.length <= MAX_FALLBACK) return { text: oneLine(v) };
  return { text: '' };
}
