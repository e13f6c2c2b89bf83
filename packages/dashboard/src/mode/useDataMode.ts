/** The live/test mode as the router sees it: the URL holds it, the switch navigates to the same page in the other mode. */
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { modeOfPath, pathInMode, type DataMode } from './data-mode';

interface ModeState {
  mode: DataMode;
  /** Opens the page shown now in `mode` (`/rides/ride_1` ↔ `/test/rides/ride_1`). */
  setMode: (mode: DataMode) => void;
}

export function useDataMode(): ModeState {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const mode = modeOfPath(pathname);
  const setMode = useCallback((next: DataMode) => navigate(pathInMode(pathname, next)), [navigate, pathname]);
  return { mode, setMode };
}
