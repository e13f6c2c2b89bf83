import { ApiError, ForbiddenError } from '@platform/service-kit/errors';

/** The refusals several of the accounts' jobs answer alike. */
export function notFoundInvitation(): never {
  throw new ApiError(404, 'invitation_not_found', 'Invitation not found, expired or already used');
}
export const notVerified = () => new ForbiddenError('Confirm your email address first (a password reset confirms it too)', 'email_not_verified');
/** A sign-up or password-reset link that is unknown, expired or used. */
export const badEmailToken = () => new ApiError(404, 'token_not_found', 'This link is unknown, expired or already used');
