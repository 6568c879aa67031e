import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { UiState, UiStore } from './store.js';

export const UiStoreContext = createContext<UiStore | null>(null);

/** Reads one value from the UI store; pass single-value selectors so views rerender only on it. */
export function useUi<T>(selector: (state: UiState) => T): T {
  const store = useContext(UiStoreContext);
  if (!store) throw new Error('useUi needs a UiStoreContext provider');
  return useStore(store, selector);
}
