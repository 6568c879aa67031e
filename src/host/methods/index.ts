// Every method of the agent demo service and its handler. Adding a method touches its file
// and this table, nothing else; `satisfies` keeps each handler typed by the contract.
import { act } from './act.js';
import { apps } from './apps.js';
import { batch } from './batch.js';
import { end } from './end.js';
import { request } from './request.js';
import { snapshot } from './snapshot.js';
import type { MethodTable } from './types.js';

export const METHODS = {
  'demo.apps': apps,
  'demo.request': request,
  'demo.snapshot': snapshot,
  'demo.act': act,
  'demo.batch': batch,
  'demo.end': end,
} satisfies MethodTable;

export type { MethodHandler, MethodHost, MethodTable } from './types.js';
