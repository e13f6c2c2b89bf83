/** The README's "Quick start" block, as the tests that run it read it. */
import fs from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from './started-system';

export interface Command {
  text: string;
  /** The text a trailing comment asks to wait for before the next command (`# wait for its "Ready." line`). */
  waitFor?: string;
}

/** The logical command lines of the README's quick-start block: comments and blank lines dropped, `\` continuations joined. */
export function quickStartCommands(): Command[] {
  const readme = fs.readFileSync(path.join(repositoryRoot, 'README.md'), 'utf8');
  const section = /^## Quick start\n([\s\S]*?)^## /m.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no "## Quick start" section');
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('the quick start has no ```sh block');
  const commands: Command[] = [];
  let pending = '';
  for (const line of block.split('\n')) {
    if (!pending && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    pending += line;
    if (line.endsWith('\\')) {
      pending += '\n';
      continue;
    }
    const waitFor = /&\s+#.*wait for [^"]*"([^"]+)"/.exec(pending)?.[1];
    // A command sent to the background must say what to wait for, or the next one would race it.
    if (/[^&]&\s*(#.*)?$/.test(pending) && !waitFor) throw new Error(`the background command needs a '# wait for its "…" line' comment: ${pending}`);
    commands.push({ text: pending, ...(waitFor ? { waitFor } : {}) });
    pending = '';
  }
  return commands;
}
