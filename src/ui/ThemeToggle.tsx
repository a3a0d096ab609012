import { useState } from 'react';

type Theme = 'light' | 'dark';

/** The saved choice, else the system preference. */
export function initialTheme(): Theme {
  const saved = localStorage.getItem('theme');
  if (saved === 'light' || saved === 'dark') return saved;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The one place that sets [data-theme] on <html>, which the stylesheet and Monaco follow. */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const choose = (next: Theme) => {
    // Saved only when chosen: until then the system preference decides at each load.
    localStorage.setItem('theme', next);
    applyTheme(next);
    setTheme(next);
  };
  return (
    <button type="button" className="ghost" onClick={() => choose(theme === 'dark' ? 'light' : 'dark')} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
      {theme === 'dark' ? '☀ Light' : '☾ Dark'}
    </button>
  );
}
