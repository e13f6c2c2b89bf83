// Who is calling: admin/driver JWTs and API tokens.
export * from './admin-auth';
export * from './api-tokens';
