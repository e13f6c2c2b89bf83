import type { Request } from 'express';
import { NotFoundError } from '@platform/service-kit/errors';
import { isIdOf } from '@platform/service-kit/ids';
import type { Handlers } from '@platform/service-kit/operations';
import { partnerIdOf as partnerIdOfKey } from '../api-keys';
import { adminPartnerIdOf } from '../partners';
import type { eventPassesContract } from './event-passes.contract';
import type { CreateProgramInput, EventPassService, IssuePassesInput } from './event-passes.service';

/** An id of the wrong shape is simply not found. */
function programId(value: string): string {
  if (!isIdOf('evp', value)) throw new NotFoundError('Event pass program not found');
  return value;
}

function passId(value: string): string {
  if (!isIdOf('evpass', value)) throw new NotFoundError('Event pass not found');
  return value;
}

/** What one caller (a partner's key, or the dashboard for the token's organization) does with its programs and passes. */
function programOperations(passes: EventPassService, partnerIdOf: (req: Request) => string) {
  return {
    create: async ({ body, req }: { body: CreateProgramInput; req: Request }) => ({ status: 201 as const, body: await passes.createProgram(partnerIdOf(req), body) }),
    list: async ({ query, req }: { query: { limit: number; cursor?: string }; req: Request }) => ({ status: 200 as const, body: await passes.listPrograms(partnerIdOf(req), query) }),
    get: async ({ params, req }: { params: { id: string }; req: Request }) => ({ status: 200 as const, body: await passes.getProgram(partnerIdOf(req), programId(params.id)) }),
    close: async ({ params, req }: { params: { id: string }; req: Request }) => ({ status: 200 as const, body: await passes.closeProgram(partnerIdOf(req), programId(params.id)) }),
    issue: async ({ params, body, req }: { params: { id: string }; body: IssuePassesInput; req: Request }) => ({
      status: 201 as const,
      body: await passes.issuePasses(partnerIdOf(req), programId(params.id), body),
    }),
    listPasses: async ({ params, query, req }: { params: { id: string }; query: { limit: number; cursor?: string }; req: Request }) => ({
      status: 200 as const,
      body: await passes.listPasses(partnerIdOf(req), programId(params.id), query),
    }),
    revokeById: async ({ params, req }: { params: { id: string; pass_id: string }; req: Request }) => {
      const pass = passId(params.pass_id);
      return { status: 200 as const, body: await passes.revokePassById(partnerIdOf(req), programId(params.id), pass) };
    },
  };
}

/**
 * The event-passes operations (live only: the table refuses test keys and test-mode sessions): a partner's key acts
 * for its organization, the dashboard for the token's.
 */
export function eventPassHandlers(passes: EventPassService): Handlers<typeof eventPassesContract> {
  const partner = programOperations(passes, partnerIdOfKey);
  const admin = programOperations(passes, adminPartnerIdOf);
  return {
    createEventPassProgram: partner.create,
    listEventPassPrograms: partner.list,
    getEventPassProgram: partner.get,
    closeEventPassProgram: partner.close,
    issueEventPasses: partner.issue,
    listEventPasses: partner.listPasses,
    revokeEventPassById: partner.revokeById,
    revokeEventPass: async ({ params, req }) => ({ status: 200, body: await passes.revokePass(partnerIdOfKey(req), params.code) }),
    adminCreateEventPassProgram: admin.create,
    adminListEventPassPrograms: admin.list,
    adminGetEventPassProgram: admin.get,
    adminCloseEventPassProgram: admin.close,
    adminIssueEventPasses: admin.issue,
    adminListEventPasses: admin.listPasses,
    adminRevokeEventPassById: admin.revokeById,
  };
}
