// The shell's keys: Alt+1…9 and Alt+0 switch views, Ctrl+K (Cmd+K) or `:` opens the command palette.
import { useEffect } from 'react';
import { navigate, type View, VIEWS } from '../routing';

/** Whether a key typed here is text (a field, an editor): `:` then types, it does not open the palette. */
function typingIn(el: EventTarget | null): boolean {
  return el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('.monaco-editor'));
}

/** The view Alt+<digit> opens: 1…9 the first nine, 0 the tenth (as on the keyboard's row). */
function viewForDigit(key: string): View | undefined {
  if (!/^[0-9]$/.test(key)) return undefined;
  return VIEWS[(Number(key) + 9) % 10];
}

/** Alt+1…9 and Alt+0 (the tenth) switch views from anywhere, without leaving the keyboard. */
export function useViewKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const v = viewForDigit(e.key);
      if (v) {
        e.preventDefault();
        navigate({ view: v }, { keepExtra: false });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** The command palette: Ctrl+K (Cmd+K) from anywhere, `:` (k9s) where a key is not text. */
export function usePaletteKeys(open: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const ctrlK = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k';
      const colon = e.key === ':' && !e.ctrlKey && !e.metaKey && !e.altKey && !typingIn(e.target);
      if (!ctrlK && !colon) return;
      e.preventDefault();
      // Before a Monaco editor sees it (capture): Ctrl+K is the start of its chords, which it would swallow.
      e.stopPropagation();
      open();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open]);
}
