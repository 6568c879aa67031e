// The person's settings as the rest of the host sees them: Demo mode, the app catalog and the
// denied apps. The settings part owns these types; settings-store.ts persists and validates
// them (its rules go beyond shape: unique ids, origins), and the UI protocol checks their
// shape with this schema where they arrive. Browser-safe: the renderer bundles this file.
import * as v from 'valibot';

export const AppEntrySchema = v.strictObject({
  id: v.string(),
  name: v.string(),
  url: v.string(),
  allowedOrigins: v.array(v.string()),
});
/** One app of the catalog: a web app the agent may ask to drive. */
export type AppEntry = v.InferOutput<typeof AppEntrySchema>;

export const SettingsSchema = v.strictObject({
  demoMode: v.boolean(),
  apps: v.array(AppEntrySchema),
  deniedApps: v.array(v.string()),
  /** Limits on what a session's recording may store; the defaults when absent. */
  recording: v.optional(v.strictObject({ maxSessionBytes: v.number(), maxBytesPerSecond: v.number() })),
});
export type Settings = v.InferOutput<typeof SettingsSchema>;
