import type {
  LoginResult,
  RefreshResult,
  SessionAbilities,
  SessionData,
  SiteConfig,
  User,
} from '@aiplatform/contracts';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { clearChatLocalData } from './chat-local-data';
import { parseExpiresIn } from './expires-in';

export const AUTH_STORAGE_KEY = 'aiplatform-auth';

interface SessionFields {
  user: User | null;
  permissions: string[];
  /** What the server lets the user open and do; null until it has said (signed out, or an older stored session). */
  abilities: SessionAbilities | null;
  accessToken: string | null;
  refreshToken: string | null;
  /** Epoch milliseconds at which the access token stops working. */
  tokenExpiresAt: number | null;
  isAuthenticated: boolean;
  siteConfig: SiteConfig | null;
}

interface AuthState extends SessionFields {
  /**
   * True while the app moves to /login after a deliberate sign-out or an ended session,
   * so the route guard does not add its own 'login required' warning.
   */
  leaving: boolean;
  setSession(result: LoginResult): void;
  setTokens(tokens: RefreshResult): void;
  setSessionData(data: SessionData): void;
  setUser(user: User): void;
  clearSession(options?: { leaving?: boolean }): void;
}

const signedOut: SessionFields = {
  user: null,
  permissions: [],
  abilities: null,
  accessToken: null,
  refreshToken: null,
  tokenExpiresAt: null,
  isAuthenticated: false,
  siteConfig: null,
};

const tokenFields = (tokens: RefreshResult) => ({
  accessToken: tokens.accessToken,
  refreshToken: tokens.refreshToken,
  tokenExpiresAt: Date.now() + parseExpiresIn(tokens.expiresIn),
});

export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      ...signedOut,
      leaving: false,
      setSession: (result) => {
        clearChatLocalData();
        set({
          ...tokenFields(result),
          user: result.user,
          permissions: result.permissions,
          abilities: result.abilities,
          siteConfig: result.siteConfig,
          isAuthenticated: true,
          leaving: false,
        });
      },
      setTokens: (tokens) => set(tokenFields(tokens)),
      setSessionData: (data) =>
        set({ user: data.user, permissions: data.permissions, abilities: data.abilities, siteConfig: data.siteConfig }),
      setUser: (user) => set({ user }),
      clearSession: (options) => {
        clearChatLocalData();
        set({ ...signedOut, leaving: options?.leaving ?? false });
      },
    }),
    {
      name: AUTH_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state): SessionFields => ({
        user: state.user,
        permissions: state.permissions,
        abilities: state.abilities,
        accessToken: state.accessToken,
        refreshToken: state.refreshToken,
        tokenExpiresAt: state.tokenExpiresAt,
        isAuthenticated: state.isAuthenticated,
        siteConfig: state.siteConfig,
      }),
    },
  ),
);

/*
 * Refresh tokens rotate on every use and a reused one revokes the whole session, so a
 * second tab must pick up the tokens the first tab just received instead of replaying
 * its stale copy. Sign-outs in one tab reach the others the same way.
 */
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === AUTH_STORAGE_KEY) void useAuthStore.persist.rehydrate();
  });
}
