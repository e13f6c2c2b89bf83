/** The jobs feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { assignedDriverResponse, jobListQuerySchema } from './jobs.schema';
export type { JobListQuery } from './jobs.schema';
export { presentAssignee } from './assignee.presenter';
export { createInMemoryJobRepository } from './in-memory-jobs';
export type { InMemoryDatabase } from './in-memory-jobs';
export { createAndDispatch } from './job-creation';
export type { JobCreationDeps } from './job-creation';
export { createJobLifecycle } from './job-lifecycle';
export type { JobLifecyclePorts, JobOutcome, JobRecord } from './job-lifecycle';
export { jobListFilter } from './job-list-query';
export { jobReadsFastLane, partnerJobReads } from './job-reads.fast-lane';
export { createKnexJobRepository } from './job.repository';
export type { JobLookup, JobRepository } from './job.repository';
export { placeColumns } from './job.types';
export type { JobPlaceColumns, PlaceInput } from './job.types';
export { jobReadHandlers, partnerJobHandlers } from './partner-job.handlers';
export type { JobReads, PartnerJobs } from './partner-job.handlers';
export { adminJobListAnswers, adminJobRead, jobCancelAnswers, jobEventStream, jobReadHeaders, jobStreamAnswers, jobWithEtag, partnerJobListAnswers, partnerJobReadAnswers } from './partner-job.contract';
