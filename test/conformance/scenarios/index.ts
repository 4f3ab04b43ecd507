// Every conformance scenario, grouped by the spec section they mainly exercise.
import type { Scenario } from '../scenario.js';
import { agents } from './agents.js';
import { conditional } from './conditional.js';
import { content } from './content.js';
import { frontmatter } from './frontmatter.js';
import { hierarchy } from './hierarchy.js';
import { html } from './html.js';
import { include } from './include.js';
import { lazy } from './lazy.js';
import { managed } from './managed.js';
import { rules } from './rules.js';
import { settings } from './settings.js';

export const scenarios: Scenario[] = [
  ...hierarchy,
  ...managed,
  ...content,
  ...frontmatter,
  ...html,
  ...rules,
  ...conditional,
  ...lazy,
  ...include,
  ...settings,
  ...agents,
];

const seen = new Set<string>();
for (const s of scenarios) {
  if (seen.has(s.name)) throw new Error(`duplicate scenario name ${s.name}`);
  if (!/^[a-z0-9_]+$/.test(s.name)) throw new Error(`scenario name ${s.name} is not file-name safe`);
  seen.add(s.name);
}
