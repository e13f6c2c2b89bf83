import type { StartedSystem } from './started-system';

/**
 * The path of the newest dashboard link mailed to `to`, read from the local mail catcher `pnpm start` runs (its inbox
 * address is in the banner; its JSON list at /messages).
 */
export async function mailedLink(system: StartedSystem, to: string, kind: 'verify-email' | 'reset-password'): Promise<string> {
  const inbox = /mail inbox\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(system.output())?.[1];
  if (!inbox) throw new Error('pnpm start printed no mail inbox');
  // Some mails are sent after the answer (password resets): asked again for up to 5 s.
  const deadline = Date.now() + 5000;
  for (;;) {
    const messages = (await (await fetch(`${inbox}messages`)).json()) as Array<{ to: string[]; text: string }>;
    const mail = messages.filter((message) => message.to.includes(to) && message.text.includes(`/dashboard/${kind}/`)).at(-1);
    const path = mail && new RegExp(`/dashboard/${kind}/[A-Za-z0-9_-]+`).exec(mail.text)?.[0];
    if (path) return path;
    if (Date.now() > deadline) throw new Error(`no ${kind} mail for ${to} in ${JSON.stringify(messages)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
