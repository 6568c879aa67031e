// Who asked for a session, in words: one phrasing for the bundle view, the HTML export and
// anything else that shows a consent record's requester. Imports nothing (the renderer bundles it).

/** The process that asked, as a consent record holds it (bundle format: `consent.requester`). */
export interface RequesterFacts {
  pid: number | null;
  executable: string | null;
  otherUser: string | null;
  sharedWith: number;
  unknown: string | null;
}

/**
 * Who asked, in one line: `/usr/bin/node (pid 4242)`, with the user when it was not the
 * person's own and the processes that shared the connection; or `unknown process: <why>`.
 * Plain text: callers escape it for where it goes.
 */
export function requesterText(requester: RequesterFacts): string {
  const { pid, executable, otherUser, sharedWith, unknown } = requester;
  if (pid === null) return `unknown process: ${unknown ?? 'it could not be read'}`;
  const parts = [`${executable ?? 'unknown executable'} (pid ${pid})`];
  if (otherUser !== null) parts.push(`running as user ${otherUser}, not the person's own`);
  if (sharedWith > 0) parts.push(`connection shared with ${sharedWith} other process${sharedWith === 1 ? '' : 'es'}`);
  return parts.join(', ');
}
