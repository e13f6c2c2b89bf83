/** The live/test switch as React state: pages re-read their data in the chosen mode (query keys carry the mode). */
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { getDataMode, setDataMode, type DataMode } from './data-mode';

interface ModeState {
  mode: DataMode;
  setMode: (mode: DataMode) => void;
}

const ModeContext = createContext<ModeState>({ mode: 'live', setMode: () => undefined });

export function ModeProvider({ children }: { children: ReactNode }) {
  const [mode, setState] = useState<DataMode>(getDataMode);
  const setMode = useCallback((next: DataMode) => {
    setDataMode(next);
    setState(next);
  }, []);
  return <ModeContext.Provider value={{ mode, setMode }}>{children}</ModeContext.Provider>;
}

export function useDataMode(): ModeState {
  return useContext(ModeContext);
}
