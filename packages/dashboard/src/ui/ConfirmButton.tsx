/** A button whose action runs only once the user has said yes to `question` (the browser's confirm dialog). */
import type { ButtonHTMLAttributes } from 'react';

export function ConfirmButton({ question, onConfirm, ...button }: { question: string; onConfirm: () => void } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'onClick'>) {
  return <button type="button" {...button} onClick={() => window.confirm(question) && onConfirm()} />;
}
