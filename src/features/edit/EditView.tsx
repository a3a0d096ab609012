// The Edit view: load one object, edit it as YAML or JSON, and write it back with any of the API's
// write verbs — POST, PUT (resourceVersion as an optimistic lock), the four PATCH types, DELETE —
// with dryRun, fieldValidation and fieldManager. Every request is shown exactly as sent.
//
// Layout of the code: writeModes.ts (the write-mode table), state.ts (one reducer), body.ts (pure:
// bodies, parsing, outcomes), request.ts (the wire request), useEditSession.ts (the queries, the
// object's watch and the write mutation), and presentational panels (objectPanels.tsx,
// writePanels.tsx, panels.tsx). This file lays the panels out.
import type { Route } from '../../routing';
import { ErrorBox } from '../../ui/ErrorBox';
import './edit.css';
import { DeletionPanel } from '../deletion';
import { FourWays } from './FourWays';
import { editorKey } from './handover';
import { EditHeader, LatestSection, ObjectPanel, OutcomeSection } from './objectPanels';
import { ExchangesPanel, ServerChangedBanner } from './panels';
import { RebaseConflicts } from './RebaseConflicts';
import { Subresources } from './Subresources';
import { useEditorSchema } from './useEditorSchema';
import { type EditSession, useEditSession } from './useEditSession';
import { WritePanel } from './writePanels';
import type { JsonObject } from '../../k8s/patch';

export function EditView({ route, context }: { route: Route; context: string }) {
  // A fresh editor per object: its state (edit, mode, results) belongs to one object.
  return <EditObject key={editorKey(route)} route={route} context={context} />;
}

function EditObject({ route, context }: { route: Route; context: string }) {
  const e = useEditSession(context, route);
  const editorSchema = useEditorSchema(context, e.res);
  const { s, loaded, loadedPath } = e;

  if (!e.hasType) {
    return (
      <section>
        <h2>Edit</h2>
        <p>Open an object from the Lists view (or choose a resource there) to edit it here; without a name this view creates a new object of the route's resource.</p>
      </section>
    );
  }
  // Only a first read that failed replaces the view: an object that vanishes while open (deleted
  // here or elsewhere) keeps the editor, the deletion log and the outcome on screen, with a note.
  if (loaded.error && !s.base) return <ErrorBox error={loaded.error} title={`Could not read ${loadedPath}`} />;
  if (loadedPath && !s.base) return <p className="muted">Reading {loadedPath}…</p>;

  return (
    <div className="edit-view">
      {loaded.error && (
        <p className="edit-wide warning-list" role="status" aria-label="Object gone">
          The server no longer has {loadedPath} ({loaded.error instanceof Error ? loaded.error.message : String(loaded.error)}): what is shown is the last version read.
        </p>
      )}
      <EditHeader e={e} />
      <ServerChanged e={e} />
      {s.rebase && <RebaseConflicts rebase={s.rebase} onChoose={(path, side) => e.dispatch({ type: 'choose', path, side })} />}
      <ObjectPanel e={e} editorSchema={editorSchema} />
      <WritePanel e={e} />
      <Beside e={e} />
      <OutcomeSection e={e} />
      <LatestSection e={e} />
      <ExchangesPanel exchanges={s.exchanges} context={context} />
    </div>
  );
}

function ServerChanged({ e }: { e: EditSession }) {
  const { s, dispatch, guarded, edited, hints } = e;
  if (!s.serverChanged || !s.base) return null;
  const object = s.serverChanged.object;
  return (
    <ServerChangedBanner
      base={s.base}
      changed={s.serverChanged}
      guarded={guarded}
      editParses={!!edited}
      onFollow={() => object && dispatch({ type: 'rebase', how: 'discard', object })}
      onReapply={() => object && dispatch({ type: 'rebase', how: 'reapply', object, edited, hints })}
      onKeepMine={() => object && dispatch({ type: 'rebase', how: 'keep-mine', object, edited })}
    />
  );
}

/** The views beside the editor: the four ways, the subresources, the deletion as it happens. */
function Beside({ e }: { e: EditSession }) {
  const { s, context, loadedPath, baseView, edited, hints, res, loaded, discovery, namespace, route } = e;
  return (
    <>
      {loadedPath && baseView && edited && s.mode !== 'delete' && (
        <details className="edit-wide">
          <summary>The same change four ways (JSON Patch, merge, strategic merge, apply)</summary>
          <FourWays context={context} objectPath={loadedPath} base={baseView} live={s.base} edited={edited} fieldManager={s.opts.fieldManager} hints={hints} />
        </details>
      )}
      {res && loadedPath && s.base && <Subresources context={context} resource={res} objectPath={loadedPath} latest={(loaded.data as JsonObject | undefined) ?? s.base} />}
      {s.mode === 'delete' && res && route.name && (
        <section className="edit-wide" aria-label="Deletion">
          <DeletionPanel context={context} discovery={discovery.data} resource={res} owner={{ group: res.group, version: res.version, resource: res.resource, namespace, name: route.name }} />
        </section>
      )}
    </>
  );
}
