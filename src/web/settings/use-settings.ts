import { useSyncExternalStore } from 'react';
import { type Settings, settingsStore } from './settings-store.ts';

export function useSettings(): [Settings, (next: Settings) => void] {
  const settings = useSyncExternalStore(settingsStore.subscribe, settingsStore.get, settingsStore.get);
  return [settings, settingsStore.set];
}
