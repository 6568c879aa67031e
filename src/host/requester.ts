// The requesting process as the UI shows it: what the socket's peer credentials say, with the
// user named only when it is not the person's own.
import type { PeerCredentials } from '../service/peer-credentials.js';
import type { RequesterView } from '../ui-protocol/index.js';

export function requesterView(peer: PeerCredentials): RequesterView {
  return {
    pid: peer.pid,
    executable: peer.executable,
    otherUser: peer.sameUser === false ? peer.user : null,
    sharedWith: peer.sharedWith,
    unknown: peer.unknownReason,
  };
}
