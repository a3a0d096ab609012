// Monaco's diff editor for the edit view: a dry-run preview, before/after of a write, or your edit
// against the server's newer version.
import { MonacoDiff } from '../../ui/MonacoDiff';

export function EditDiff({ original, modified, label, originalTitle, modifiedTitle }: { original: string; modified: string; label: string; originalTitle: string; modifiedTitle: string }) {
  return (
    <figure className="edit-diff" aria-label={label}>
      <figcaption className="row small muted">
        <span className="edit-diff-side">← {originalTitle}</span>
        <span className="edit-diff-side">→ {modifiedTitle}</span>
      </figcaption>
      <MonacoDiff height="340px" language="yaml" original={original} modified={modified} originalLabel={`${label}: ${originalTitle} (read-only)`} modifiedLabel={`${label}: ${modifiedTitle} (read-only)`} />
    </figure>
  );
}
