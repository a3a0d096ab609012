// Saving bytes as a file the browser downloads: an object URL on a temporary <a download>.

/** Starts the download of `data` as `filename`. The anchor is attached for Firefox, which ignores a click on a detached one. */
export function downloadBlob(filename: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked later, not at once: the browser reads the URL after the click's task.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `text` as a file of media type `type`. */
export function downloadText(filename: string, text: string, type: string): void {
  downloadBlob(filename, new Blob([text], { type }));
}
