/** What an authenticated request knows about its caller. */
export interface ApiKeyPrincipal {
  keyId: string;
  organizationId: string;
  scopes: string[];
  /** false when the token is a test-mode key's: everything it creates and sees is test data. Always true without a test mode. */
  livemode: boolean;
}
