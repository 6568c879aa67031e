// demo.apps: the catalog, ids and names only (HOST-SPEC section 3).
import type { MethodHandler } from './types.js';

export const apps: MethodHandler<'demo.apps'> = async (_params, host) => ({
  apps: host.catalog().map(({ id, name }) => ({ id, name })),
});
