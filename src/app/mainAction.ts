// Each view marks its main action with `data-main-action` (a lesson's "Run all steps", the
// console's Send): the skip link and the command palette put the focus there.

/**
 * Focuses the view's main action once the view has drawn it (a lazy view may take a moment, a
 * lesson's button waits for its access review); else the content. After a navigation (`afterRender`)
 * the first look waits for React to draw the new route, so that the old view's action is not taken.
 */
export function focusMainAction(deadline = Date.now() + 5000, afterRender = false): void {
  const el = afterRender ? null : document.querySelector<HTMLElement>('#content [data-main-action]:not([disabled])');
  if (el) el.focus();
  else if (Date.now() < deadline) setTimeout(() => focusMainAction(deadline), 50);
  else document.getElementById('content')?.focus();
}
