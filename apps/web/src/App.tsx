import { Suspense, lazy } from 'react';
import { Route, RouterProvider, Routes, createBrowserRouter } from 'react-router';
import { AppBridges } from './components/common/AppBridges';
import { AppProviders } from './components/common/AppProviders';
import { PageLoading } from './components/common/PageLoading';
import { GuestOnly, HomeRedirect, RequireAuth } from './components/common/RouteGuards';
import { SessionGate } from './components/common/SessionGate';
import { LoginPage } from './pages/login/LoginPage';

// Everything behind sign-in loads on demand, so /login ships only what it needs.
const AppLayout = lazy(() => import('./components/layout/AppLayout'));
// Registration too: the sign-in page is where most visits start, and it links here.
const RegisterPage = lazy(() =>
  import('./pages/register/RegisterPage').then((module) => ({ default: module.RegisterPage })),
);
const DashboardPage = lazy(() => import('./pages/dashboard/DashboardPage'));
const ChatPage = lazy(() => import('./pages/chat/ChatPage'));
const ProfilePage = lazy(() => import('./pages/profile/ProfilePage'));
const KnowledgeRoutes = lazy(() => import('./pages/knowledge/KnowledgeRoutes'));
const PromptsPage = lazy(() => import('./pages/prompts/PromptsPage'));
const ModulePage = lazy(() => import('./pages/module/ModulePage'));
const AdminUsersPage = lazy(() => import('./pages/admin/users/AdminUsersPage'));
const AdminGroupsPage = lazy(() => import('./pages/admin/groups/AdminGroupsPage'));
const AdminIdentityPage = lazy(() => import('./pages/admin/identity/AdminIdentityPage'));
const AdminLegalHoldsPage = lazy(() => import('./pages/admin/legal-holds/AdminLegalHoldsPage'));
const AdminAuditPage = lazy(() => import('./pages/admin/audit/AdminAuditPage'));
const AdminSettingsPage = lazy(() => import('./pages/admin/settings/AdminSettingsPage'));
const AdminStatsPage = lazy(() => import('./pages/admin/stats/AdminStatsPage'));
const AdminApiKeysPage = lazy(() => import('./pages/admin/api-keys/AdminApiKeysPage'));
const NotFoundPage = lazy(() => import('./pages/not-found/NotFoundPage'));
const SsoCompletePage = lazy(() => import('./pages/sso/SsoCompletePage'));
// Open to visitors and members alike: a public link needs no sign-in (the server decides).
const SharePage = lazy(() => import('./pages/share/SharePage'));

function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<HomeRedirect />} />
      <Route
        path="/login"
        element={
          <GuestOnly>
            <LoginPage />
          </GuestOnly>
        }
      />
      <Route
        path="/sso/complete"
        element={
          <Suspense fallback={<PageLoading />}>
            <SsoCompletePage />
          </Suspense>
        }
      />
      <Route
        path="/share/:token"
        element={
          <Suspense fallback={<PageLoading />}>
            <SharePage />
          </Suspense>
        }
      />
      <Route
        path="/register"
        element={
          <GuestOnly>
            <Suspense fallback={<PageLoading />}>
              <RegisterPage />
            </Suspense>
          </GuestOnly>
        }
      />
      <Route
        element={
          <RequireAuth>
            <Suspense fallback={<PageLoading />}>
              <AppLayout />
            </Suspense>
          </RequireAuth>
        }
      >
        <Route path="/dashboard" element={<DashboardPage />} />
        <Route path="/chat" element={<ChatPage />} />
        <Route path="/knowledge/*" element={<KnowledgeRoutes />} />
        <Route path="/prompts" element={<PromptsPage />} />
        <Route path="/profile" element={<ProfilePage />} />
        <Route path="/module/:moduleName" element={<ModulePage />} />
        <Route path="/admin/users" element={<AdminUsersPage />} />
        <Route path="/admin/groups" element={<AdminGroupsPage />} />
        <Route path="/admin/identity" element={<AdminIdentityPage />} />
        <Route path="/admin/legal-holds" element={<AdminLegalHoldsPage />} />
        <Route path="/admin/audit" element={<AdminAuditPage />} />
        <Route path="/admin/settings" element={<AdminSettingsPage />} />
        <Route path="/admin/stats" element={<AdminStatsPage />} />
        <Route path="/admin/api-keys" element={<AdminApiKeysPage />} />
        {/*
         * Unknown addresses live behind sign-in too: a visitor is asked to sign in first and
         * then sees this page (the sign-in returns to the requested address), so the 404 page
         * is always drawn inside the app's frame and never tells a visitor which pages exist.
         */}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

function Root() {
  return (
    <>
      <AppBridges />
      <SessionGate>
        <AppRoutes />
      </SessionGate>
    </>
  );
}

/*
 * A data router with one route around the app's own <Routes>: the routes stay declared as
 * elements, and pages can hold a navigation back (useBlocker, e.g. unsaved settings).
 */
const router = createBrowserRouter([{ path: '*', element: <Root /> }]);

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
