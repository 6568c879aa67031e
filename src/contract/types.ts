// TypeScript types of the v1 contract, inferred from the schema (never typed out by hand).
import type { FromSchema } from 'json-schema-to-ts';
import type { contractDefs } from './schema.generated.js';

type Defs = typeof contractDefs;

export type ElementOp = FromSchema<Defs['elementOp']>;
export type ErrorCode = FromSchema<Defs['errorCode']>;
export type Step = FromSchema<Defs['step']>;

export type RequestParams = FromSchema<Defs['request']['params']>;
export type RequestResult = FromSchema<Defs['request']['result']>;
export type AppsParams = FromSchema<Defs['apps']['params']>;
export type AppsResult = FromSchema<Defs['apps']['result']>;
export type SnapshotParams = FromSchema<Defs['snapshot']['params']>;
export type SnapshotResult = FromSchema<Defs['snapshot']['result']>;
export type ActParams = FromSchema<Defs['act']['params']>;
export type ActResult = FromSchema<Defs['act']['result']>;
export type BatchParams = FromSchema<Defs['batch']['params']>;
export type BatchResult = FromSchema<Defs['batch']['result']>;
export type EndParams = FromSchema<Defs['end']['params']>;
export type EndResult = FromSchema<Defs['end']['result']>;

export type SnapshotElement = SnapshotResult['elements'][number];

/** Each method of the service with its params and result. */
export interface DemoMethods {
  'demo.request': { params: RequestParams; result: RequestResult };
  'demo.apps': { params: AppsParams; result: AppsResult };
  'demo.snapshot': { params: SnapshotParams; result: SnapshotResult };
  'demo.act': { params: ActParams; result: ActResult };
  'demo.batch': { params: BatchParams; result: BatchResult };
  'demo.end': { params: EndParams; result: EndResult };
}

export type DemoMethod = keyof DemoMethods;
