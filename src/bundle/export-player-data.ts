// What the HTML export hands its embedded player: written by export-player.ts (Node), read by
// player-page/embed.ts (in the page). Plain data and names, so both sides can import it.

/** The id of the player's section in the export. */
export const PLAYER_ID = 'player';
/** The id of the `<script type="application/json">` holding EmbeddedPlayerData. */
export const PLAYER_DATA_ID = 'player-data';

export interface EmbeddedPlayerData {
  /** The recording's lines (timeline.ts's TimelineLine); a frame's `file` is its index in `frames`, as text. */
  lines: ({ type: 'frame'; at: number; file: string; width: number; height: number } | { type: 'gap'; at: number; reason: string })[];
  /** The frames, each a `data:image/jpeg;base64,…` URI, each distinct frame once. */
  frames: string[];
  /** The steps (player.ts's PlayerStep): when, the caption shown, where it happened. */
  steps: { at: number; caption: string; box?: { x: number; y: number; width: number; height: number }; point?: { x: number; y: number }; viewport?: { width: number; height: number } }[];
}
