import { contractDefs } from './schema.generated.js';
import type { ErrorCode } from './types.js';

/** Every ToolError code of the contract, in the contract's order. */
export const ERROR_CODES: readonly ErrorCode[] = contractDefs.errorCode.enum;

/** Codes whose failure may pass if the same call is made again later. */
const RETRYABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['not_armed', 'service_unavailable']);

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code);
}

/**
 * A failure with a contract error code. `code` is a contract code, or a transport code
 * (for example `unknown_method`) that the contract says passes through unchanged.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  readonly code: ErrorCode | (string & {});
  readonly retryable: boolean;

  constructor(code: ErrorCode | (string & {}), message: string, retryable?: boolean) {
    super(message);
    this.code = code;
    this.retryable = retryable ?? (isErrorCode(code) && RETRYABLE.has(code));
  }

  toJSON(): { code: string; message: string; retryable: boolean } {
    return { code: this.code, message: this.message, retryable: this.retryable };
  }
}

/** JSON-RPC 2.0 error numbers used on the wire (HOST-SPEC section 1). */
export const RPC_ERRORS = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  toolError: -32000,
} as const;
