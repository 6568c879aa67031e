// The consent window's preload: it can only answer the consent question it shows.
// Built into dist/electron/preload/consent.cjs by scripts/build-preloads.mjs.
import { contextBridge, ipcRenderer } from 'electron';
import { exposeHostBridge } from './expose.js';

exposeHostBridge({ contextBridge, ipcRenderer }, 'consent');
