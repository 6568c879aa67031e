// The kill control's preload: it can only stop sessions.
// Built into dist/electron/preload/kill.cjs by scripts/build-preloads.mjs.
import { contextBridge, ipcRenderer } from 'electron';
import { exposeHostBridge } from './expose.js';

exposeHostBridge({ contextBridge, ipcRenderer }, 'kill');
