/** Providers and routes. The app lives under /dashboard/ (Vite base and router basename). */
import { hashKey, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { useEffect } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import { ApiError } from './api/http';
import { SessionProvider } from './auth/session';
import { RequireOrganization, RequireSession, VisitorsOnly } from './layout/guards';
import { Layout } from './layout/Layout';
import { titleFor } from './layout/titles';
import { APP_BASE, getDataMode } from './mode/data-mode';
import { Navigate } from './mode/links';
import { ApiKeysPage } from './pages/api-keys/ApiKeysPage';
import { AuditLogPage } from './pages/audit-log/AuditLogPage';
import { BillingPage } from './pages/billing/BillingPage';
import { BrandingPage } from './pages/branding/BrandingPage';
import { CertificatesPage } from './pages/certificates/CertificatesPage';
import { DriversPage } from './pages/drivers/DriversPage';
import { EventPassesPage } from './pages/event-passes/EventPassesPage';
import { IssuerPage } from './pages/issuer/IssuerPage';
import { AcceptInvitationPage } from './pages/invite/AcceptInvitationPage';
import { MembersPage } from './pages/members/MembersPage';
import { NotFoundPage } from './pages/not-found/NotFoundPage';
import { NewOrganizationPage } from './pages/organizations/NewOrganizationPage';
import { OverviewPage } from './pages/overview/OverviewPage';
import { ForgotPasswordPage } from './pages/reset-password/ForgotPasswordPage';
import { ResetPasswordPage } from './pages/reset-password/ResetPasswordPage';
import { SignInPage } from './pages/sign-in/SignInPage';
import { SignUpPage } from './pages/sign-up/SignUpPage';
import { VerifyEmailPage } from './pages/sign-up/VerifyEmailPage';
import { TemplatePage } from './pages/templates/TemplatePage';
import { TemplatesPage } from './pages/templates/TemplatesPage';
import { TripDetailPage } from './pages/trips/TripDetailPage';
import { TripsPage } from './pages/trips/TripsPage';
import { EndpointPage } from './pages/webhooks/EndpointPage';
import { EventCatalogPage } from './pages/webhooks/EventCatalogPage';
import { EventPassProgramPage } from './pages/event-passes/EventPassProgramPage';
import { WebhooksPage } from './pages/webhooks/WebhooksPage';

export const BASENAME = APP_BASE;

/** 4xx answers are final; only network failures and 5xx are worth one more try. */
function retry(failures: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status < 500) return false;
  return failures < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Cached answers are kept apart per live/test mode: switching shows the other mode's data, never the cached one.
      queries: { retry, refetchOnWindowFocus: false, queryKeyHashFn: (key) => hashKey([getDataMode(), ...key]) },
      mutations: { retry: false },
    },
  });
}

/** Each page's own `<title>`, from the path. */
function DocumentTitle() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = titleFor(pathname);
  }, [pathname]);
  return null;
}

/**
 * The organization's pages, the same in both modes: mounted at `/` (live) and below `/test` (test), so a test page's
 * URL says so and survives a new tab, a link or a bookmark.
 */
function organizationPages() {
  return (
    <Route element={<Layout />}>
      <Route index element={<OverviewPage />} />
      <Route path="api-keys/:service" element={<ApiKeysPage />} />
      <Route path="api-keys" element={<Navigate to="/api-keys/certificate" replace />} />
      <Route path="certificates" element={<CertificatesPage />} />
      <Route path="templates" element={<TemplatesPage />} />
      <Route path="templates/:id" element={<TemplatePage />} />
      <Route path="issuer" element={<IssuerPage />} />
      <Route path="billing" element={<BillingPage />} />
      <Route path="rides" element={<TripsPage kind="rides" key="rides" />} />
      <Route path="rides/:id" element={<TripDetailPage kind="rides" />} />
      <Route path="deliveries" element={<TripsPage kind="deliveries" key="deliveries" />} />
      <Route path="deliveries/:id" element={<TripDetailPage kind="deliveries" />} />
      <Route path="branding" element={<BrandingPage />} />
      <Route path="webhooks" element={<WebhooksPage />} />
      <Route path="webhooks/event-types" element={<EventCatalogPage />} />
      <Route path="webhooks/:id" element={<EndpointPage />} />
      <Route path="drivers" element={<DriversPage />} />
      <Route path="event-passes" element={<EventPassesPage />} />
      <Route path="event-passes/:id" element={<EventPassProgramPage />} />
      <Route path="members" element={<MembersPage />} />
      <Route path="audit-log" element={<AuditLogPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Route>
  );
}

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<VisitorsOnly />}>
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/sign-up" element={<SignUpPage />} />
        <Route path="/reset-password" element={<ForgotPasswordPage />} />
      </Route>
      <Route path="/invite/:token" element={<AcceptInvitationPage />} />
      <Route path="/verify-email/:token" element={<VerifyEmailPage />} />
      <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
      <Route element={<RequireSession />}>
        <Route path="/organizations/new" element={<NewOrganizationPage />} />
        <Route element={<RequireOrganization />}>
          <Route path="test">{organizationPages()}</Route>
          {organizationPages()}
        </Route>
      </Route>
    </Routes>
  );
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter basename={BASENAME}>
        <SessionProvider>
          <DocumentTitle />
          <AppRoutes />
        </SessionProvider>
      </BrowserRouter>
    </QueryClientProvider>
  );
}
