/**
 * The signed-in session: the access token in memory only, renewed from the refresh cookie on load and a minute
 * before it expires. Everything below reads it through useSession().
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Session } from '../api/accounts';
import { setAccessRenewal, setAccessToken } from '../api/http';
import * as api from './session-api';

/** How long before expiry the token is renewed. */
const RENEW_BEFORE_S = 60;

interface SessionState {
  /** null: nobody signed in; undefined: still asking the refresh cookie. */
  session: Session | null | undefined;
  /** Adopts a session answer (sign-in, sign-up, new organization, accepted invitation). */
  adopt: (session: Session) => void;
  switchOrganization: (organizationId: string) => Promise<void>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const queryClient = useQueryClient();

  const current = useRef<Session | null | undefined>(undefined);
  const adopt = useCallback((next: Session | null) => {
    current.current = next;
    setAccessToken(next?.access_token ?? null);
    setSession(next);
    clearTimeout(timer.current);
    if (next?.access_token) {
      const delay = Math.max(5, next.expires_in - RENEW_BEFORE_S) * 1000;
      timer.current = setTimeout(() => {
        api.refreshSession(next.organization?.id).then(adopt, () => adopt(null));
      }, delay);
    }
  }, []);

  useEffect(() => {
    // An admin call refused with 401: renew in the current organization once, or end the session.
    setAccessRenewal(async () => {
      if (!current.current?.access_token) return false;
      try {
        const next = await api.refreshSession(current.current.organization?.id);
        adopt(next);
        return Boolean(next.access_token);
      } catch {
        adopt(null);
        return false;
      }
    });
    return () => setAccessRenewal(null);
  }, [adopt]);

  useEffect(() => {
    let live = true;
    api.refreshSession().then(
      (answer) => live && adopt(answer),
      () => live && adopt(null),
    );
    return () => {
      live = false;
      clearTimeout(timer.current);
    };
  }, [adopt]);

  const switchOrganization = useCallback(
    async (organizationId: string) => {
      const next = await api.refreshSession(organizationId);
      queryClient.clear();
      adopt(next);
    },
    [adopt, queryClient],
  );

  const signOut = useCallback(async () => {
    try {
      await api.signOut();
    } finally {
      queryClient.clear();
      adopt(null);
    }
  }, [adopt, queryClient]);

  const value = useMemo(() => ({ session, adopt, switchOrganization, signOut }), [session, adopt, switchOrganization, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The caller's role in the current organization (undefined without one). */
export function useRole() {
  return useSession().session?.organization?.role;
}

export function useIsOwner(): boolean {
  return useRole() === 'owner';
}
