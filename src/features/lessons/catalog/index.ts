// Every data-driven lesson, in the order of the "start here" path.
import type { KitLesson } from '../kit';
import { bodyErrors, dryRunAccess, managedFields, yamlBodies } from './bodies';
import { cel } from './cel';
import { chunkedLists, resourceVersions, serverSideApply, watchLesson } from './concepts';
import { mergeStrategy } from './merge';
import { encodingMemory, metadataPreferences } from './negotiation';
import { deprecatedApis } from './deprecation';
import { storageVersionMigration } from './migration';
import { webhookSideEffects } from './webhooks';
import { celLibraries } from './libraries';
import { ssaController } from './controller';
import { collections, compression, mediaTypes, metadataOnly, tables } from './formats';
import { apiGroups, health, terminology, verbs } from './read';
import { bookmarks, consistentReads, streamingListFromRv, streamingLists } from './watching';
import { celCost, crdApply, pruning } from './crds';
import { ssaScaleAndMigration } from './apply';
import { declarativeValidation } from './declarative';
import { admissionPolicies, mutatingPolicy } from './policies';
import { admissionOrder } from './admissionOrder';
import { priorityAndFairness } from './fairness';
import { impersonation } from './impersonation';
import { singleResource } from './single';
import { createOnUpdate, generateName, namespaceDeletion } from './names';
import { forceDeletion } from './unsafe';
import { userAgent } from './userAgent';
import { kubectlApply } from './kubectlApply';
import { deletion, dryRun, fieldValidation, updates } from './writes';

export const KIT_LESSONS: KitLesson[] = [
  terminology,
  verbs,
  apiGroups,
  deprecatedApis,
  resourceVersions,
  health,
  collections,
  singleResource,
  chunkedLists,
  tables,
  metadataOnly,
  metadataPreferences,
  mediaTypes,
  compression,
  encodingMemory,
  watchLesson,
  streamingLists,
  streamingListFromRv,
  bookmarks,
  consistentReads,
  fieldValidation,
  bodyErrors,
  yamlBodies,
  dryRun,
  dryRunAccess,
  webhookSideEffects,
  updates,
  serverSideApply,
  managedFields,
  kubectlApply,
  userAgent,
  createOnUpdate,
  generateName,
  mergeStrategy,
  ssaController,
  ssaScaleAndMigration,
  crdApply,
  storageVersionMigration,
  pruning,
  deletion,
  namespaceDeletion,
  forceDeletion,
  cel,
  celCost,
  celLibraries,
  admissionPolicies,
  mutatingPolicy,
  admissionOrder,
  declarativeValidation,
  impersonation,
  priorityAndFairness,
];

export { RELIC_CRD, removeRelicCrd } from './unsafe';
