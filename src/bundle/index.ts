// The session bundle (HOST-SPEC section 8): one folder a session, append-only, hash-chained,
// sealed with a signed manifest. See docs/bundle.md for the format.
export { openBundleStore, type BundleStore, type BundleStoreOptions, type ConsentInfo } from './store.js';
export type { ReceiptInput, SessionBundle } from './session-bundle.js';
export { verifyBundle, type VerifyOptions, type VerifyResult, type VerifiedEdits, type KeySource } from './verify.js';
export { exportBundleHtml } from './export-html.js';
export { BundleWriteError, diskProblemOf, type DiskProblem } from './errors.js';
export type { BundleEvent, ConsentEvent, ConsentRequester, CallEvent, ReceiptEvent, PictureEvent, EndEvent } from './format.js';
export type { Manifest, ManifestFile } from './manifest.js';
export type { PixelBox, ReceiptFields, StepPlace } from './format.js';
export { ANNOTATIONS_FILE, type Annotations, type CaptionEdit } from './annotations.js';
