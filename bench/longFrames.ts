// What a long main-thread task was, from the Long Animation Frames API (Chromium 123+): each frame
// whose work and rendering took over 50 ms, with the scripts in it that ran 5 ms or more (what
// invoked each, its function and file) and when rendering started. The Long Tasks API says only
// that a task was long; this says whether it was our script, Blink's style/layout/paint, or time
// in which no script ran (a native task, a GC outside script, the renderer waiting for a core).

/** Init script: keeps every long animation frame of the document in window.__longFrames. */
export const LONG_FRAMES = `
  window.__longFrames = [];
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longFrames.push(e); }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {}
`;

/**
 * Page code (an expression: a function of the window's frames, a time from which frames count, and
 * the longest long task `[start, duration]` or null) returning one line: the frame holding that
 * task (or, without one, the longest frame), split into script, rendering's callbacks,
 * style/layout/paint, and the rest, in which no script of 5 ms or more ran; then its longest
 * scripts. Times in ms, `at` from the document's start.
 */
export const DESCRIBE_FRAME = `((from, task) => {
  const fs = (window.__longFrames || []).filter((f) => f.startTime + f.duration > from);
  if (!fs.length) return 'no long animation frame';
  const holding = task && fs.find((f) => f.startTime <= task[0] + 1 && task[0] < f.startTime + f.duration);
  const f = holding || fs.reduce((a, b) => (b.duration > a.duration ? b : a));
  const r = (x) => Math.round(x);
  const end = f.startTime + f.duration;
  const script = f.scripts.reduce((n, s) => n + s.duration, 0);
  const forced = f.scripts.reduce((n, s) => n + s.forcedStyleAndLayoutDuration, 0);
  // requestAnimationFrame and observer callbacks are scripts inside the rendering phase.
  const inRender = f.renderStart ? f.scripts.filter((s) => s.startTime >= f.renderStart).reduce((n, s) => n + s.duration, 0) : 0;
  const callbacks = f.renderStart ? Math.max(0, f.styleAndLayoutStart - f.renderStart - inRender) : 0;
  const layout = f.renderStart ? end - f.styleAndLayoutStart : 0;
  const rest = f.duration - script - callbacks - layout;
  const file = (u) => (u || '').split('/').pop() || '-';
  const top = [...f.scripts].sort((a, b) => b.duration - a.duration).slice(0, 4)
    .map((s) => s.invokerType + ' ' + s.invoker + ' ' + (s.sourceFunctionName || '(anonymous)') + '@' + file(s.sourceURL) + ':' + s.sourceCharPosition + ' ' + r(s.duration) + (s.forcedStyleAndLayoutDuration >= 1 ? ' (forced style/layout ' + r(s.forcedStyleAndLayoutDuration) + ')' : ''));
  return (holding ? 'its frame ' : 'no long task; longest frame ') + r(f.duration) + ' ms at ' + r(f.startTime) + ' (blocking ' + r(f.blockingDuration) + '): script ' + r(script) +
    (forced >= 1 ? ' (forced style/layout ' + r(forced) + ')' : '') + ', render callbacks ' + r(callbacks) + ', style/layout/paint ' + r(layout) + ', rest ' + r(rest) + ' (no script of 5 ms or more)' +
    (top.length ? '; scripts: ' + top.join(', ') : '; no script of 5 ms or more');
})`;
