// JSON-RPC 2.0 message shapes as the service uses them (HOST-SPEC section 1).
import { RPC_ERRORS } from '../contract/errors.js';

export type RpcId = number | string;

export interface RpcErrorBody {
  code: number;
  message: string;
  data: { code: string; retryable: boolean };
}

export type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId | null; error: RpcErrorBody };

export function success(id: RpcId, result: unknown): RpcResponse {
  return { jsonrpc: '2.0', id, result };
}

export function failure(id: RpcId | null, code: number, toolCode: string, message: string, retryable = false): RpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message, data: { code: toolCode, retryable } } };
}

export function isRpcId(value: unknown): value is RpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export { RPC_ERRORS };
