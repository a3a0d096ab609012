// Every data-driven lesson, in the order of the "start here" path.
import type { KitLesson } from '../kit';
import { cel } from './cel';
import { mergeStrategy } from './merge';
import { collections, compression, mediaTypes, metadataOnly, tables } from './formats';
import { apiGroups, health, terminology, verbs } from './read';
import { bookmarks, consistentReads, streamingLists } from './watching';
import { declarativeValidation } from './declarative';
import { singleResource } from './single';
import { forceDeletion } from './unsafe';
import { deletion, dryRun, fieldValidation, updates } from './writes';

export const KIT_LESSONS: KitLesson[] = [
  terminology,
  verbs,
  apiGroups,
  health,
  collections,
  singleResource,
  tables,
  metadataOnly,
  mediaTypes,
  compression,
  streamingLists,
  bookmarks,
  consistentReads,
  fieldValidation,
  dryRun,
  updates,
  mergeStrategy,
  deletion,
  forceDeletion,
  cel,
  declarativeValidation,
];

export { REMOVED_VERSIONS } from './read';
export { RELIC_CRD, removeRelicCrd } from './unsafe';
