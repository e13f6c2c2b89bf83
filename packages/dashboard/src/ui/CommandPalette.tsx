/**
 * Ctrl+K (⌘K on a Mac), or the header's Search button, opens the command palette: a modal dialog with a combobox whose
 * listbox offers the pages whose names match what is typed, and, from two characters on, what the services find
 * (certificate ids, codes and numbers, member emails, ride, delivery and endpoint ids, event-pass codes). Arrow keys
 * move through the options (Home/End to the ends), Enter opens one, Escape closes and focus goes back where it was.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from '../mode/links';
import { useDataMode } from '../mode/useDataMode';
import { errorMessage } from './problems';
import { searchEverything, type SearchHit } from './search-api';

export interface PalettePage {
  to: string;
  label: string;
}

/** How long typing must pause before the services are asked. */
const DEBOUNCE_MS = 200;

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export function CommandPalette({ pages }: { pages: readonly PalettePage[] }) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);

  const show = useCallback(() => {
    opener.current = document.activeElement as HTMLElement | null;
    setOpen(true);
  }, []);
  const close = useCallback(() => {
    setOpen(false);
    // Back to where the user was (the Search button, or whatever had focus when Ctrl+K was pressed).
    setTimeout(() => opener.current?.focus(), 0);
  }, []);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        if (open) close();
        else show();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, show, close]);

  return (
    <>
      <button type="button" className="palette-button" onClick={show} aria-haspopup="dialog" aria-keyshortcuts="Control+K Meta+K">
        Search <kbd aria-hidden="true">{isMac() ? '⌘K' : 'Ctrl K'}</kbd>
      </button>
      {open && <PaletteDialog pages={pages} onClose={close} />}
    </>
  );
}

type Option = { key: string; group: 'Pages' | 'Results'; kind?: string; label: string; detail?: string | null; to: string };

function PaletteDialog({ pages, onClose }: { pages: readonly PalettePage[]; onClose: () => void }) {
  const navigate = useNavigate();
  const { mode } = useDataMode();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const id = useId();
  const listId = `${id}-list`;
  const titleId = `${id}-title`;
  const q = useDebounced(text.trim(), DEBOUNCE_MS);
  const search = useQuery({
    queryKey: ['palette-search', mode, q],
    queryFn: ({ signal }) => searchEverything(q, 5, signal),
    enabled: q.length >= 2,
    staleTime: 10_000,
  });

  useEffect(() => input.current?.focus(), []);

  const options: Option[] = useMemo(() => {
    const needle = text.trim().toLowerCase();
    const matchingPages = pages
      .filter((page) => !needle || page.label.toLowerCase().includes(needle))
      .map((page) => ({ key: `page-${page.to}`, group: 'Pages' as const, label: page.label, to: page.to }));
    const hits = q.length >= 2 && q === text.trim() ? (search.data ?? []) : [];
    return [...matchingPages, ...hits.map((hit: SearchHit) => ({ key: hit.key, group: 'Results' as const, kind: hit.kind, label: hit.label, detail: hit.detail, to: hit.to }))];
  }, [pages, text, q, search.data]);

  useEffect(() => setActive(0), [text, options.length]);

  const choose = (option: Option | undefined) => {
    if (!option) return;
    onClose();
    navigate(option.to);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'ArrowDown' && options.length) {
      event.preventDefault();
      setActive((active + 1) % options.length);
    } else if (event.key === 'ArrowUp' && options.length) {
      event.preventDefault();
      setActive((active - 1 + options.length) % options.length);
    } else if (event.key === 'Home' && event.ctrlKey) {
      event.preventDefault();
      setActive(0);
    } else if (event.key === 'End' && event.ctrlKey) {
      event.preventDefault();
      setActive(Math.max(options.length - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === 'Tab') {
      // Focus stays in the dialog: its only control is the combobox.
      event.preventDefault();
      input.current?.focus();
    }
  };

  const activeId = options[active] ? `${id}-option-${active}` : undefined;
  const searching = q.length >= 2 && (search.isFetching || q !== text.trim());
  let status = '';
  if (text.trim().length === 1) status = 'Type one more character to search ids, codes and emails.';
  else if (searching) status = 'Searching…';
  else if (search.error && q.length >= 2) status = `Could not search: ${errorMessage(search.error)}`;
  else if (text.trim() && options.length === 0) status = `Nothing matches “${text.trim()}”.`;
  else if (q.length >= 2) status = `${options.length} ${options.length === 1 ? 'match' : 'matches'}.`;

  return (
    <div className="palette-backdrop" onMouseDown={(event) => { if (event.target === event.currentTarget) onClose(); }}>
      <div ref={dialog} className="palette" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown} data-testid="command-palette">
        <h2 id={titleId} className="visually-hidden">
          Search and go to
        </h2>
        <input ref={input} type="text" role="combobox" aria-expanded={options.length > 0} aria-controls={listId} aria-autocomplete="list"
          aria-activedescendant={activeId} aria-label="Search pages, ids, codes and emails" placeholder="Go to a page, or search ids, codes, emails…"
          value={text} onChange={(event) => setText(event.target.value)} autoComplete="off" spellCheck={false} />
        <p className="palette-status" role="status" aria-live="polite">
          {status}
        </p>
        <ul id={listId} role="listbox" aria-label="Pages and matches" className="palette-list">
          {options.map((option, index) => (
            <li key={option.key} id={`${id}-option-${index}`} role="option" aria-selected={index === active} className={index === active ? 'active' : undefined}
              onMouseDown={(event) => event.preventDefault()} onClick={() => choose(option)} onMouseMove={() => setActive(index)}>
              <span className="palette-kind">{option.kind ?? 'Page'}</span> <span className="palette-label">{option.label}</span>
              {option.detail && <span className="palette-detail">{option.detail}</span>}
            </li>
          ))}
        </ul>
        <p className="hint palette-keys">↑ ↓ to move, Enter to open, Esc to close</p>
      </div>
    </div>
  );
}
