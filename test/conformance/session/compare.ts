// The comparison of one session run (session/run.ts): the binary's extracted turns against the engine's
// `render --session --json`, on every judged key.
import { firstDiff } from '../compare.js';
import type { SessionOutcome } from './run.js';

/** the engine's skill body matches the binary's with each unknown `` !`cmd` `` standing for any text */
function bodyMatches(engine: string, claude: string, unknown: string[]): boolean {
  if (!unknown.length) return engine === claude;
  const parts = engine.split(/!`[^`\n]+`/);
  const re = new RegExp('^' + parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?') + '$');
  return re.test(claude);
}

export function compareSession(o: SessionOutcome): string[] {
  const errs: string[] = [];
  const j = o.engine.json?.session;
  if (!j) return [`engine failed (exit ${o.engine.code}): ${o.engine.stderr.slice(0, 2000)}`];
  o.extracted.forEach((c, t) => {
    const e = j.turns[t];
    const at = `turn ${t + 1} (${JSON.stringify(c.prompt.slice(0, 40))})`;
    if (!e) return errs.push(`${at}: missing in the engine's output`);
    const same = (label: string, want: string | null, got: string | null) => {
      if (want === got) return;
      errs.push(`${at} ${label}: ${want === null || got === null ? `claude ${want === null ? 'null' : JSON.stringify(want.slice(0, 300))}, engine ${got === null ? 'null' : JSON.stringify(got.slice(0, 300))}` : firstDiff(want, got, label)}`);
    };
    same('instructions', c.instructions, e.instructions);
    same('changedNotes', c.changedNotes, e.changedNotes);
    if (!!c.restored !== !!e.restored) errs.push(`${at} restored: claude ${c.restored ? 'has' : 'has none'}, engine ${e.restored ? 'has' : 'has none'}`);
    else if (c.restored && e.restored) {
      same('restored.files', JSON.stringify(c.restored.files, null, 1), JSON.stringify(e.restored.files, null, 1));
      same('restored.references', JSON.stringify(c.restored.references), JSON.stringify(e.restored.references));
      same('restored.skills', c.restored.skills, e.restored.skills);
    }
    same('resumeReminder', c.resumeReminder ?? null, e.resumeReminder ?? null);
    same('autoCompactions.at', JSON.stringify((c.autoCompactions ?? []).map((a) => a.at)), JSON.stringify((e.autoCompactions ?? []).map((a) => a.at)));
    (c.autoCompactions ?? []).forEach((a, i) => {
      const ea = e.autoCompactions?.[i];
      if (!ea) return;
      same(`autoCompactions[${i}].restored.files`, JSON.stringify(a.restored?.files ?? [], null, 1), JSON.stringify(ea.restored.files, null, 1));
      same(`autoCompactions[${i}].restored.skills`, a.restored?.skills ?? null, ea.restored.skills);
    });
    if (c.calls.length !== e.calls.length) errs.push(`${at}: ${c.calls.length} calls in the capture, ${e.calls.length} in the engine`);
    c.calls.forEach((cc, k) => {
      const ec = e.calls[k];
      if (!ec) return;
      const label = `call ${k + 1} ${cc.name}`;
      same(`${label} injected`, cc.injected.join('\n\n=====\n\n'), ec.injected.map((i) => i.text).join('\n\n=====\n\n'));
      if (cc.skillBody !== null || ec.skillBody !== null) {
        if (cc.skillBody === null || ec.skillBody === null || !bodyMatches(ec.skillBody, cc.skillBody, ec.unknownCommands)) same(`${label} skillBody`, cc.skillBody, ec.skillBody);
      }
      same(`${label} skillNote`, cc.skillNote ?? null, ec.skillNote ?? null);
      if (!!cc.agent !== !!ec.agent) errs.push(`${at} ${label} agent: claude ${cc.agent ? 'started one' : 'none'}, engine ${ec.agent ? 'predicts one' : 'none'}`);
      else if (cc.agent && ec.agent) same(`${label} agent instructions`, cc.agent.instructions, ec.agent.instructions);
    });
  });
  return errs;
}

