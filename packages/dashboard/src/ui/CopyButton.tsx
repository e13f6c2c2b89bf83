import { useState } from 'react';

/**
 * Copies `text` to the clipboard and says so (politely, for screen readers). `name`, when given, is the button's
 * accessible name in place of its visible label (a short "Copy" beside the text it copies, named after it).
 */
export function CopyButton({ text, label = 'Copy', name }: { text: string; label?: string; name?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <>
      <button type="button" onClick={copy} aria-label={name}>
        {label}
      </button>
      <span aria-live="polite" className="copy-status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it by hand' : ''}
      </span>
    </>
  );
}
