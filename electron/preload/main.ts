// The main window's preload: sessions, bundles and settings, so every bridge call.
// Built into dist/electron/preload/main.cjs by scripts/build-preloads.mjs.
import { contextBridge, ipcRenderer } from 'electron';
import { exposeHostBridge } from './expose.js';

exposeHostBridge({ contextBridge, ipcRenderer }, 'main');
